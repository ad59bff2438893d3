// Everything a session's program printed, as decoded text with absolute offsets and line
// numbers, bounded in memory: past the cap the oldest text is dropped and reads say so
// (the session's asciinema recording keeps the whole output on disk).
//
// Text is held in blocks of about BLOCK characters, so appending, dropping the oldest text
// and cutting a range each touch only the blocks involved — a flood of output costs time
// in proportion to its size, never to the size of what is already held.

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

export class Transcript {
  private blocks: string[] = [];
  /** Absolute offset where each block starts. */
  private blockStarts: number[] = [];
  /** Absolute offset of the oldest character held. */
  private base = 0;
  private total = 0;
  /** Absolute offsets where lines start; lineStarts[lineHead + k] is line (droppedLines + k + 1). */
  private lineStarts: number[] = [0];
  private lineHead = 0;
  private droppedLines = 0;

  constructor(private readonly maxChars: number) {}

  /** Absolute offset just past the last character. */
  get end(): number {
    return this.total;
  }

  /** Absolute offset of the oldest character still held. */
  get start(): number {
    return this.base;
  }

  /** Number of the last line (the one being written). */
  get lineCount(): number {
    return this.droppedLines + this.lineStarts.length - this.lineHead;
  }

  get firstHeldLine(): number {
    return this.droppedLines + 1;
  }

  append(text: string): void {
    if (!text) return;
    const offset = this.total;
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      this.lineStarts.push(offset + nl + 1);
      nl = text.indexOf("\n", nl + 1);
    }
    const last = this.blocks.length - 1;
    if (last >= 0 && this.blocks[last]!.length + text.length <= BLOCK) {
      this.blocks[last] += text;
    } else {
      this.blocks.push(text);
      this.blockStarts.push(offset);
    }
    this.total += text.length;
    if (this.total - this.base > this.maxChars) this.dropBefore(this.total - this.maxChars);
  }

  /** Drops whole blocks (and the lines in them) that end before `offset`. */
  private dropBefore(offset: number): void {
    while (this.blocks.length > 1 && this.blockStarts[1]! <= offset) {
      this.blocks.shift();
      this.blockStarts.shift();
    }
    if (this.blocks.length === 1 && this.blockStarts[0]! < offset) {
      // One huge block (a single enormous append): cut inside it.
      const cut = offset - this.blockStarts[0]!;
      this.blocks[0] = this.blocks[0]!.slice(cut);
      this.blockStarts[0] = offset;
    }
    this.base = this.blockStarts[0] ?? this.total;
    // Drop whole lines only, so line k always starts where it says.
    while (this.lineHead + 1 < this.lineStarts.length && this.lineStarts[this.lineHead + 1]! <= this.base) {
      this.lineHead++;
      this.droppedLines++;
    }
    if (this.lineHead > 65536 && this.lineHead * 2 > this.lineStarts.length) {
      this.lineStarts = this.lineStarts.slice(this.lineHead);
      this.lineHead = 0;
    }
  }

  /** Text between two absolute offsets (clamped to what is held). */
  slice(from: number, to: number = this.end): TranscriptSlice {
    const start = Math.max(from, this.base);
    const stop = Math.max(start, Math.min(to, this.end));
    const parts: string[] = [];
    for (let i = this.blockAt(start); i < this.blocks.length && this.blockStarts[i]! < stop; i++) {
      const blockStart = this.blockStarts[i]!;
      parts.push(this.blocks[i]!.slice(Math.max(0, start - blockStart), stop - blockStart));
    }
    return { text: parts.join(""), start, firstLine: this.lineAt(start), droppedBefore: Math.max(0, this.base - from) };
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

  /** 1-based line number containing an absolute offset. */
  lineAt(offset: number): number {
    let lo = this.lineHead;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.droppedLines + (lo - this.lineHead) + 1;
  }

  /** Absolute offset where a 1-based line starts (clamped to what is held). */
  lineStart(line: number): number {
    const k = line - this.droppedLines - 1;
    if (k < 0) return this.base;
    if (this.lineHead + k >= this.lineStarts.length) return this.end;
    return Math.max(this.base, this.lineStarts[this.lineHead + k]!);
  }

  /** Lines from..to inclusive, 1-based. */
  lines(from: number, to: number): TranscriptSlice {
    const slice = this.slice(this.lineStart(from), to >= this.lineCount ? this.end : this.lineStart(to + 1));
    // The slice ends with the newline that closes line `to`; that newline is not a line of its own.
    if (slice.text.endsWith("\n") && to < this.lineCount) slice.text = slice.text.slice(0, -1);
    return { ...slice, droppedBefore: from < this.firstHeldLine ? this.firstHeldLine - from : 0 };
  }
}
