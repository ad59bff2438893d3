// Picks the terminal backend from the configuration: tmux when asked for or available,
// node-pty otherwise, so termhive still works (without restart survival or attach) where tmux is missing.
import { spawnSync } from "node:child_process";
import { ConfigError, type TermhiveConfig } from "../config.js";
import type { Backend } from "./backend.js";
import { PtyBackend } from "./pty/pty-backend.js";
import { TmuxBackend } from "./tmux/tmux-backend.js";

/** `tmux -V` output, or null when tmux cannot be run from `tmuxPath`. */
export function tmuxVersion(tmuxPath: string): string | null {
  // One fork at start-up; a timeout so a wedged binary cannot hang the server's start.
  const probe = spawnSync(tmuxPath, ["-V"], { encoding: "utf8", timeout: 5_000 });
  return probe.status === 0 ? probe.stdout.trim() : null;
}

type BackendConfig = Pick<TermhiveConfig, "backend" | "home" | "tmuxPath" | "historyLimit">;

export function createBackend(config: BackendConfig): Backend {
  const tmux = () => new TmuxBackend({ home: config.home, tmuxPath: config.tmuxPath, historyLimit: config.historyLimit });
  switch (config.backend) {
    case "pty":
      return new PtyBackend();
    case "tmux":
      if (tmuxVersion(config.tmuxPath) === null) {
        throw new ConfigError(
          `TERMHIVE_BACKEND=tmux but tmux cannot be run (${JSON.stringify(config.tmuxPath)}): ` +
            `install it (apt-get install -y tmux), set TERMHIVE_TMUX to its path, or use TERMHIVE_BACKEND=pty`,
        );
      }
      return tmux();
    case "auto":
      return tmuxVersion(config.tmuxPath) === null ? new PtyBackend() : tmux();
  }
}
