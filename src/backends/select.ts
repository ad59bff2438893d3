// Picks the terminal backend from the configuration: tmux when asked for or available,
// node-pty otherwise, so termhive still works (without restart survival or attach) where tmux is missing.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { ConfigError, type TermhiveConfig } from "../config.js";
import type { Backend } from "./backend.js";
import { Iterm2Backend } from "./iterm2/iterm2-backend.js";
import { PtyBackend } from "./pty/pty-backend.js";
import { TmuxBackend } from "./tmux/tmux-backend.js";
import { HostRouter } from "./remote/host-router.js";
import { DEFAULT_PANE_ENV } from "../util/pane-env.js";

/**
 * Where tmux lives when a client starts termhive with a short PATH (a GUI app on macOS has no
 * Homebrew dirs; systemd and cron have a minimal PATH), searched after PATH.
 */
export const USUAL_TMUX_DIRS = ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin", "/opt/local/bin", "/snap/bin", "/home/linuxbrew/.linuxbrew/bin"];

/**
 * The tmux executable to run: `tmuxPath` itself when it is a path, else the first match on
 * PATH, then in the usual install dirs. A lookup, not `tmux -V`: forking from the server at
 * start-up cost ~7 ms of the time a client waits for its tool list. A binary that is there
 * but broken fails the first tmux command, with tmux's own message.
 */
export function findTmux(tmuxPath: string, path = process.env.PATH ?? ""): string | null {
  if (tmuxPath.includes("/")) return isExecutableFile(tmuxPath) ? tmuxPath : null;
  const dirs = [...path.split(delimiter).filter(Boolean), ...USUAL_TMUX_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, tmuxPath);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

export function tmuxAvailable(tmuxPath: string, path = process.env.PATH ?? ""): boolean {
  return findTmux(tmuxPath, path) !== null;
}

/** What to tell a user whose machine has no tmux: where we looked and how to get it. */
export function tmuxMissingMessage(tmuxPath: string): string {
  const where = tmuxPath.includes("/") ? tmuxPath : `PATH and ${USUAL_TMUX_DIRS.join(", ")}`;
  const install = process.platform === "darwin" ? "brew install tmux" : "apt-get install -y tmux";
  return `tmux was not found (looked for ${JSON.stringify(tmuxPath)} in ${where}): install it (${install}) or set TERMHIVE_TMUX to its path`;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

type BackendConfig = Pick<TermhiveConfig, "backend" | "home" | "tmuxPath" | "historyLimit"> & Partial<Pick<TermhiveConfig, "ssh" | "allowedHosts" | "paneEnv">>;

/** The local backend, with sessions on other hosts (`host`) reached over ssh beside it. */
export function createBackend(config: BackendConfig): Backend {
  return new HostRouter(createLocalBackend(config), {
    ssh: config.ssh ?? ["ssh"],
    allowedHosts: config.allowedHosts ?? null,
    historyLimit: config.historyLimit,
    home: config.home,
  });
}

export function createLocalBackend(config: BackendConfig): Backend {
  const tmuxPath = findTmux(config.tmuxPath);
  const tmux = (path: string) => new TmuxBackend({ home: config.home, tmuxPath: path, historyLimit: config.historyLimit, paneEnv: config.paneEnv ?? DEFAULT_PANE_ENV });
  switch (config.backend) {
    case "pty":
      return new PtyBackend();
    case "iterm2":
      // Never picked by "auto": its output is rebuilt from screen contents (see its warning).
      return new Iterm2Backend();
    case "tmux":
      if (!tmuxPath) throw new ConfigError(`TERMHIVE_BACKEND=tmux but ${tmuxMissingMessage(config.tmuxPath)}, or use TERMHIVE_BACKEND=pty`);
      return tmux(tmuxPath);
    case "auto":
      // Never silently: the pty backend says in every open result that its sessions end with this process.
      return tmuxPath ? tmux(tmuxPath) : new PtyBackend({ fallbackReason: tmuxMissingMessage(config.tmuxPath) });
  }
}
