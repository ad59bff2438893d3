// The rendered screen of a session: @xterm/headless fed the same bytes as the transcript.
import { createRequire } from "node:module";

type XtermModule = typeof import("@xterm/headless");
type HeadlessTerminal = InstanceType<XtermModule["Terminal"]>;
const require = createRequire(import.meta.url);
let xterm: XtermModule | undefined;
/** Loaded with the first session (~55 ms): a server answers tools/list before it needs it. */
function Terminal(): XtermModule["Terminal"] {
  return (xterm ??= require("@xterm/headless") as XtermModule).Terminal;
}

export interface ScreenSnapshot {
  /** Visible lines, trailing blanks trimmed. */
  lines: string[];
  cursor: { row: number; col: number };
  /** A full-screen program (vim, less, htop) has switched to the alternate screen. */
  alternate: boolean;
  rows: number;
  cols: number;
}

/** Feeding more than this at once stalls the event loop for too long; larger writes are split. */
const WRITE_SLICE = 64 * 1024;

export class Screen {
  private readonly term: HeadlessTerminal;
  private pending: Promise<void> = Promise.resolve();

  constructor(rows: number, cols: number, scrollback: number) {
    const XtermTerminal = Terminal();
    // logLevel off: xterm reports every malformed sequence (random bytes, a binary cat) with
    // console.error and a dump of its parser state — megabytes on the server's stderr and
    // ~100 ms of the event loop for 1 MB of noise. A parsing error is not ours to report.
    this.term = new XtermTerminal({ rows, cols, scrollback, allowProposedApi: true, convertEol: false, logLevel: "off" });
  }

  get rows(): number {
    return this.term.rows;
  }

  get cols(): number {
    return this.term.cols;
  }

  get bracketedPaste(): boolean {
    return this.term.modes.bracketedPasteMode;
  }

  get applicationCursorKeys(): boolean {
    return this.term.modes.applicationCursorKeysMode;
  }

  /** Queues text; resolves once it (and everything before it) has been parsed. */
  write(text: string): Promise<void> {
    // xterm keeps its own ordered write queue and calls callbacks in order, so every write is
    // handed over at once; waiting for each callback before the next write would add a timer
    // tick per chunk (a flood arrives in thousands of chunks).
    for (let i = 0; i < text.length; i += WRITE_SLICE) {
      const part = text.slice(i, i + WRITE_SLICE);
      if (i + WRITE_SLICE >= text.length) {
        this.pending = new Promise<void>((resolve) => this.term.write(part, resolve));
      } else {
        this.term.write(part);
      }
    }
    return this.pending;
  }

  /** Resolves when everything written so far is on the screen. */
  settled(): Promise<void> {
    return this.pending;
  }

  resize(rows: number, cols: number): void {
    this.term.resize(cols, rows);
  }

  reset(): void {
    this.term.reset();
  }

  snapshot(): ScreenSnapshot {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) {
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
    }
    return {
      lines,
      cursor: { row: buffer.cursorY, col: buffer.cursorX },
      alternate: buffer.type === "alternate",
      rows: this.term.rows,
      cols: this.term.cols,
    };
  }

  /** The cursor's line up to the cursor: where a prompt waits for input. */
  cursorLinePrefix(): string {
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(false) ?? "";
    return line.slice(0, buffer.cursorX);
  }

  dispose(): void {
    this.term.dispose();
  }
}
