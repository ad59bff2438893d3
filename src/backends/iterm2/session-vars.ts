// What an iTerm2 session carries for termhive: its metadata and shared state in session
// variables, the wrapper that reports the program's exit status, the OSC 7 that tells the
// shell's folder. Pure functions; the backend sends them.
import { hostname } from "node:os";
import { defaultHome, realFolder } from "../../util/paths.js";
import { shellWord } from "../../util/shell-word.js";
import { joinWords } from "../../util/words.js";

/** Session variable holding a pane's termhive metadata (JSON); only sessions that have it are ours. */
export const META_VARIABLE = "user.termhive";
const SHARED_PREFIX = "user.termhive_s_";
/** The exit status arrives as an escape sequence the wrapper prints after the program ends. */
export const EXIT_IDENTITY = "termhive-exit";

/** Runs the pane's program, then prints its exit status as an escape sequence iTerm2 reports to us. */
export function wrappedCommand(argv: string[]): string {
  const report = `s=$?; printf '\\033]1337;Custom=id=${EXIT_IDENTITY}:%s\\007' "$s"; exit "$s"`;
  return `/bin/sh -c ${shellWord(`${joinWords(argv)}; ${report}`)}`;
}

export function cwdOsc(path: string): string {
  return `\x1b]7;file://${hostname()}${encodeURI(path)}\x07`;
}

/** The metadata key naming the TERMHIVE_HOME a session belongs to (kept out of what callers see). */
export const HOME_KEY = "__home";

export function publicMeta(meta: Record<string, string>): Record<string, string> {
  const { __adopted: _, [HOME_KEY]: _home, ...rest } = meta;
  return rest;
}

/** What goes into the session variable: the metadata and the home whose session it is. */
export function storedMeta(meta: Record<string, string>, home: string): Record<string, string> {
  return { ...publicMeta(meta), [HOME_KEY]: home };
}

/**
 * Whether a session's stored metadata is this home's: iTerm2 is one app for every home, and a
 * termhive adopting another home's sessions would look for their shells' status files in its
 * own home. A session of a termhive that recorded no home belongs to the default home. Homes
 * are compared as folders, not strings: one termhive given `~/th/` and another given `~/th`,
 * or a symlink to it, share one home and must see each other's sessions.
 */
export function ofHome(meta: Record<string, unknown>, home: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const recorded = meta[HOME_KEY];
  const ours = realFolder(home);
  return ours === realFolder(typeof recorded === "string" ? recorded : defaultHome(env));
}

/** The home a backend's sessions are recorded under: the one it was given, else the default. */
export function sessionsHome(options: { home?: string; env?: NodeJS.ProcessEnv }): string {
  return options.home ?? defaultHome(options.env ?? process.env);
}

export function sharedScope(paneId: string | null) {
  return paneId === null ? ("app" as const) : { session: paneId };
}

/** Variable names take letters, digits and _ only: every other character of the key is escaped. */
export function sharedName(key: string): string {
  return SHARED_PREFIX + key.replace(/[^a-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

