// Issue 25 §1: how long `agent_restore` takes to bring a hive back after `tmux kill-server`
// — 8 shell agents of one layout window (each opened, arranged in one window again and
// waited for until its shell takes input), medians over the runs. The real programs' resume:
// test/e2e/real-restore.test.ts.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { benchHome, loadavg, median, round, startServer, timed, type Emit } from "./common.js";

const AGENTS = 8;
const RESTORE_RUNS = 10;

export async function benchRestore(emit: Emit): Promise<void> {
  const h = benchHome();
  const s = await startServer(h);
  try {
    const panes = Array.from({ length: AGENTS }, (_, i) => ({ name: `r${i}`, agent: `r${i}`, team: "crew", command: "bash", profile: "shell" }));
    await s.call("hive_layout", { layout: "tiled", panes });
    const samples: number[] = [];
    for (let i = 0; i < RESTORE_RUNS; i++) {
      spawnSync("tmux", ["-S", join(h.home, "tmux.sock"), "kill-server"]);
      const [ms, r] = await timed(() => s.call("agent_restore", {}));
      const back = (r.restored as { ok: boolean; ready?: string }[]).filter((a) => a.ok && a.ready === "ready").length;
      if (back !== AGENTS) throw new Error(`agent_restore brought back ${back} of ${AGENTS}: ${JSON.stringify(r)}`);
      samples.push(ms);
    }
    emit({
      bench: `agent_restore after tmux kill-server, ${AGENTS} shell agents of one window`, unit: "ms", median: round(median(samples)), runs: samples.length, loadavg: loadavg(),
      method: "kill-server → agent_restore {} answered with every agent ready (new panes in one window, shells at their prompt)",
    });
  } finally {
    await s.stop();
  }
}
