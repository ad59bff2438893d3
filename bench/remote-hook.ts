// Issue 35 §5: how soon the hive sees what an agent's pane reports through the in-pane
// `termhive` (the channel its hooks use: a Stop hook is `termhive hook Stop`), on an ssh host
// (the host's /bin/sh script, a tmux buffer and the signal pane, src/serve/host-door.ts) beside
// a local pane (the local shim writing the hive store). From the keys typed at the pane's
// prompt to agent_list showing the reported detail.
import { benchHome, loadavg, median, percentile, round, startServer, type Emit, type Server } from "./common.js";
import { sshdAvailable, startLoopbackHost } from "../test/fixtures/sshd/sshd.js";

const RUNS = Number(process.env.BENCH_REMOTE_HOOK_RUNS ?? 15);
const WARMUP = 2;
const POLL_MS = 5;

export async function benchRemoteHook(emit: Emit): Promise<void> {
  if (!sshdAvailable()) {
    emit({ bench: "in-pane termhive status seen, ssh host vs local", skipped: "sshd (openssh-server) is not installed" });
    return;
  }
  const host = await startLoopbackHost();
  const s = await startServer(benchHome(), { TERMHIVE_SSH: host.sshCommand });
  try {
    await s.call("agent_spawn", { name: "far", command: "bash", profile: "shell", host: host.alias, cwd: host.remoteHome });
    await s.call("agent_spawn", { name: "near", command: "bash", profile: "shell" });
    await s.call("hive_wait", { targets: ["far", "near"], for: "idle", mode: "all", timeout_s: 60 });
    const far = await seen(s, "far");
    const near = await seen(s, "near");
    emit({
      bench: "in-pane termhive status seen by the hive (the hooks' channel): ssh host vs local", unit: "ms",
      host_median: round(median(far)), host_p90: round(percentile(far, 90)), local_median: round(median(near)), local_p90: round(percentile(near, 90)),
      runs: RUNS, loadavg: loadavg(),
      method: `a shell agent on a loopback sshd (sessions under bubblewrap) and one local; each run types \`termhive status working mark-N\` at its prompt (terminal_send) and polls agent_list every ${POLL_MS} ms until that detail shows; from the send to the sight; ${WARMUP} warm-up runs`,
    });
  } finally {
    await s.stop();
    await host.stop();
  }
}

async function seen(s: Server, agent: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const mark = `mark-${agent}-${i}`;
    const t0 = performance.now();
    await s.call("terminal_send", { session: agent, text: `termhive status working ${mark}` });
    for (;;) {
      const list = (await s.call("agent_list", {})).agents as { name: string; status_detail?: string; detail?: string }[];
      const row = list.find((a) => a.name === agent);
      if ((row?.status_detail ?? row?.detail) === mark) break;
      if (performance.now() - t0 > 30_000) throw new Error(`${agent}: ${mark} not seen within 30 s: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    if (i >= WARMUP) times.push(performance.now() - t0);
  }
  return times;
}
