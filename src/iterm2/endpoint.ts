// Where iTerm2's API listens and how a client proves it may talk to it.
import { execFile, type ExecFileException } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { iterm2SocketSetting } from "../config.js";
import { Iterm2Error } from "./errors.js";

/** The unix socket iTerm2 3.3+ serves its API on (the Python API must be enabled). */
export function iterm2SocketPath(env: NodeJS.ProcessEnv = process.env): string {
  return iterm2SocketSetting(env) ?? join(env.HOME || homedir(), "Library", "Application Support", "iTerm2", "private", "socket");
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
  if (iterm2SocketSetting(env)) return [{ kind: "unix", path }];
  if (platform !== "darwin") return [];
  return [...(existsSync(path) ? [{ kind: "unix" as const, path }] : []), { kind: "tcp", url: LEGACY_TCP_URL }];
}

/** Why iTerm2 cannot be reached at all, before trying: null when it might be. */
export function iterm2Unavailable(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | null {
  const named = iterm2SocketSetting(env);
  if (named) return existsSync(named) ? null : `no socket at ${named} (TERMHIVE_ITERM2_SOCKET)`;
  if (platform !== "darwin") return "not macOS";
  return null;
}

export interface Iterm2Credentials {
  cookie: string;
  key: string;
}

/**
 * ITERM2_COOKIE/ITERM2_KEY (iTerm2 sets them for scripts it launches). iTerm2 accepts each
 * cookie once, so one from the environment may already be spent: connect() falls back to
 * requestCredentials() when it is refused, as iTerm2's own Python library does.
 */
export function iterm2Credentials(env: NodeJS.ProcessEnv = process.env): Iterm2Credentials | null {
  return env.ITERM2_COOKIE && env.ITERM2_KEY ? { cookie: env.ITERM2_COOKIE, key: env.ITERM2_KEY } : null;
}

/**
 * A fresh cookie and key, asked of iTerm2 through AppleScript (macOS asks the person once
 * whether the app termhive runs in may control iTerm2). Tried on macOS, and wherever a socket
 * was named (TERMHIVE_ITERM2_SOCKET: the simulator, whose `osascript` stands in for
 * AppleScript). null: not tried. Rejects with osascript's own reason when it fails, so that
 * Automation denied, the Python API off and iTerm2 missing each read as themselves.
 */
export async function requestCredentials(env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<Iterm2Credentials | null> {
  if (platform !== "darwin" && !iterm2SocketSetting(env)) return null;
  // Not spawnSync: the person may take a while to answer, and the event loop goes on meanwhile.
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile("osascript", ["-e", 'tell application "iTerm2" to request cookie and key for app named "termhive"'], { encoding: "utf8", timeout: 15_000, env }, (error, out, err) =>
      error ? reject(new Iterm2Error(osascriptFailure(error, err))) : resolve(out));
  });
  const [cookie, key] = stdout.trim().split(/\s+/);
  if (!cookie || !key) throw new Iterm2Error(`AppleScript gave no cookie and key (osascript printed ${JSON.stringify(stdout.trim().slice(0, 200))})`);
  return { cookie, key };
}

function osascriptFailure(error: ExecFileException, stderr: string): string {
  const head = "AppleScript could not get a cookie from iTerm2";
  if (error.code === "ENOENT") return `${head}: no osascript on PATH`;
  if (error.killed) return `${head}: osascript did not answer within 15 s (is a permission dialog waiting?)`;
  const said = stderr.trim().split("\n").at(-1)?.slice(0, 300) || error.message;
  // -1743: macOS refused the Apple event (Automation not allowed for the app termhive runs in).
  const hint = /-1743/.test(said) ? " (allow it in System Settings > Privacy & Security > Automation > iTerm2)" : "";
  return `${head}: ${said}${hint}`;
}
