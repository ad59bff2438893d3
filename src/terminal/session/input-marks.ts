// Where the last input sent to a session went in, so that a wait for a pattern looks only at
// what the program printed since (an earlier job's line that matches is old output, and a fresh
// process's adopted scrollback is older still). The input's time is kept with the pane
// (backend shared state) too: a process that did not send it finds, among the chunks of output
// it took in live, the first that came after it. Output adopted from the pane's history has no
// time and is never looked at.
import { createHash } from "node:crypto";
import type { Backend } from "../../backends/backend.js";
import { traced } from "../../util/traced.js";

const KEY = "input-at";
/** Arrival times of output chunks kept; a flood's older chunks go first. */
const KEPT_CHUNKS = 4096;

/** Where a wait looks from, and why there. */
export interface LookFrom {
  from: number;
  /**
   * `input`: output since the last input sent to the session; `start`: the last input was sent
   * before this process followed the session (what followed it is in the adopted history, not
   * placed in time here); `open`: nothing was ever sent to it, all of its output is the program's own.
   */
  since: "input" | "start" | "open";
  /**
   * `start`: the last line typed, as its length and digest (never its text: it may hold a
   * secret), kept with the pane by the process that typed it. The adopted history holds its
   * echo; what the program printed for it comes after that (typedLineEnd).
   */
  typed?: TypedLine;
}

export interface TypedLine {
  chars: number;
  digest: string;
}

const digestOf = (line: string): string => createHash("sha256").update(line).digest("hex").slice(0, 16);

/** The last line of typed text without its line end, or undefined when it has none. */
function lastTypedLine(text: string): string | undefined {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trimEnd());
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i] !== "") return lines[i];
  return undefined;
}

/**
 * Where the last line of `history` that ends with the typed line ends (after its line break),
 * or undefined. `history` is raw transcript text starting at offset `start`; lines are compared
 * as printed (escape codes out, trailing blanks off): the shell echoed the line after its prompt.
 */
export function typedLineEnd(history: string, start: number, typed: TypedLine, strip: (line: string) => string): number | undefined {
  let end = history.length;
  while (end > 0) {
    const lineStart = history.lastIndexOf("\n", end - 1) + 1;
    const printed = strip(history.slice(lineStart, end)).trimEnd();
    if (printed.length >= typed.chars && digestOf(printed.slice(printed.length - typed.chars)) === typed.digest) {
      const lineEnd = history.indexOf("\n", lineStart);
      return start + (lineEnd === -1 ? history.length : lineEnd + 1);
    }
    end = lineStart - 1;
  }
  return undefined;
}

export class InputMarks {
  private readonly times: number[] = [];
  private readonly offsets: number[] = [];
  private last: { at: number; ms: number } | null = null;
  /** The last typed line as kept with the pane: "_<length>_<digest>", or "" before any. */
  private typedMark = "";

  /** `pane`: the session's backend and pane, asked when input is sent or a wait begins. */
  constructor(private readonly pane: () => { backend: Backend; paneId: string }) {}

  /** A chunk of live output starting at transcript offset `offset` arrived. */
  output(offset: number, now = Date.now()): void {
    this.times.push(now);
    this.offsets.push(offset);
    if (this.times.length > KEPT_CHUNKS) {
      this.times.shift();
      this.offsets.shift();
    }
  }

  /** This process sends input now (`text`, or keys); the output from `offset` on follows it. */
  sent(offset: number, now = Date.now(), text?: string): void {
    this.last = { at: offset, ms: now };
    const line = text === undefined ? undefined : lastTypedLine(text);
    // Shared values are [A-Za-z0-9_-] (backends/tmux/pane-format.ts): the parts go with "_".
    if (line !== undefined) this.typedMark = `_${line.length}_${digestOf(line)}`;
    const { backend, paneId } = this.pane();
    void backend.shared.writeShared(paneId, KEY, `${now}${this.typedMark}`).catch(traced("recording a pane's last input"));
  }

  /** Where output since the last input begins, wherever it was sent from (`end`: the transcript's end, where the wait begins). */
  async lookFrom(end: () => number): Promise<LookFrom> {
    const { backend, paneId } = this.pane();
    const [at, chars, digest] = ((await backend.shared.readShared(paneId, KEY).catch(() => "")) || "").split("_");
    const shared = Number(at || NaN);
    const typed = chars && digest ? { chars: Number(chars), digest } : undefined;
    const last = this.last;
    if (last && !(shared > last.ms)) return { from: last.at, since: "input" };
    if (!Number.isFinite(shared)) return { from: 0, since: "open" };
    // Sent from elsewhere: the first chunk that came after it. Sent before the oldest chunk kept
    // (before this process followed the session, or a flood ago): what followed is not known here.
    if (this.times.length === 0 || shared < this.times[0]!) return { from: end(), since: "start", ...(typed ? { typed } : {}) };
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! < shared) lo = mid + 1;
      else hi = mid;
    }
    return { from: lo < this.offsets.length ? this.offsets[lo]! : end(), since: "input" };
  }
}
