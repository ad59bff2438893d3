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

/** Decodes a %output value: "\ooo" octal escapes back to bytes, everything else byte for byte. */
export function decodeOutputValue(raw: Buffer, start: number): Buffer {
  const out = Buffer.allocUnsafe(raw.length - start);
  let n = 0;
  for (let i = start; i < raw.length; i++) {
    const byte = raw[i]!;
    if (byte === BACKSLASH && i + 3 < raw.length && isOctal(raw[i + 1]) && isOctal(raw[i + 2]) && isOctal(raw[i + 3])) {
      out[n++] = ((raw[i + 1]! - 48) << 6) | ((raw[i + 2]! - 48) << 3) | (raw[i + 3]! - 48);
      i += 3;
    } else {
      out[n++] = byte;
    }
  }
  return out.subarray(0, n);
}

function isOctal(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 48 && byte <= 55;
}

/** Incremental parser: feed stdout chunks, get replies (in command order) and notifications. */
export class ControlParser {
  private pending: Buffer[] = [];
  private block: Block | null = null;

  constructor(
    private readonly onReply: (reply: Reply) => void,
    private readonly onNotification: (notification: Notification) => void,
  ) {}

  feed(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      if (this.pending.length) {
        this.pending.push(piece);
        this.line(Buffer.concat(this.pending));
        this.pending = [];
      } else {
        this.line(piece);
      }
      start = nl + 1;
    }
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
  }

  private line(raw: Buffer): void {
    // Lines may end in "\r" only if tmux was started without -C twice; strip defensively.
    const end = raw.length && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
    const line = raw.subarray(0, end);
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
    if (startsWith(line, "%output ")) {
      const sp = line.indexOf(0x20, 8);
      if (sp === -1) return;
      this.onNotification({ kind: "output", paneId: line.toString("latin1", 8, sp), data: decodeOutputValue(line, sp + 1) });
      return;
    }
    if (startsWith(line, "%extended-output ")) {
      const sep = line.indexOf(" : ");
      const sp = line.indexOf(0x20, 17);
      if (sep === -1 || sp === -1) return;
      this.onNotification({ kind: "output", paneId: line.toString("latin1", 17, sp), data: decodeOutputValue(line, sep + 3) });
      return;
    }
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
