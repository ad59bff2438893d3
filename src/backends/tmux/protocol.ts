// tmux control-mode protocol: framing of the server's stdout into replies and notifications.
// Lines end in "\n"; pane output escapes bytes < 0x20 and "\" as three-digit octal, so a raw
// "\n" never occurs inside a value and the stream can be split on it safely, as bytes.

export interface Reply {
  ok: boolean;
  lines: string[];
}

export type Notification =
  | { kind: "output"; paneId: string; data: Buffer }
  | { kind: "pause"; paneId: string }
  | { kind: "continue"; paneId: string }
  | { kind: "exit"; reason: string }
  | { kind: "other"; name: string; args: string };

const BACKSLASH = 0x5c;

/**
 * Decodes a %output value raw[start..] ("\ooo" octal escapes back to bytes, everything else
 * byte for byte) into out at `at` (out needs room for raw.length - start bytes); returns the new end.
 */
function decodeInto(raw: Buffer, start: number, out: Buffer, at: number): number {
  let n = at;
  const end = raw.length;
  let i = start;
  while (i < end) {
    // Runs without an escape are copied whole (native), not byte by byte: a flood's lines are
    // ~100 plain bytes between two escaped line ends.
    const slash = raw.indexOf(BACKSLASH, i);
    const runEnd = slash === -1 ? end : slash;
    if (runEnd - i >= 16) {
      n += raw.copy(out, n, i, runEnd);
      i = runEnd;
    } else {
      while (i < runEnd) out[n++] = raw[i++]!;
    }
    if (i >= end) break;
    if (i + 3 < end && isOctal(raw[i + 1]!) && isOctal(raw[i + 2]!) && isOctal(raw[i + 3]!)) {
      out[n++] = ((raw[i + 1]! - 48) << 6) | ((raw[i + 2]! - 48) << 3) | (raw[i + 3]! - 48);
      i += 4;
    } else {
      out[n++] = raw[i++]!;
    }
  }
  return n;
}

function isOctal(byte: number): boolean {
  return byte >= 48 && byte <= 55;
}

/**
 * Incremental parser: feed stdout chunks, get replies (in command order) and notifications.
 *
 * tmux sends a flood as one %output line per pane read (~1.5 KB each). Consecutive %output
 * lines of the same pane within one fed chunk are decoded into one buffer and reported as a
 * single output notification: everything downstream (screen, transcript, recording,
 * watchers) then pays its per-chunk cost once per read of our pipe, not once per line.
 * Any other line ends the run first, so output still precedes the replies and
 * notifications that followed it. Output is decoded in place, into the chunk it came in
 * (decoding only shrinks it, and the chunk is ours alone): a flood costs no buffer of its own.
 */
export class ControlParser {
  private pending: Buffer[] = [];
  private block: Block | null = null;
  /** The buffer being read, into which the current run's output is decoded: [outStart, outEnd). */
  private out: Buffer = Buffer.alloc(0);
  private outStart = 0;
  private outEnd = 0;
  private outPane: string | null = null;

  constructor(
    private readonly onReply: (reply: Reply) => void,
    private readonly onNotification: (notification: Notification) => void,
  ) {}

  /** Takes `chunk` over: its bytes are overwritten (pane output is decoded in place). */
  feed(chunk: Buffer): void {
    let start = 0;
    try {
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl === -1) break;
        const piece = chunk.subarray(start, nl);
        if (this.pending.length) {
          // A line begun in an earlier chunk: decoded in its own joined buffer, as a run of its own.
          this.pending.push(piece);
          const joined = Buffer.concat(this.pending);
          this.pending = [];
          this.flushOutput();
          this.out = joined;
          this.line(joined);
          this.flushOutput();
        } else {
          this.out = chunk;
          this.line(piece);
        }
        start = nl + 1;
      }
      if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
    } finally {
      this.flushOutput();
    }
  }

  private flushOutput(): void {
    const paneId = this.outPane;
    if (paneId === null) return;
    const data = this.out.subarray(this.outStart, this.outEnd);
    this.outPane = null;
    this.outStart = this.outEnd;
    if (data.length) this.onNotification({ kind: "output", paneId, data });
  }

  /** `raw` is a line of `this.out`; its value is decoded to the run's end, never past where it starts. */
  private output(paneId: string, raw: Buffer, valueStart: number): void {
    if (this.outPane !== paneId) {
      this.flushOutput();
      this.outPane = paneId;
      this.outStart = this.outEnd = raw.byteOffset - this.out.byteOffset + valueStart;
    }
    this.outEnd = decodeInto(raw, valueStart, this.out, this.outEnd);
  }

  private line(raw: Buffer): void {
    // Lines may end in "\r" only if tmux was started without -C twice; strip defensively.
    const end = raw.length && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
    const line = raw.subarray(0, end);
    if (!this.block && startsWith(line, "%output ")) {
      const sp = line.indexOf(0x20, 8);
      if (sp !== -1) this.output(line.toString("latin1", 8, sp), line, sp + 1);
      return;
    }
    if (!this.block && startsWith(line, "%extended-output ")) {
      const sep = line.indexOf(" : ");
      const sp = line.indexOf(0x20, 17);
      if (sep !== -1 && sp !== -1) this.output(line.toString("latin1", 17, sp), line, sep + 3);
      return;
    }
    this.flushOutput();
    if (this.block) {
      const text = line.toString("utf8");
      if (text.startsWith("%end ") || text.startsWith("%error ")) {
        if (isGuardFor(text, this.block)) {
          const { lines, ours } = this.block;
          this.block = null;
          if (ours) this.onReply({ ok: text.startsWith("%end "), lines });
          return;
        }
      }
      this.block.lines.push(text);
      return;
    }
    if (line[0] !== 0x25 /* % */) return; // stray line outside a block: nothing to route it to
    const text = line.toString("utf8");
    const space = text.indexOf(" ");
    const name = space === -1 ? text.slice(1) : text.slice(1, space);
    const args = space === -1 ? "" : text.slice(space + 1);
    switch (name) {
      case "begin": {
        // flags bit 0 marks a command this client sent; others (the initial attach) are skipped.
        const flags = Number(args.split(" ")[2] ?? "0");
        this.block = { lines: [], ours: (flags & 1) === 1, guard: guardOf(args) };
        return;
      }
      case "pause":
        this.onNotification({ kind: "pause", paneId: args.trim() });
        return;
      case "continue":
        this.onNotification({ kind: "continue", paneId: args.trim() });
        return;
      case "exit":
        this.onNotification({ kind: "exit", reason: args });
        return;
      default:
        this.onNotification({ kind: "other", name, args });
    }
  }
}

interface Block {
  lines: string[];
  ours: boolean;
  /** "time number" of the %begin line; the matching %end/%error repeats it. */
  guard: string;
}

function guardOf(args: string): string {
  const [time, number] = args.split(" ");
  return `${time} ${number}`;
}

function isGuardFor(text: string, block: Block): boolean {
  const parts = text.split(" ");
  return `${parts[1]} ${parts[2]}` === block.guard;
}

function startsWith(buf: Buffer, prefix: string): boolean {
  if (buf.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[i] !== prefix.charCodeAt(i)) return false;
  return true;
}
