// Picks the terminal backend from the configuration: tmux when asked for or available,
// node-pty otherwise, so termhive still works (without restart survival or attach) where tmux is missing.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { ConfigError, type TermhiveConfig } from "../config.js";
import type { Backend } from "./backend.js";
import { PtyBackend } from "./pty/pty-backend.js";
import { TmuxBackend } from "./tmux/tmux-backend.js";

/**
 * Whether `tmuxPath` names an executable file (as given, or found on PATH). A lookup, not
 * `tmux -V`: forking from the server at start-up cost ~7 ms of the time a client waits
 * for its tool list. A binary that is there but broken fails the first tmux command,
 * with tmux's own message.
 */
export function tmuxAvailable(tmuxPath: string, path = process.env.PATH ?? ""): boolean {
  const candidates = tmuxPath.includes("/") ? [tmuxPath] : path.split(delimiter).filter(Boolean).map((dir) => join(dir, tmuxPath));
  return candidates.some(isExecutableFile);
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

type BackendConfig = Pick<TermhiveConfig, "backend" | "home" | "tmuxPath" | "historyLimit">;

export function createBackend(config: BackendConfig): Backend {
  const tmux = () => new TmuxBackend({ home: config.home, tmuxPath: config.tmuxPath, historyLimit: config.historyLimit });
  switch (config.backend) {
    case "pty":
      return new PtyBackend();
    case "tmux":
      if (!tmuxAvailable(config.tmuxPath)) {
        throw new ConfigError(
          `TERMHIVE_BACKEND=tmux but tmux cannot be run (${JSON.stringify(config.tmuxPath)}): ` +
            `install it (apt-get install -y tmux), set TERMHIVE_TMUX to its path, or use TERMHIVE_BACKEND=pty`,
        );
      }
      return tmux();
    case "auto":
      return tmuxAvailable(config.tmuxPath) ? tmux() : new PtyBackend();
  }
}
