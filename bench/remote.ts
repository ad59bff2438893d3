// Sessions on another host (issue 14), against a real sshd on loopback (test/fixtures/sshd):
// `echo hi` round trip on a remote session beside a local one (medians, runs interleaved so
// both see the same machine load), 10 remote sessions running at once, and what the first
// open on a host costs (set-up over ssh + the control connection + the shell's first prompt).
import { RUNS, benchHome, median, round, startServer, timed, type Emit } from "./common.js";
import { sshdAvailable, startLoopbackHost } from "../test/fixtures/sshd/sshd.js";

const WARMUP = 5;
const FRESH_PROCESSES = 5;

export async function benchRemote(emit: Emit): Promise<void> {
  if (!sshdAvailable()) {
    emit({ bench: "remote", skipped: "sshd (openssh-server) is not installed" });
    return;
  }
  const host = await startLoopbackHost();
  const env = { TERMHIVE_SSH: host.sshCommand };
  try {
    const s = await startServer(benchHome(), env);
    try {
      // A host nobody prepared yet: no termhive folder, no tmux server there.
      const [coldMs] = await timed(() => s.call("terminal_open", { name: "r", host: host.alias }));
      await s.call("terminal_open", { name: "l", command: "bash" });
      const local: number[] = [];
      const remote: number[] = [];
      for (let i = 0; i < RUNS + WARMUP; i++) {
        for (const [session, samples] of [["l", local], ["r", remote]] as const) {
          const [ms, r] = await timed(() => s.call("terminal_run", { session, command: "echo hi" }));
          if (r.output !== "hi" || r.exit_code !== 0 || r.reason !== "osc133") throw new Error(`echo hi on ${session} returned ${JSON.stringify(r)}`);
          if (i >= WARMUP) samples.push(ms);
        }
      }
      emit({
        bench: 'remote: terminal_run "echo hi" on a loopback host vs local', unit: "ms",
        remote_median: round(median(remote)), local_median: round(median(local)), delta: round(median(remote) - median(local)),
        runs: remote.length, target: "delta <= 2",
        method: "one server, one remote and one local bash, runs interleaved; remote = ssh to 127.0.0.1 running the host's tmux -C",
      });

      const names = Array.from({ length: 10 }, (_, i) => `rp${i}`);
      const [openAllMs] = await timed(() => Promise.all(names.map((name) => s.call("terminal_open", { name, host: host.alias }))));
      const parallel: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const [ms, results] = await timed(() => Promise.all(names.map((name) => s.call("terminal_run", { session: name, command: "echo x" }))));
        if (results.some((r) => r.output !== "x" || r.exit_code !== 0)) throw new Error(`parallel echo returned ${JSON.stringify(results)}`);
        parallel.push(ms);
      }
      emit({
        bench: "remote: 10 remote sessions running echo in parallel (wall)", unit: "ms", median: round(median(parallel)), runs: parallel.length,
        open_10_in_parallel_ms: round(openAllMs),
      });
      emit({ bench: "remote: first open on a new host", unit: "ms", value: round(coldMs), method: "set-up script over ssh (folder, shell scripts, tmux.conf), tmux -C over a second ssh connection, new tmux server, bash to its first prompt" });
    } finally {
      await s.stop();
    }

    // A fresh termhive process on a host already set up (its tmux server running): what each
    // restarted or second termhive pays for its first remote session.
    const fresh: number[] = [];
    for (let i = 0; i < FRESH_PROCESSES; i++) {
      const s2 = await startServer(benchHome(), env);
      try {
        const [ms] = await timed(() => s2.call("terminal_open", { name: `f${i}`, host: host.alias }));
        fresh.push(ms);
        await s2.call("terminal_close", { session: `f${i}`, force: true });
      } finally {
        await s2.stop();
      }
    }
    emit({ bench: "remote: first open by a new termhive process on a prepared host", unit: "ms", median: round(median(fresh)), runs: fresh.length });
  } finally {
    await host.stop();
  }
}
