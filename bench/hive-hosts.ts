// Issue 35 §5: a cascade to 32 fake agents (test/fixtures/fake-agent.mjs with Claude Code's
// profile) spread over this machine and two ssh hosts (real sshds on loopback,
// test/fixtures/sshd/hosts.ts), beside the same cascade to 32 local ones. The figure is the time
// from the hive_message call until every agent's own log has taken the text (the call's own
// wall time beside it); each run's texts are then checked once in every log.
import { join } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { benchHome, loadavg, median, percentile, round, startServer, timed, type Emit, type Server } from "./common.js";
import { sshdAvailable } from "../test/fixtures/sshd/sshd.js";
import { startLoopbackHosts, type NamedHost } from "../test/fixtures/sshd/hosts.js";
import { FAKE_AGENT, writeFakeClaudeProfile } from "../test/e2e/fake-claude-profile.js";
import { tempFolder } from "../test/temp-folder.js";

const AGENTS = 32;
/**
 * Each turn this long (the call's answer does not wait for it). Not shorter: at load 20+ a 200 ms
 * turn's Stop hook fires before the server has seen the program take its text, the hive drops
 * it as a stale end (turns.ts hookIsStale against the turn's `since`, set to when the take was
 * seen) and the agent stays "working" for good (seen here for 7 of 32 agents in one run).
 */
const TURN_MS = 2000;
const WARMUP = 2;
const CASCADES = Number(process.env.BENCH_HOSTS_RUNS ?? 15);

interface Placed {
  name: string;
  host?: NamedHost;
  log: string;
}

export async function benchHiveHosts(emit: Emit): Promise<void> {
  if (!sshdAvailable()) {
    emit({ bench: "hive across hosts", skipped: "sshd (openssh-server) is not installed" });
    return;
  }
  const places = await startLoopbackHosts(2);
  const profiles = writeFakeClaudeProfile();
  try {
    const local = await cascades(emit, [], { TERMHIVE_PROFILES: profiles });
    const spread = await cascades(emit, places.hosts, { TERMHIVE_PROFILES: profiles, TERMHIVE_SSH: places.sshCommand });
    const figures = (x: Samples) => ({ median: round(median(x.delivered)), p90: round(percentile(x.delivered, 90)), call_median: round(median(x.call)), queued_median: median(x.queued) });
    const [far, near] = [figures(spread), figures(local)];
    emit({
      bench: "hive_message cascade to 32 fake agents: local + 2 ssh hosts vs local only (delivered to all)", unit: "ms",
      spread_median: far.median, spread_p90: far.p90, local_median: near.median, local_p90: near.p90, delta: round(far.median - near.median),
      spread_call_median: far.call_median, local_call_median: near.call_median, spread_queued_median: far.queued_median, local_queued_median: near.queued_median,
      runs: spread.delivered.length, agents: { local: AGENTS - 2 * Math.floor(AGENTS / 3), host1: Math.floor(AGENTS / 3), host2: Math.floor(AGENTS / 3) },
      method: `one server each; fake claude TUIs (${TURN_MS} ms turns) spawned with agent_spawn (host for the remote ones); a broadcast; delivered = from the hive_message call to the last agent's own log taking the text (those the busy rule queued, idle not settled yet, included), call = the call's wall time; then hive_wait all idle; every log checked for each run's text exactly once; ${WARMUP} warm-up runs; hosts are sshds on loopback (sessions under bubblewrap)`,
      loadavg: loadavg(),
    });
  } finally {
    await places.stop();
  }
}

/** Spawns 32 agents (a third on each host when given), runs the cascades, returns their wall times. */
interface Samples {
  /** From the call to the last agent's log taking the text. */
  delivered: number[];
  /** The hive_message call's own wall time. */
  call: number[];
  /** How many of the 32 the busy rule queued (typed at their next settled idle). */
  queued: number[];
}

/** How many times the agent's own log says it took `text`. */
function taken(a: Placed, text: string): number {
  return existsSync(a.log) ? readFileSync(a.log, "utf8").split("\n").filter((l) => l === `accepted: ${text}`).length : 0;
}

async function until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!probe()) {
    if (performance.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function cascades(emit: Emit, hosts: readonly NamedHost[], env: Record<string, string>): Promise<Samples> {
  const bench = benchHome();
  const s = await startServer(bench, env);
  const logs = tempFolder("termhive-bench-hosts-");
  try {
    const perHost = hosts.length ? Math.floor(AGENTS / 3) : 0;
    const agents: Placed[] = Array.from({ length: AGENTS }, (_, i) => {
      const host = i < perHost * hosts.length ? hosts[i % hosts.length] : undefined;
      return { name: `a${i}`, host, log: join(host ? host.remoteHome : logs, `a${i}.log`) };
    });
    const [spawnMs] = await timed(() => Promise.all(agents.map((a) => spawn(s, a))));
    await idle(s, agents);
    const samples: Samples = { delivered: [], call: [], queued: [] };
    for (let i = 0; i < CASCADES + WARMUP; i++) {
      const t0 = performance.now();
      const r = await s.call("hive_message", { broadcast: `run ${i}` });
      const callMs = performance.now() - t0;
      if (r.failed !== 0) throw new Error(`cascade ${i}: ${r.failed} failed: ${JSON.stringify(r.deliveries.filter((d: { delivered: boolean; queued?: number }) => !d.delivered && d.queued === undefined))}`);
      // Delivered is what the programs say: every log has taken this run's text (an agent the
      // busy rule held, its idle not settled yet, takes it from the queue a moment later).
      await until(`run ${i} taken by all`, () => agents.every((a) => taken(a, `run ${i}`) > 0), 60_000);
      if (i >= WARMUP) {
        samples.delivered.push(performance.now() - t0);
        samples.call.push(callMs);
        samples.queued.push(r.queued as number);
      }
      await idle(s, agents);
    }
    for (const a of agents) {
      for (let i = 0; i < CASCADES + WARMUP; i++) {
        const n = taken(a, `run ${i}`);
        if (n !== 1) throw new Error(`${a.name}${a.host ? ` on ${a.host.name}` : ""} took "run ${i}" ${n} times`);
      }
    }
    emit({ bench: `hive across hosts: 32 fake agents spawned at once (${hosts.length ? "local + 2 hosts" : "local"})`, unit: "ms", value: round(spawnMs), loadavg: loadavg() });
    return samples;
  } finally {
    await s.stop();
    bench.destroy();
  }
}

function spawn(s: Server, a: Placed): Promise<unknown> {
  return s.call("agent_spawn", {
    name: a.name, team: "bench", profile: "fakeclaude",
    command: `${process.execPath} ${a.host ? a.host.installed.fakeAgent : FAKE_AGENT} ${a.log} ${TURN_MS}`,
    ...(a.host ? { host: a.host.name, cwd: a.host.remoteHome } : {}),
  });
}

async function idle(s: Server, agents: readonly Placed[]): Promise<void> {
  const w = await s.call("hive_wait", { targets: "team:bench", for: "idle", mode: "all", timeout_s: 90 });
  if (w.matched) return;
  const stuck = (w.targets as { name: string; met: boolean }[]).filter((t) => !t.met);
  // Each stuck agent's own log: whether its turn ended and its hooks ran.
  const logs = stuck.map((t) => {
    const log = agents.find((a) => a.name === t.name)?.log;
    return `${t.name}: ${log && existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").slice(-6).join(" | ") : "no log"}`;
  });
  throw new Error(`not all idle: ${JSON.stringify(stuck)}\n${logs.join("\n")}`);
}
