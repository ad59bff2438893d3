// Everything a session's program printed, as decoded text with absolute offsets and line
// numbers, bounded in memory: past the cap the oldest text is dropped and reads say so
// (the session's asciinema recording keeps the whole output on disk).
//
// Text is held in blocks of about BLOCK characters, so appending, dropping the oldest text
// and cutting a range each touch only the blocks involved — a flood of output costs time
// in proportion to its size, never to the size of what is already held.
//
// Lines are not indexed one by one: each block knows how many newlines came before it,
// and a line number is found by counting within one block. An index entry per line cost
// 4–8 bytes a line (a million-line flood: 4–8 MB held, ~30 MB allocated growing it) for
// lookups that happen only when output is read.

export interface TranscriptSlice {
  text: string;
  /** Absolute offset of text[0]. */
  start: number;
  /** Absolute 1-based line number of the first line in text. */
  firstLine: number;
  /** What was asked for but already dropped: characters for slice(), lines for lines(). */
  droppedBefore: number;
}

const BLOCK = 64 * 1024;
/** Characters kept from a pinned offset (a command's first output) once the cap drops it. */
export const PINNED_HEAD_CHARS = 8 * 1024;

export class Transcript {
  private blocks: string[] = [];
  /** Absolute offset where each block starts. */
  private blockStarts: number[] = [];
  /** Newlines before each block's first character, since the start of the session. */
  private blockNewlines: number[] = [];
  private total = 0;
  private newlines = 0;

  /** Where the running command's output began (pin()); its head outlives the cap. */
  private pinStart: number | null = null;
  private head: TranscriptSlice | null = null;

  constructor(private readonly maxChars: number) {}

  /**
   * Keeps the first PINNED_HEAD_CHARS from `offset` when the cap drops them: a flood bigger
   * than the cap otherwise loses how a command's output began (its first line, an error
   * printed before the flood). One pin at a time: the next command's pin replaces it.
   */
  pin(offset: number): void {
    this.pinStart = offset;
    this.head = null;
  }

  /**
   * The pinned head from `from` on, when the cap has dropped `from` and the head reaches past
   * it. Asked from before the head (a read from the prompt the command was typed at), it is the
   * head whole: the few characters before it were dropped with the rest.
   */
  headOf(from: number): TranscriptSlice | undefined {
    const head = this.head;
    if (!head || from >= head.start + head.text.length || from >= this.start) return undefined;
    const cut = Math.max(0, from - head.start);
    return { text: head.text.slice(cut), start: head.start + cut, firstLine: head.firstLine + countNewlines(head.text, 0, cut), droppedBefore: 0 };
  }

  /** Absolute offset just past the last character. */
  get end(): number {
    return this.total;
  }

  /** Absolute offset of the oldest character still held. */
  get start(): number {
    return this.blockStarts[0] ?? this.total;
  }

  /** Number of the last line (the one being written). */
  get lineCount(): number {
    return this.newlines + 1;
  }

  /** The line holding the oldest character; lines before it are dropped whole. */
  get firstHeldLine(): number {
    return (this.blockNewlines[0] ?? this.newlines) + 1;
  }

  append(text: string): void {
    if (!text) return;
    const last = this.blocks.length - 1;
    if (last >= 0 && this.blocks[last]!.length + text.length <= BLOCK) {
      this.blocks[last] += text;
    } else {
      this.blocks.push(text);
      this.blockStarts.push(this.total);
      this.blockNewlines.push(this.newlines);
    }
    this.newlines += countNewlines(text, 0, text.length);
    this.total += text.length;
    if (this.total - this.start > this.maxChars) {
      const cut = this.total - this.maxChars;
      const pin = this.pinStart;
      if (pin !== null && this.head === null && pin >= this.start && pin < cut) {
        this.head = this.slice(pin, pin + PINNED_HEAD_CHARS);
        this.pinStart = null;
      }
      this.dropBefore(cut);
    }
  }

  /** Drops whole blocks that end before `offset`. */
  private dropBefore(offset: number): void {
    while (this.blocks.length > 1 && this.blockStarts[1]! <= offset) {
      this.blocks.shift();
      this.blockStarts.shift();
      this.blockNewlines.shift();
    }
    if (this.blocks.length === 1 && this.blockStarts[0]! < offset) {
      // One huge block (a single enormous append): cut inside it.
      const cut = offset - this.blockStarts[0]!;
      this.blockNewlines[0]! += countNewlines(this.blocks[0]!, 0, cut);
      this.blocks[0] = this.blocks[0]!.slice(cut);
      this.blockStarts[0] = offset;
    }
  }

  /** Text between two absolute offsets (clamped to what is held). */
  slice(from: number, to: number = this.end): TranscriptSlice {
    const start = Math.max(from, this.start);
    const stop = Math.max(start, Math.min(to, this.end));
    const parts: string[] = [];
    for (let i = this.blockAt(start); i < this.blocks.length && this.blockStarts[i]! < stop; i++) {
      const blockStart = this.blockStarts[i]!;
      parts.push(this.blocks[i]!.slice(Math.max(0, start - blockStart), stop - blockStart));
    }
    return { text: parts.join(""), start, firstLine: this.lineAt(start), droppedBefore: Math.max(0, this.start - from) };
  }

  /** Index of the block holding an absolute offset (the first block when before it). */
  private blockAt(offset: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.blockStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** 1-based line number containing an absolute offset (clamped to what is held). */
  lineAt(offset: number): number {
    if (this.blocks.length === 0) return this.lineCount;
    const at = Math.min(Math.max(offset, this.start), this.end);
    const i = this.blockAt(at);
    return this.blockNewlines[i]! + countNewlines(this.blocks[i]!, 0, at - this.blockStarts[i]!) + 1;
  }

  /** Absolute offset where a 1-based line starts (clamped to what is held). */
  lineStart(line: number): number {
    if (line <= this.firstHeldLine) return this.start;
    if (line > this.lineCount) return this.end;
    // Line n starts just past the (n-1)th newline: find its block, then count within it.
    const newline = line - 1;
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.blockNewlines[mid]! < newline) lo = mid;
      else hi = mid - 1;
    }
    const block = this.blocks[lo]!;
    let at = -1;
    for (let k = this.blockNewlines[lo]!; k < newline; k++) at = block.indexOf("\n", at + 1);
    return this.blockStarts[lo]! + at + 1;
  }

  /** Lines from..to inclusive, 1-based. */
  lines(from: number, to: number): TranscriptSlice {
    const slice = this.slice(this.lineStart(from), to >= this.lineCount ? this.end : this.lineStart(to + 1));
    // The slice ends with the newline that closes line `to`; that newline is not a line of its own.
    if (slice.text.endsWith("\n") && to < this.lineCount) slice.text = slice.text.slice(0, -1);
    return { ...slice, droppedBefore: from < this.firstHeldLine ? this.firstHeldLine - from : 0 };
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let nl = text.indexOf("\n", from); nl !== -1 && nl < to; nl = text.indexOf("\n", nl + 1)) count++;
  return count;
}
