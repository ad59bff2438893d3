// The input line termhive has typed into a pane since it last pressed Enter there, so that the
// safety gate judges what Enter will submit, whichever call presses it: text typed with
// enter: false and submitted later by keys ["Enter"], a line built over several calls, or
// a hive message typed without submit and submitted afterwards.
//
// It is kept with the pane (backend shared state), so a second termhive process pressing Enter
// sees what the first one typed. Two processes typing into one pane at the same moment can
// interleave their updates; the line then holds one of them — the gate's judgement is about
// what termhive typed, which a person at the pane can always add to.
//
// Keys whose effect on the line is exact (Space, Backspace, C-c) edit the record; any other key
// (cursor moves, history, yank, completion…) marks the line `edited`: from then until Enter the
// typed text alone no longer says what the line is, and the gate also reads the line from the
// screen before Enter is pressed (see service `judgeLine`).
import type { Backend } from "../../backends/backend.js";
import { TmuxGoneError } from "../../backends/tmux/control.js";
import { decodeShared, encodeShared } from "./shared-codec.js";

const KEY = "pending-line";
/** Longest line kept as text; past it only `overflow` is kept, and a submit needs confirm: true. */
export const PENDING_MAX_CHARS = 8 * 1024;

export interface PendingLine {
  text: string;
  /** Keys with an effect termhive cannot follow were pressed since the last Enter. */
  edited: boolean;
  /** More than PENDING_MAX_CHARS was typed since the last Enter. */
  overflow: boolean;
}

export const EMPTY_LINE: PendingLine = { text: "", edited: false, overflow: false };

/** Keys that submit the line in a shell or a TUI (C-o: bash's operate-and-get-next runs it). */
const SUBMIT_KEYS = new Set(["Enter", "C-m", "C-j", "C-o", "M-Enter"]);

export function isEmpty(line: PendingLine): boolean {
  return line.text === "" && !line.edited && !line.overflow;
}

export async function readPending(backend: Backend, paneId: string): Promise<PendingLine> {
  const raw = decodeShared<{ t: string; e: boolean; o: boolean }>(await backend.shared.readShared(paneId, KEY).catch(unlessServerGone));
  if (!raw) return EMPTY_LINE;
  return { text: typeof raw.t === "string" ? raw.t : "", edited: raw.e === true, overflow: raw.o === true };
}

export async function writePending(backend: Backend, paneId: string, line: PendingLine): Promise<void> {
  await backend.shared.writeShared(paneId, KEY, isEmpty(line) ? "" : encodeShared({ t: line.text, e: line.edited, o: line.overflow })).catch(unlessServerGone);
}

/**
 * A pane without a record (or a backend without shared state) has an empty line; a tmux server
 * that went away is the call's answer (unavailable, "tmux is not running"), not an empty line
 * followed by a misleading "session is gone".
 */
function unlessServerGone(error: unknown): "" {
  if (error instanceof TmuxGoneError) throw error;
  return "";
}

/** The line after `text` was typed onto it. */
export function withText(line: PendingLine, text: string): PendingLine {
  const joined = line.text + text;
  if (line.overflow || joined.length > PENDING_MAX_CHARS) return { text: "", edited: line.edited, overflow: true };
  return { ...line, text: joined };
}

/** One step of a key sequence: the line after the key, or `submit` when the key submits it. */
export function afterKey(line: PendingLine, key: string): PendingLine | "submit" {
  if (SUBMIT_KEYS.has(key)) return "submit";
  switch (key) {
    case "Space":
      return withText(line, " ");
    case "Backspace":
    case "C-h":
    case "C-?":
      return line.edited ? line : { ...line, text: line.text.slice(0, -1) };
    // Interrupt: shells and TUIs drop the line (and it goes to no kill ring).
    case "C-c":
      return EMPTY_LINE;
    // Kill the line: it is empty, but the kill ring holds it for a yank (C-y) to bring back.
    case "C-u":
      return { text: "", edited: true, overflow: false };
    default:
      return { ...line, edited: true };
  }
}
