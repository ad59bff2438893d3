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
  /** Where each held line starts; lineStarts.at(k) is line (droppedLines + k + 1). */
  private readonly lineStarts = new LineStarts();
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
    return this.droppedLines + this.lineStarts.length;
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
    this.droppedLines += this.lineStarts.dropThrough(this.base);
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
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts.at(mid) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.droppedLines + lo + 1;
  }

  /** Absolute offset where a 1-based line starts (clamped to what is held). */
  lineStart(line: number): number {
    const k = line - this.droppedLines - 1;
    if (k < 0) return this.base;
    if (k >= this.lineStarts.length) return this.end;
    return Math.max(this.base, this.lineStarts.at(k));
  }

  /** Lines from..to inclusive, 1-based. */
  lines(from: number, to: number): TranscriptSlice {
    const slice = this.slice(this.lineStart(from), to >= this.lineCount ? this.end : this.lineStart(to + 1));
    // The slice ends with the newline that closes line `to`; that newline is not a line of its own.
    if (slice.text.endsWith("\n") && to < this.lineCount) slice.text = slice.text.slice(0, -1);
    return { ...slice, droppedBefore: from < this.firstHeldLine ? this.firstHeldLine - from : 0 };
  }
}

/**
 * Line start offsets in a typed array rather than a number[]: a flood of a million lines
 * grew the array by copying (~30 MB allocated for an 8 MB result) inside the JavaScript
 * heap; here it is 4 bytes a line outside it. Values are stored relative to `origin`,
 * which moves up when dropped entries are cleared away.
 */
class LineStarts {
  private starts = new Uint32Array(4096);
  /** Index of the first held entry; entries before it are dropped lines not yet cleared. */
  private head = 0;
  private size = 0;
  private origin = 0;

  constructor() {
    this.push(0);
  }

  get length(): number {
    return this.size - this.head;
  }

  at(k: number): number {
    return this.origin + this.starts[this.head + k]!;
  }

  push(offset: number): void {
    if (this.size === this.starts.length || offset - this.origin > 0xffff_ffff) this.compact();
    this.starts[this.size++] = offset - this.origin;
  }

  /**
   * Drops the lines that end at or before `offset` (the oldest held character), keeping at
   * least one; returns how many. The first held line may have started before `offset`:
   * it is recorded as starting there, which readers clamp to anyway, so that what is held
   * spans no more than the held text (< 2^32 characters, see config.ts's cap).
   */
  dropThrough(offset: number): number {
    const before = this.head;
    while (this.head + 1 < this.size && this.at(1) <= offset) this.head++;
    if (this.at(0) < offset) this.starts[this.head] = offset - this.origin;
    return this.head - before;
  }

  private compact(): void {
    const held = this.length;
    const origin = this.at(0);
    const target = held * 2 > this.starts.length ? new Uint32Array(this.starts.length * 2) : this.starts;
    for (let k = 0; k < held; k++) target[k] = this.starts[this.head + k]! - (origin - this.origin);
    this.starts = target;
    this.head = 0;
    this.size = held;
    this.origin = origin;
  }
}
