// Ending the tmux server a test started: `tmux kill-server` returns before the programs in its
// panes have exited, and a shell dying of the hang-up still writes its history (fish makes its
// folders for it) into the test's HOME: removing that folder right away can fail or be undone.
import { spawnSync } from "node:child_process";

function tmux(socket: string, ...args: string[]): string {
  return spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" }).stdout ?? "";
}

/** The pids of the processes still alive in the given sessions (a pane's program leads its own). */
function sessionMembers(sessions: Set<number>): number[] {
  const ps = spawnSync("ps", ["-eo", "pid=,sid="], { encoding: "utf8" }).stdout ?? "";
  return ps.split("\n").flatMap((line) => {
    const [pid, sid] = line.trim().split(/\s+/).map(Number);
    return pid && sessions.has(sid!) ? [pid] : [];
  });
}

/** Kills the tmux server on `socket` (if one runs) and waits, up to `timeoutMs`, for its panes' programs to end. */
export async function endTmuxServer(socket: string, timeoutMs = 5_000): Promise<void> {
  const panes = new Set(tmux(socket, "list-panes", "-a", "-F", "#{pane_pid}").split("\n").filter(Boolean).map(Number));
  tmux(socket, "kill-server");
  const deadline = Date.now() + timeoutMs;
  while (panes.size && sessionMembers(panes).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
