// Finding tmux, apart from the backends themselves: the MCP server checks a required tmux
// before it answers anything, without loading the backends (see cli.ts).
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { ConfigError, type TermhiveConfig } from "../config.js";

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

/**
 * TERMHIVE_BACKEND=tmux with no tmux is a configuration error (the server must not start);
 * the tmux to run otherwise (null when the backend is not tmux and none was found).
 */
export function requireTmuxWhenAsked(config: Pick<TermhiveConfig, "backend" | "tmuxPath">): string | null {
  const tmuxPath = findTmux(config.tmuxPath);
  if (config.backend === "tmux" && !tmuxPath) throw new ConfigError(`TERMHIVE_BACKEND=tmux but ${tmuxMissingMessage(config.tmuxPath)}, or use TERMHIVE_BACKEND=pty`);
  return tmuxPath;
}
