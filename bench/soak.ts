// The soak (issue 20 §5): several termhive server processes on one TERMHIVE_HOME (one tmux
// server, one control-mode client each, as MCP stdio clients run them), loaded as a busy user
// loads them. Every result is checked: a wrong one is counted with its reason and hint.
//
// Shape, for each process count in BENCH_SOAK_PROCS (default "2,4"):
// - each process opens BENCH_SOAK_SESSIONS sessions (default 32) and runs checked commands in
//   them back to back, all its sessions at once (one run in flight per session);
// - one shared session per process: every process also runs in all of them now and then, so
//   sessions are used by a process that did not open them (a "busy" refusal there is the
//   right answer to two runs at once, counted apart, not wrong);
// - every process lists the sessions now and then (as a dashboard or an agent looking around
//   does), which adopts and refreshes the other processes' panes.
// RSS of every process is sampled every 10 s; the lowest RSS within BENCH_SOAK_IDLE_S (120) of
// quiet is read after the warm-up third and at the end (V8 gives garbage back on its own time).
import { readdirSync } from "node:fs";
import { benchHome, emit, loadavg, median, percentile, round, rssMb, startServer, timed, type Server } from "./common.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every this many runs a process runs in a shared session instead of one of its own. */
const SHARED_EVERY = 8;
/** Every this many runs a process also lists the sessions. */
const LIST_EVERY = 16;

interface Tally {
  runs: number;
  wrong: number;
  busy: number;
  lists: number;
  /** Wrong results by completion reason (or "error"). */
  byReason: Record<string, number>;
  examples: string[];
  times: number[];
}

function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

async function idleRss(servers: Server[], ms: number): Promise<number[]> {
  const lowest = servers.map(() => Infinity);
  for (const end = Date.now() + ms; ; await sleep(Math.min(5_000, ms))) {
    servers.forEach((s, i) => (lowest[i] = Math.min(lowest[i]!, rssMb(s.transport.pid!).rss_mb)));
    if (Date.now() >= end) return lowest;
  }
}

/** A command and the output it must give: a word, a short count, the last line of a longer output. */
function commandFor(name: string, n: number): [string, string] {
  const k = (n % 50) + 1;
  if (n % 3 === 0) return [`echo ${name}-${n}`, `${name}-${n}`];
  if (n % 3 === 1) return [`seq ${n} ${n + k} | wc -l`, String(k + 1)];
  return [`seq 1 ${k * 100} | tail -n 1`, String(k * 100)];
}

async function checkedRun(s: Server, session: string, n: number, tally: Tally, shared: boolean): Promise<void> {
  const [command, expected] = commandFor(session, n);
  const [took, r] = await timed(() =>
    s.call("terminal_run", { session, command, timeout_s: 30 }).catch((e: Error) => ({ error: e.message }) as Record<string, any>),
  );
  // Two runs at once in a shared session: one is refused, rightly. In a session only one loop
  // uses, a refusal is wrong (some process thinks a command still runs there).
  if (shared && typeof r.error === "string" && /\bis busy\b/.test(r.error)) {
    tally.busy++;
    return;
  }
  tally.runs++;
  tally.times.push(took);
  if (r.error === undefined && String(r.output).trim() === expected && r.exit_code === 0) return;
  tally.wrong++;
  const reason = r.error !== undefined ? "error" : String(r.reason);
  tally.byReason[reason] = (tally.byReason[reason] ?? 0) + 1;
  if (tally.examples.length < 8) {
    const facts = r.error !== undefined ? `error: ${String(r.error).slice(0, 160)}` : `exit ${r.exit_code}, ${r.reason}${r.hint ? `; hint: ${String(r.hint).slice(0, 160)}` : ""}`;
    tally.examples.push(`${session}: ${command} → ${JSON.stringify(r.output ?? "").slice(0, 160)} (${facts})`);
  }
}

async function soakOnce(processes: number, perProcess: number, seconds: number, idleMs: number): Promise<void> {
  const home = benchHome();
  const servers: Server[] = [];
  try {
    for (let i = 0; i < processes; i++) servers.push(await startServer({ ...home, destroy: () => {} }, { TERMHIVE_MAX_SESSIONS: String(processes * (perProcess + 1) + 8) }));
    const own = servers.map((_, c) => Array.from({ length: perProcess }, (_, i) => `p${c}s${i}`));
    const shared = servers.map((_, c) => `shared${c}`);
    await Promise.all(
      servers.map(async (s, c) => {
        for (const name of [...own[c]!, shared[c]!]) await s.call("terminal_open", { name, command: "bash" });
      }),
    );
    const idleBefore = await idleRss(servers, idleMs);
    const samples: { rss: number[]; fds: number[]; afterWarmup: boolean }[] = [];
    let warm = false;
    const sample = () => samples.push({ rss: servers.map((s) => rssMb(s.transport.pid!).rss_mb), fds: servers.map((s) => fdCount(s.transport.pid!)), afterWarmup: warm });
    sample();
    const sampler = setInterval(sample, 10_000);
    const tally: Tally = { runs: 0, wrong: 0, busy: 0, lists: 0, byReason: {}, examples: [], times: [] };
    const counters = servers.map(() => 0);
    // One loop per session of each process (all its sessions busy at once), plus its share of
    // runs in the shared sessions and its listings.
    const load = (ms: number) => {
      const end = Date.now() + ms;
      return Promise.all(
        servers.flatMap((s, c) =>
          own[c]!.map(async (name) => {
            while (Date.now() < end) {
              const n = counters[c]!++;
              if (n % LIST_EVERY === LIST_EVERY - 1) {
                await s.call("terminal_list", {}).catch(() => {});
                tally.lists++;
              }
              const inShared = n % SHARED_EVERY === SHARED_EVERY - 1;
              await checkedRun(s, inShared ? shared[n % shared.length]! : name, n, tally, inShared);
            }
          }),
        ),
      );
    };
    const warmupMs = (seconds * 1000) / 3;
    await load(warmupMs);
    const idleWarm = await idleRss(servers, idleMs);
    warm = true;
    const fdsWarm = servers.map((s) => fdCount(s.transport.pid!));
    await load(seconds * 1000 - warmupMs);
    clearInterval(sampler);
    sample();
    const idleEnd = await idleRss(servers, idleMs);
    const after = samples.filter((x) => x.afterWarmup);
    const last = samples[samples.length - 1]!;
    emit({
      bench: `soak: ${processes} processes × ${perProcess} sessions (+${processes} shared), ${seconds} s`,
      unit: "runs",
      runs: tally.runs,
      wrong: tally.wrong,
      wrong_by_reason: tally.byReason,
      wrong_examples: tally.examples,
      busy_refusals: tally.busy,
      lists: tally.lists,
      run_median_ms: round(median(tally.times)),
      run_p99_ms: round(percentile(tally.times, 99)),
      rss_mb_idle_before: idleBefore,
      rss_mb_idle_after_warmup: idleWarm,
      rss_mb_idle_end: idleEnd,
      live_rss_growth_after_warmup_pct: idleEnd.map((r, i) => round(((r - idleWarm[i]!) / idleWarm[i]!) * 100)),
      rss_mb_median_after_warmup: servers.map((_, i) => round(median(after.map((x) => x.rss[i]!)))),
      rss_mb_peak_after_warmup: servers.map((_, i) => Math.max(...after.map((x) => x.rss[i]!))),
      rss_mb_end_of_load: last.rss,
      rss_target: "idle RSS at the end within +20 % of idle RSS after warm-up (first third); 0 wrong",
      fds_after_warmup: fdsWarm,
      fds_end: last.fds,
      loadavg: loadavg(),
      method: `${processes} server processes on one TERMHIVE_HOME; each runs checked terminal_run in its ${perProcess} sessions at once, every ${SHARED_EVERY}th run in a session shared by all, terminal_list every ${LIST_EVERY}th; idle RSS = lowest within ${idleMs / 1000} s of quiet; RSS sampled every 10 s`,
    });
  } finally {
    for (const s of servers) await s.client.close().catch(() => {});
    try {
      home.destroy();
    } catch (error) {
      // Shells killed with the tmux server may still be writing their history into HOME.
      process.stderr.write(`note: could not remove ${home.home}: ${(error as Error).message}\n`);
    }
  }
}

/** `npm run bench soak`: BENCH_SOAK_PROCS ("2,4"), BENCH_SOAK_SESSIONS (32), BENCH_SOAK_S (300), BENCH_SOAK_IDLE_S (120). */
export async function benchSoak(): Promise<void> {
  const counts = (process.env.BENCH_SOAK_PROCS ?? "2,4").split(",").map(Number).filter((n) => n > 0);
  const perProcess = Number(process.env.BENCH_SOAK_SESSIONS ?? 32);
  const seconds = Number(process.env.BENCH_SOAK_S ?? 300);
  const idleMs = Number(process.env.BENCH_SOAK_IDLE_S ?? 120) * 1000;
  for (const processes of counts) await soakOnce(processes, perProcess, seconds, idleMs);
}
