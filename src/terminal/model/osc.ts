// Finds OSC sequences (ESC ] … BEL | ESC \) in a decoded output stream, across chunk
// boundaries, and reports the ones termhive understands with their absolute offsets.

export type OscEvent =
  | { type: "prompt-start" } // 133;A
  | { type: "command-input" } // 133;B
  | { type: "command-output" } // 133;C
  | { type: "command-end"; exitCode: number | null; exiting?: { saidExit: boolean } } // 133;D[;code[;exiting|said-exit]]
  | { type: "continuation" } // 133;P;k=c: the shell shows its continuation prompt (PS2), the line is incomplete
  | { type: "cwd"; path: string } // 7;file://host/path
  | { type: "command-line"; command: string } // 633;E;<escaped>
  | { type: "custom"; id: string; payload: string }; // 1337;Custom=id=<id>:<payload>

export interface LocatedOscEvent {
  event: OscEvent;
  /** Absolute offset of the ESC that starts the sequence. */
  start: number;
  /** Absolute offset just past its terminator. */
  end: number;
}

/** OSC payloads longer than this are not ours; they are skipped, not buffered without bound. */
const MAX_PAYLOAD = 64 * 1024;

export class OscScanner {
  /** Absolute offset of the end of everything fed so far. */
  private position = 0;
  /** An unterminated sequence (from its ESC) held back until the next chunk completes it. */
  private carry = "";

  /** Feeds the next decoded chunk; returns the events it completed. */
  feed(text: string): LocatedOscEvent[] {
    const events: LocatedOscEvent[] = [];
    const data = this.carry + text;
    const base = this.position - this.carry.length;
    this.carry = "";
    this.position += text.length;
    let i = 0;
    for (;;) {
      const esc = data.indexOf("\x1b]", i);
      if (esc === -1) {
        if (data.endsWith("\x1b")) this.carry = "\x1b";
        return events;
      }
      const terminator = findTerminator(data, esc + 2);
      if (!terminator) {
        // Incomplete: keep it for the next chunk unless it is too long to be one of ours.
        if (data.length - esc <= MAX_PAYLOAD) this.carry = data.slice(esc);
        return events;
      }
      if (!terminator.aborted) {
        const event = parseOsc(data.slice(esc + 2, terminator.at));
        if (event) events.push({ event, start: base + esc, end: base + terminator.at + terminator.length });
      }
      i = terminator.aborted ? terminator.at : terminator.at + terminator.length;
    }
  }
}

/** BEL or ESC \ ends an OSC; any other ESC aborts it (xterm does the same). */
function findTerminator(data: string, from: number): { at: number; length: number; aborted: boolean } | undefined {
  const bel = data.indexOf("\x07", from);
  const esc = data.indexOf("\x1b", from);
  if (bel !== -1 && (esc === -1 || bel < esc)) return { at: bel, length: 1, aborted: false };
  if (esc === -1 || esc + 1 >= data.length) return undefined;
  return data[esc + 1] === "\\" ? { at: esc, length: 2, aborted: false } : { at: esc, length: 0, aborted: true };
}

export function parseOsc(payload: string): OscEvent | undefined {
  if (payload.startsWith("133;")) {
    const [, kind, arg, tag] = payload.split(";");
    switch (kind) {
      case "A":
        return { type: "prompt-start" };
      case "B":
        return { type: "command-input" };
      case "C":
        return { type: "command-output" };
      case "D": {
        const code = arg === undefined || arg === "" ? null : Number(arg);
        const exitCode = code === null || Number.isNaN(code) ? null : code;
        // From the shell's exit hook ("exiting"); "said-exit": bash's `exit` printed its "exit" line just before.
        if (tag === "exiting" || tag === "said-exit") return { type: "command-end", exitCode, exiting: { saidExit: tag === "said-exit" } };
        return { type: "command-end", exitCode };
      }
      case "P":
        // A prompt of kind c (continuation) in the semantic-prompts notation: the line is incomplete.
        return arg === "k=c" ? { type: "continuation" } : undefined;
      default:
        return undefined;
    }
  }
  if (payload.startsWith("7;")) {
    const url = payload.slice(2);
    const match = /^file:\/\/[^/]*(\/.*)$/.exec(url);
    if (!match) return undefined;
    try {
      return { type: "cwd", path: decodeURIComponent(match[1]!) };
    } catch {
      return { type: "cwd", path: match[1]! };
    }
  }
  if (payload.startsWith("633;E;")) {
    return { type: "command-line", command: unescape633(payload.slice(6).replace(/;[^;]*$/, (m) => (/^;[0-9a-f-]{8,}$/i.test(m) ? "" : m))) };
  }
  if (payload.startsWith("1337;Custom=id=")) {
    const rest = payload.slice("1337;Custom=id=".length);
    const colon = rest.indexOf(":");
    return colon === -1 ? { type: "custom", id: rest, payload: "" } : { type: "custom", id: rest.slice(0, colon), payload: rest.slice(colon + 1) };
  }
  return undefined;
}

/** VS Code's escaping for 633;E: "\\" is a backslash, "\xNN" a byte (used for ";" and controls). */
function unescape633(value: string): string {
  return value.replace(/\\(\\|x([0-9a-fA-F]{2}))/g, (_m, what: string, hex?: string) => (hex ? String.fromCharCode(parseInt(hex, 16)) : what));
}
