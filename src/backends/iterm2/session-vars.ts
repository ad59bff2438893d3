// What an iTerm2 session carries for termhive: its metadata and shared state in session
// variables, the wrapper that reports the program's exit status, the OSC 7 that tells the
// shell's folder. Pure functions; the backend sends them.
import { hostname } from "node:os";
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

export function publicMeta(meta: Record<string, string>): Record<string, string> {
  const { __adopted: _, ...rest } = meta;
  return rest;
}

export function sharedScope(paneId: string | null) {
  return paneId === null ? ("app" as const) : { session: paneId };
}

/** Variable names take letters, digits and _ only: every other character of the key is escaped. */
export function sharedName(key: string): string {
  return SHARED_PREFIX + key.replace(/[^a-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

