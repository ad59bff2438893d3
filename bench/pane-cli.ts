// What an agent's pane (and its hooks, every turn) pays for `termhive status working`, `msg`
// and `inbox`: a fresh process each, no server running (the in-pane commands reach the hive
// store alone, src/cli/pane-verbs.ts). Wall time of the whole process, the bin run as npx runs it.
import { spawnSync } from "node:child_process";
import { Hive } from "../src/hive/index.js";
import { benchHome, cliArgs, loadavg, median, round, type Emit } from "./common.js";

const RUNS = 10;

export function benchPaneCli(emit: Emit): void {
  const bench = benchHome();
  try {
    const hive = Hive.open({ home: bench.home });
    hive.agents.register({ name: "bench", sessionId: "s-bench" });
    hive.close();
    const env = { HOME: bench.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: bench.home, TERMHIVE_AGENT: "bench" };
    for (const args of [["status", "working", "on the bench"], ["msg", "bench", "hello"], ["inbox"]]) {
      const times: number[] = [];
      for (let i = 0; i < RUNS + 1; i++) {
        const start = performance.now();
        const r = spawnSync(process.execPath, cliArgs(...args), { env, encoding: "utf8" });
        if (r.status !== 0) throw new Error(`termhive ${args.join(" ")}: ${r.stderr}`);
        if (i > 0) times.push(performance.now() - start); // the first run warms the disk cache
      }
      emit({
        bench: `in-pane termhive ${args[0]}, no server`, unit: "ms", median: round(median(times)), runs: RUNS, loadavg: loadavg(),
        method: `wall time of \`termhive ${args.join(" ")}\` as a fresh process (bin with its #! flags), TERMHIVE_AGENT set; 1 warm-up run`,
      });
    }
  } finally {
    bench.destroy();
  }
}
