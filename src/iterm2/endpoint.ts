// Where iTerm2's API listens and how a client proves it may talk to it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The unix socket iTerm2 3.3+ serves its API on (the Python API must be enabled). */
export function iterm2SocketPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TERMHIVE_ITERM2_SOCKET || join(env.HOME || homedir(), "Library", "Application Support", "iTerm2", "private", "socket");
}

/** Older iTerm2 releases listened on this TCP port instead of the socket. */
export const LEGACY_TCP_URL = "ws://localhost:1912";

export type Iterm2Endpoint = { kind: "unix"; path: string } | { kind: "tcp"; url: string };

/**
 * The endpoints worth trying, best first. Off macOS there is no iTerm2 unless a socket was
 * named explicitly (the simulator in the tests), so nothing is tried and nothing is slowed.
 */
export function iterm2Endpoints(env: NodeJS.ProcessEnv = process.env, platform = process.platform): Iterm2Endpoint[] {
  const path = iterm2SocketPath(env);
  if (env.TERMHIVE_ITERM2_SOCKET) return [{ kind: "unix", path }];
  if (platform !== "darwin") return [];
  return [...(existsSync(path) ? [{ kind: "unix" as const, path }] : []), { kind: "tcp", url: LEGACY_TCP_URL }];
}

/** Why iTerm2 cannot be reached at all, before trying: null when it might be. */
export function iterm2Unavailable(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | null {
  if (env.TERMHIVE_ITERM2_SOCKET) return existsSync(env.TERMHIVE_ITERM2_SOCKET) ? null : `no socket at ${env.TERMHIVE_ITERM2_SOCKET} (TERMHIVE_ITERM2_SOCKET)`;
  if (platform !== "darwin") return "not macOS";
  return null;
}

export interface Iterm2Credentials {
  cookie: string;
  key: string;
}

/**
 * ITERM2_COOKIE/ITERM2_KEY (iTerm2 sets them for scripts it launches), else asked of iTerm2
 * through AppleScript, which shows the user a one-time consent prompt. null: neither works.
 */
export function iterm2Credentials(env: NodeJS.ProcessEnv = process.env, platform = process.platform): Iterm2Credentials | null {
  if (env.ITERM2_COOKIE && env.ITERM2_KEY) return { cookie: env.ITERM2_COOKIE, key: env.ITERM2_KEY };
  if (platform !== "darwin") return null;
  const r = spawnSync("osascript", ["-e", 'tell application "iTerm2" to request cookie and key for app named "termhive"'], { encoding: "utf8", timeout: 15_000 });
  const [cookie, key] = r.status === 0 ? r.stdout.trim().split(/\s+/) : [];
  return cookie && key ? { cookie, key } : null;
}
