// How termhive reads tmux's answers and names its options: the pane line format (one line per
// pane, tab-separated), the session metadata kept in a pane option, and the user options that
// hold shared state. Pure functions of strings; the backend runs the commands.
import type { PaneInfo } from "../backend.js";
import { isValidName } from "../../util/names.js";
import { TmuxError } from "./control.js";
import { tmuxQuote } from "./quote.js";

export const FIELDS = [
  "pane_id", "window_id", "pane_pid", "pane_dead", "pane_dead_status", "pane_dead_signal",
  "pane_current_command", "pane_current_path", "pane_height", "pane_width", "@termhive_meta",
] as const;
// Free text (a folder or program name any pane's process picks, an option it may set) can hold a
// tab or a newline, which would cut one pane's line into the fields or lines of others and stop
// every listing on the server. tmux 3.3a has no modifier that escapes them (q: leaves both), so
// regex substitutions do: "\" → "\\", tab → "\t", newline → "\n", CR → "\r"; the parser undoes it.
const FREE_TEXT = new Set<string>(["pane_current_command", "pane_current_path", "@termhive_meta"]);
// A newline or CR cannot go raw into a control-mode command line: tmux's parser makes them from
// "\n" and "\r" inside double quotes, spliced into the single-quoted format by paneFormatArg.
const NL = "\u0001n";
const CR = "\u0001r";
const escapedField = (f: string) => `#{s/\\\\/\\\\\\\\/;s/\t/\\\\t/;s/${NL}/\\\\n/;s/${CR}/\\\\r/:${f}}`;
export const PANE_FORMAT = FIELDS.map((f) => (FREE_TEXT.has(f) ? escapedField(f) : `#{${f}}`)).join("\t");
/** PANE_FORMAT quoted for a tmux command line. */
export const PANE_FORMAT_ARG = tmuxQuote(PANE_FORMAT).replaceAll(NL, `'"\\n"'`).replaceAll(CR, `'"\\r"'`);

/** A window name that is unique and inert on a tmux command line: the session's name or id. */
export function windowTag(meta: Record<string, string>): string {
  const candidate = meta.name ?? meta.id ?? "";
  return isValidName(candidate) ? candidate : `th-${Date.now().toString(36)}`;
}

const UNESCAPE: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\" };
export function unescapeField(value: string): string {
  return value.replace(/\\(.)/gs, (_, c: string) => UNESCAPE[c] ?? c);
}

/** One line of PANE_FORMAT; anything else is tmux speaking a format we did not ask for, said loudly. */
export function parsePaneLine(line: string): PaneInfo {
  const parts = line.split("\t");
  if (parts.length !== FIELDS.length) {
    throw new TmuxError(
      `tmux answered a pane line termhive cannot read (${parts.length} of ${FIELDS.length} tab-separated fields: ${JSON.stringify(line.slice(0, 200))}); ` +
        `a tmux client outside a UTF-8 locale prints tabs as "_" — termhive runs tmux with -u, so check TERMHIVE_TMUX points at tmux itself`,
    );
  }
  return paneOf(parts, unescapeField(parts[6]!), unescapeField(parts[7]!));
}

function paneOf(parts: string[], foreground: string, cwd: string): PaneInfo {
  const [paneId, windowId, pid, dead, status, signal] = parts as [string, ...string[]];
  const [height, width, meta] = parts.slice(-3);
  return {
    paneId,
    windowId: windowId!,
    pid: Number(pid),
    dead: dead === "1",
    exitStatus: dead === "1" && status !== "" ? Number(status) : null,
    exitSignal: dead === "1" && signal !== "" ? Number(signal) : null,
    foreground,
    cwd,
    rows: Number(height),
    cols: Number(width),
    meta: decodeMeta(unescapeField(meta!)),
  };
}

const PANE_HEAD = /^%\d+\t@\d+\t\d+\t[01]?\t/;
const PANE_TAIL = /\t\d+\t\d+\t[A-Za-z0-9_-]*$/;

/**
 * A listing: one pane's odd line must not cost the others (nor hide itself). Should a line not
 * read (a tmux that did not escape), a piece that does not start as a pane line is the rest of
 * the one before it; a pane whose ids and tail still read is kept with its program and folder
 * unknown (""); the rest is skipped. Only when no line reads at all is it tmux speaking another
 * format, said loudly.
 */
export function parsePaneLines(lines: readonly string[]): PaneInfo[] {
  const joined: string[] = [];
  for (const line of lines) {
    if (joined.length && !PANE_HEAD.test(line)) joined[joined.length - 1] += `\n${line}`;
    else joined.push(line);
  }
  const panes: PaneInfo[] = [];
  let failure: unknown;
  for (const line of joined) {
    try {
      panes.push(parsePaneLine(line));
    } catch (error) {
      failure ??= error;
      if (PANE_HEAD.test(line) && PANE_TAIL.test(line)) panes.push(paneOf(line.split("\t"), "", ""));
    }
  }
  if (failure !== undefined && panes.length === 0) throw failure;
  return panes;
}

/** The tmux user option holding one shared key. */
export function sharedOption(key: string): string {
  if (!/^[a-z0-9._-]+$/.test(key)) throw new TmuxError(`invalid shared state key ${JSON.stringify(key)}`);
  return `@termhive_s_${key}`;
}

export function sharedTarget(paneId: string | null): string {
  return paneId === null ? "" : `-t ${tmuxQuote(paneId)}`;
}

export function sharedScope(paneId: string | null): string {
  return paneId === null ? "-g" : `-p -t ${tmuxQuote(paneId)}`;
}

/** Values are base64url tokens, so they pass a tmux format comparison unquoted. "" = unset. */
export function checkSharedValue(value: string): void {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new TmuxError(`invalid shared state value ${JSON.stringify(value.slice(0, 80))}`);
}

export function decodeMeta(encoded: string): Record<string, string> {
  if (!encoded) return {};
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
    return value && typeof value === "object" ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}
