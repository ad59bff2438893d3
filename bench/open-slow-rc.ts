// Opening whatever the user's rc files cost (issue 21 §3): with a ~/.bashrc that takes ~200 ms
// (pyenv's init and the like), terminal_open returns at once and the shell becomes ready in the
// background; runs wait for it themselves. Figures: one open's latency, and 10 opens in a row
// followed by one `echo` in each, against the shell's own start-up with that rc. Plus the
// throwaway-run soak (§4): N runs without session, each output exact. Server started the way
// a real client starts it: bare env, a folder that is not the repo.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Emit, type Server, benchHome, loadavg, median, round, startServer, timed } from "./common.js";

const SLOW_RC = "sleep 0.2\nexport BENCH_RC=1\n";
const OPENS = 10;
const ROUNDS = Number(process.env.BENCH_SLOW_RC_ROUNDS ?? 5);
const THROWAWAY_RUNS = Number(process.env.BENCH_THROWAWAY_RUNS ?? 500);

/** A server as an MCP client starts it (bare environment, another folder), with `rc` as the user's ~/.bashrc. */
async function bareServer(rc: string): Promise<Server & { userHome: string }> {
  const bench = benchHome();
  writeFileSync(join(bench.env.HOME!, ".bashrc"), rc);
  const work = join(bench.home, "work");
  mkdirSync(work);
  return { ...(await startServer(bench, {}, { bareEnv: true, cwd: work })), userHome: bench.env.HOME! };
}

/** bash's own start-up with that rc: an interactive bash reading it, then exiting. */
function shellStartupMs(home: string): number {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync("bash", ["-i", "-c", "exit"], { env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdio: "ignore" });
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

export async function benchOpenSlowRc(emit: Emit): Promise<void> {
  const s = await bareServer(SLOW_RC);
  try {
    const startup = shellStartupMs(s.userHome);
    await s.call("terminal_open", { name: "cold", command: "bash" }); // starts tmux: not counted
    const opens: number[] = [];
    const totals: number[] = [];
    const echoes: number[] = [];
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      const names = Array.from({ length: OPENS }, (_, i) => `r${round_}-${i}`);
      const [total] = await timed(async () => {
        for (const name of names) {
          const [ms] = await timed(() => s.call("terminal_open", { name, command: "bash" }));
          opens.push(ms);
        }
        for (const name of names) {
          const [ms, r] = await timed(() => s.call("terminal_run", { session: name, command: "echo $BENCH_RC" }));
          echoes.push(ms);
          if (r.output !== "1" || r.exit_code !== 0) throw new Error(`echo in ${name} returned ${JSON.stringify(r)}`);
        }
      });
      totals.push(total);
      for (const name of names) await s.call("terminal_close", { session: name, force: true });
    }
    emit({
      bench: "terminal_open with a 200 ms ~/.bashrc", unit: "ms", median: round(median(opens)), max: round(Math.max(...opens)), runs: opens.length, target: "<= 40",
      method: "bare env, cwd outside the repo, ~/.bashrc = sleep 0.2; open returns before the shell is ready",
    });
    emit({
      bench: "10 opens then one echo in each, 200 ms ~/.bashrc (total)", unit: "ms", median: round(median(totals)), max: round(Math.max(...totals)), runs: totals.length,
      shell_startup_ms: round(startup), echo_median_ms: round(median(echoes)), first_echo_median_ms: round(median(echoes.filter((_, i) => i % OPENS === 0))), target: `<= shell start-up + 150 = ${round(startup + 150)}`,
      loadavg: loadavg(),
      method: "10 terminal_open in sequence, then terminal_run `echo $BENCH_RC` in each (each waits for its shell); shell_startup_ms: `bash -i -c exit` with that rc",
    });
  } finally {
    await s.stop();
  }
}

/** §4: throwaway runs in a row, each output exact (no lost output, no `exit` line, no hint to a closed session). */
export async function benchThrowaway(emit: Emit): Promise<void> {
  const s = await bareServer("");
  try {
    let wrong = 0;
    const times: number[] = [];
    for (let i = 0; i < THROWAWAY_RUNS; i++) {
      const [ms, r] = await timed(() => s.call("terminal_run", { command: "printf 'a\\nb\\n'; exit 3" }));
      times.push(ms);
      if (r.output !== "a\nb" || r.exit_code !== 3 || r.session_closed !== true || /terminal_(read|close|wait)/.test(String(r.hint ?? ""))) wrong++;
    }
    emit({
      bench: "throwaway runs of `printf 'a\\nb\\n'; exit 3`", unit: "ms", median: round(median(times)), runs: THROWAWAY_RUNS, wrong, target: "wrong = 0",
      method: "terminal_run without session, one after another on one server; wrong = output not exactly a\\nb, exit code not 3, session kept, or a hint naming the closed session",
    });
  } finally {
    await s.stop();
  }
}
