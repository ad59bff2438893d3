// Window-level tmux commands the Backend contract does not cover (select-layout, window
// options). Layouts are rare, so a separate `tmux -S <socket>` process (~7 ms) is fine and
// keeps the backend interface unchanged. Other backends: a no-op (their layouts are logical).
import { execFile } from "node:child_process";
import type { Backend } from "../../backends/backend.js";
import { TmuxBackend } from "../../backends/tmux/tmux-backend.js";

function tmux(backend: Backend, tmuxPath: string, args: string[]): Promise<string> {
  if (!(backend instanceof TmuxBackend)) return Promise.resolve("");
  return new Promise((resolve, reject) => {
    execFile(tmuxPath, ["-S", backend.socketPath, ...args], { timeout: 5000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`tmux ${args[0]} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Applies a tmux layout (tiled, even-horizontal …) to the window holding `paneId`. */
export async function selectLayout(backend: Backend, tmuxPath: string, paneId: string, layout: string): Promise<void> {
  await tmux(backend, tmuxPath, ["select-layout", "-t", paneId, layout]);
}

/** Shows pane titles (agent status) on the top border of the window holding `paneId`. */
export async function showPaneBorders(backend: Backend, tmuxPath: string, paneId: string): Promise<void> {
  await tmux(backend, tmuxPath, ["set-option", "-w", "-t", paneId, "pane-border-status", "top"]);
}

/** Reads a window option (tests and diagnostics). */
export async function windowOption(backend: Backend, tmuxPath: string, paneId: string, option: string): Promise<string> {
  return (await tmux(backend, tmuxPath, ["show-options", "-w", "-v", "-t", paneId, option])).trim();
}
