// The rendered screen of a session: @xterm/headless fed the same bytes as the transcript.
import { createRequire } from "node:module";
import { ScreenInput } from "./screen-input.js";

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
/**
 * How often a flooded screen is brought up to date when nobody reads it. A read brings it up
 * to date at once; between reads, each update parses a screenful and more (~20 KB), so at
 * 60 a second a flood's screen cost ~10 % of a core for frames nobody looks at.
 */
const FLOOD_FLUSH_MS = 50;
/** Output faster than this (64 KB in 100 ms) is a flood. */
const FLOOD_BYTES = 64 * 1024;
const FLOOD_WINDOW_MS = 100;

/**
 * Text that only prints and moves down: no ESC, no C0 control but BS, TAB, LF, CR, no C1.
 * Such text cannot change a mode, the scroll region, the character set or the buffer.
 */
const PLAIN = /^[^\x00-\x07\x0b-\x0c\x0e-\x1f\x7f-\x9f]*$/;

/** A write waiting for the next flush, and how its promise is kept. */
interface Waiting { resolve: () => void }

export class Screen {
  /** Made on first use (see `term`). */
  private made: HeadlessTerminal | undefined;
  private size: { rows: number; cols: number };
  private pending: Promise<void> = Promise.resolve();
  /**
   * Plain text not yet handed to xterm. A flood is kept here between flushes, and at a flush
   * only the lines that can still be on the screen or in its scrollback are parsed: parsing
   * every line of a flood (xterm: ~1 s of CPU per 30 MB) was most of a flooded session's cost.
   */
  private plain: string[] = [];
  /** Line feeds in each string of `plain`, and their sum. */
  private plainFeeds: number[] = [];
  private plainLineFeeds = 0;
  private plainChars = 0;
  private waiting: Waiting[] = [];
  /** Set by dispose: a write callback queued before it finds no terminal to read. */
  private disposed = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private flushImmediate: NodeJS.Immediate | undefined;
  /** Plain text flushed since windowStart: how a flood is told from a spinner. */
  private windowStart = -Infinity;
  private windowBytes = 0;
  /** Writes handed to xterm and not yet parsed that may hold escape sequences. */
  private unparsedSequences = 0;
  private readonly input = new ScreenInput();

  constructor(rows: number, cols: number, private readonly scrollback: number) {
    this.size = { rows, cols };
  }

  /**
   * The terminal, made when the screen is first written or read: making one costs 1–2 ms,
   * which every terminal_open waited for although a shell prints nothing until its rc files ran.
   */
  private get term(): HeadlessTerminal {
    const XtermTerminal = this.made ? undefined : Terminal();
    // logLevel off: xterm reports every malformed sequence (random bytes, a binary cat) with
    // console.error and a dump of its parser state — megabytes on the server's stderr and
    // ~100 ms of the event loop for 1 MB of noise. A parsing error is not ours to report.
    return (this.made ??= new XtermTerminal!({ ...this.size, scrollback: this.scrollback, allowProposedApi: true, convertEol: false, logLevel: "off" }));
  }

  get rows(): number {
    return this.made?.rows ?? this.size.rows;
  }

  get cols(): number {
    return this.made?.cols ?? this.size.cols;
  }

  get bracketedPaste(): boolean {
    this.flush();
    return this.term.modes.bracketedPasteMode;
  }

  get applicationCursorKeys(): boolean {
    this.flush();
    return this.term.modes.applicationCursorKeysMode;
  }

  /** Queues text; resolves once it (and everything before it) has been parsed. */
  write(text: string): Promise<void> {
    if (PLAIN.test(text)) {
      const feeds = countLineFeeds(text);
      this.plain.push(text);
      this.plainFeeds.push(feeds);
      this.plainLineFeeds += feeds;
      this.plainChars += text.length;
      const parsed = new Promise<void>((resolve) => this.waiting.push({ resolve }));
      this.scheduleFlush();
      return parsed;
    }
    this.flush();
    return this.feed(text, false);
  }

  /** Resolves when everything written so far is on the screen. */
  settled(): Promise<void> {
    this.flush();
    return this.pending;
  }

  /** Hands the held plain text to xterm, without the lines that would scroll out of reach anyway. */
  private flush(): void {
    clearTimeout(this.flushTimer);
    if (this.flushImmediate) clearImmediate(this.flushImmediate);
    this.flushTimer = this.flushImmediate = undefined;
    if (this.plain.length === 0) return;
    const now = performance.now();
    if (now - this.windowStart >= FLOOD_WINDOW_MS) {
      this.windowStart = now;
      this.windowBytes = 0;
    }
    this.windowBytes += this.plainChars;
    const text = this.plainLineFeeds > this.linesThatCount() ? this.visibleTail() : this.plain.join("");
    const waiting = this.waiting;
    this.plain = [];
    this.plainFeeds = [];
    this.plainLineFeeds = 0;
    this.plainChars = 0;
    this.waiting = [];
    void this.feed(text, true).then(() => waiting.forEach((w) => w.resolve()));
  }

  /**
   * Lines of plain text that decide the buffer: after the cursor has reached the bottom (at
   * most rows − 1 line feeds) every line feed scrolls a fresh line in, and rows + scrollback
   * of those replace every line the buffer holds. Rows count triple so a resize that more
   * than doubles the height before the tail is parsed still finds its lines.
   */
  private linesThatCount(): number {
    return 3 * this.rows + this.scrollback + 2;
  }

  /**
   * The end of a plain flood that produces the same buffer as all of it: cut right after a
   * CR LF (the cursor at column 0 either way) with linesThatCount() line feeds after it. Only
   * when nothing unparsed could change how line feeds act and no scroll region is set (a
   * region keeps lines outside it, which the dropped text might have written).
   */
  private visibleTail(): string {
    if (this.unparsedSequences > 0 || !this.fullScrollRegion()) return this.plain.join("");
    const keep = this.linesThatCount();
    // Only the last strings that hold enough line feeds are joined: a flood held for a frame
    // is hundreds of KB, of which a few are kept.
    let first = this.plain.length - 1;
    for (let feeds = this.plainFeeds[first]!; first > 0 && feeds <= keep + 1; ) feeds += this.plainFeeds[--first]!;
    const text = this.plain.slice(first).join("");
    let feeds = 0;
    for (let i = text.length - 1; i > 0; i--) {
      if (text.charCodeAt(i) !== 10) continue;
      if (++feeds > keep && text.charCodeAt(i - 1) === 13) return text.slice(i + 1);
    }
    // No CR LF to cut at in the joined end (or a CR in the string before it): keep all.
    return first === 0 ? text : this.plain.join("");
  }

  /** xterm keeps the scroll region internally; when it cannot be read, nothing is dropped. */
  private fullScrollRegion(): boolean {
    const buffer = (this.term as unknown as { _core?: { buffer?: { scrollTop?: number; scrollBottom?: number } } })._core?.buffer;
    return buffer?.scrollTop === 0 && buffer.scrollBottom === this.term.rows - 1;
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    // A flood (more than FLOOD_BYTES flushed within FLOOD_WINDOW_MS, or more lines waiting than
    // can stay) is flushed once a frame, so many chunks are cut at once. Anything slower — a
    // spinner, a prompt, a burst after a pause — is handed to xterm in this turn of the event
    // loop, as before, so status detection on the screen sees it as early as ever.
    const flooding = this.windowBytes > FLOOD_BYTES && performance.now() - this.windowStart < FLOOD_WINDOW_MS;
    if (flooding || this.plainLineFeeds > this.linesThatCount()) {
      if (this.flushImmediate) clearImmediate(this.flushImmediate);
      this.flushImmediate = undefined;
      this.flushTimer = setTimeout(() => this.flush(), FLOOD_FLUSH_MS);
    } else {
      this.flushImmediate ??= setImmediate(() => this.flush());
    }
  }

  private feed(text: string, plain: boolean): Promise<void> {
    // xterm keeps its own ordered write queue and calls callbacks in order, so every write is
    // handed over at once; waiting for each callback before the next write would add a timer
    // tick per chunk (a flood arrives in thousands of chunks).
    if (!plain) this.unparsedSequences++;
    for (let i = 0; i < text.length; i += WRITE_SLICE) {
      const part = text.slice(i, i + WRITE_SLICE);
      if (i + WRITE_SLICE >= text.length) {
        this.pending = new Promise<void>((resolve) => this.term.write(part, () => {
          if (!plain) this.unparsedSequences--;
          resolve();
        }));
      } else {
        this.term.write(part);
      }
    }
    if (text.length === 0) {
      if (!plain) this.unparsedSequences--;
      this.pending = this.pending.then(() => {});
    }
    return this.pending;
  }

  resize(rows: number, cols: number): void {
    this.flush();
    this.size = { rows, cols };
    this.made?.resize(cols, rows);
  }

  reset(): void {
    this.flush();
    this.term.reset();
  }

  snapshot(): ScreenSnapshot {
    this.flush();
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

  /**
   * An integrated shell started (`start`) or stopped reading its input line here, or what its
   * line showed so far was printed, not typed (`restart`), in the order of what was written:
   * the edge is placed where the cursor is once all of it is parsed.
   */
  markInput(edge: "start" | "end" | "restart"): void {
    const place = edge === "start" ? this.input.begin() : edge === "end" ? this.input.end() : this.input.restart();
    if (!place) return;
    this.flush();
    this.pending = new Promise<void>((resolve) => this.term.write("", () => {
      // Closed while this write waited for its turn: the terminal is gone, and so is the line to mark.
      if (this.disposed) return resolve();
      const buffer = this.term.buffer.active;
      // Markers live on the normal screen; a line read on the alternate one is not marked.
      const marker = buffer.type === "normal" ? this.term.registerMarker(0) : undefined;
      place(marker ? { marker, col: buffer.cursorX } : undefined);
      resolve();
    }));
  }

  /** The visible lines without the echo of input (see screen-input.ts): what profile rules read. */
  printedLines(): string[] {
    this.flush();
    const buffer = this.term.buffer.active;
    if (buffer.type !== "normal") return this.snapshot().lines;
    return this.input.mask(buffer, this.term.rows, this.term.cols);
  }

  /** The cursor's line up to the cursor: where a prompt waits for input. */
  cursorLinePrefix(): string {
    this.flush();
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(false) ?? "";
    return line.slice(0, buffer.cursorX);
  }

  /** The whole logical line the cursor is on (rows joined where the terminal wrapped them). */
  cursorLogicalLine(): string {
    this.flush();
    const buffer = this.term.buffer.active;
    let first = buffer.baseY + buffer.cursorY;
    while (first > 0 && buffer.getLine(first)?.isWrapped) first--;
    let text = "";
    for (let row = first; row < buffer.length; row++) {
      const line = buffer.getLine(row);
      if (!line || (row > first && !line.isWrapped)) break;
      text += line.translateToString(true);
    }
    return text;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.flushTimer);
    if (this.flushImmediate) clearImmediate(this.flushImmediate);
    this.made?.dispose();
  }
}

function countLineFeeds(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
