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
export const PANE_FORMAT = FIELDS.map((f) => `#{${f}}`).join("\t");
/** A window name that is unique and inert on a tmux command line: the session's name or id. */
export function windowTag(meta: Record<string, string>): string {
  const candidate = meta.name ?? meta.id ?? "";
  return isValidName(candidate) ? candidate : `th-${Date.now().toString(36)}`;
}

/** One line of PANE_FORMAT; anything else is tmux speaking a format we did not ask for, said loudly. */
export function parsePaneLine(line: string): PaneInfo {
  const parts = line.split("\t");
  if (parts.length < FIELDS.length) {
    throw new TmuxError(
      `tmux answered a pane line termhive cannot read (${parts.length} of ${FIELDS.length} tab-separated fields: ${JSON.stringify(line.slice(0, 200))}); ` +
        `a tmux client outside a UTF-8 locale prints tabs as "_" — termhive runs tmux with -u, so check TERMHIVE_TMUX points at tmux itself`,
    );
  }
  const [paneId, windowId, pid, dead, status, signal, command, cwd, height, width, meta] = parts as [string, ...string[]];
  return {
    paneId,
    windowId: windowId!,
    pid: Number(pid),
    dead: dead === "1",
    exitStatus: dead === "1" && status !== "" ? Number(status) : null,
    exitSignal: dead === "1" && signal !== "" ? Number(signal) : null,
    foreground: command!,
    cwd: cwd!,
    rows: Number(height),
    cols: Number(width),
    meta: decodeMeta(meta!),
  };
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
