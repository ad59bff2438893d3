// Everything a session's program printed, as decoded text with absolute offsets and line
// numbers, bounded in memory: past the cap the oldest text is dropped and reads say so
// (the session's asciinema recording keeps the whole output on disk).

export interface TranscriptSlice {
  text: string;
  /** Absolute offset of text[0]. */
  start: number;
  /** Absolute 1-based line number of the first line in text. */
  firstLine: number;
  /** What was asked for but already dropped: characters for slice(), lines for lines(). */
  droppedBefore: number;
}

export class Transcript {
  private chunks: string[] = [];
  /** Absolute offset of chunks[0][0]. */
  private base = 0;
  private length = 0;
  /** Absolute offsets where each line starts; lineStarts[k] is line (droppedLines + k + 1). */
  private lineStarts: number[] = [0];
  private droppedLines = 0;

  constructor(private readonly maxChars: number) {}

  /** Absolute offset just past the last character. */
  get end(): number {
    return this.base + this.length;
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
    const offset = this.end;
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      this.lineStarts.push(offset + nl + 1);
      nl = text.indexOf("\n", nl + 1);
    }
    this.chunks.push(text);
    this.length += text.length;
    if (this.chunks.length > 4096) this.chunks = [this.chunks.join("")];
    if (this.length > this.maxChars) this.dropOldest(this.length - this.maxChars);
  }

  private dropOldest(count: number): void {
    const all = this.chunks.join("");
    this.chunks = [all.slice(count)];
    this.base += count;
    this.length -= count;
    // Drop whole lines only, so line k always starts where it says.
    let k = 0;
    while (k + 1 < this.lineStarts.length && this.lineStarts[k + 1]! <= this.base) k++;
    if (k > 0) {
      this.lineStarts = this.lineStarts.slice(k);
      this.droppedLines += k;
    }
  }

  /** Text between two absolute offsets (clamped to what is held). */
  slice(from: number, to: number = this.end): TranscriptSlice {
    const start = Math.max(from, this.base);
    const stop = Math.max(start, Math.min(to, this.end));
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    const text = (this.chunks[0] ?? "").slice(start - this.base, stop - this.base);
    return { text, start, firstLine: this.lineAt(start), droppedBefore: Math.max(0, this.base - from) };
  }

  /** 1-based line number containing an absolute offset. */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.droppedLines + lo + 1;
  }

  /** Absolute offset where a 1-based line starts (clamped to what is held). */
  lineStart(line: number): number {
    const k = line - this.droppedLines - 1;
    if (k < 0) return this.base;
    if (k >= this.lineStarts.length) return this.end;
    return Math.max(this.base, this.lineStarts[k]!);
  }

  /** Lines from..to inclusive, 1-based. */
  lines(from: number, to: number): TranscriptSlice {
    const slice = this.slice(this.lineStart(from), to >= this.lineCount ? this.end : this.lineStart(to + 1));
    // The slice ends with the newline that closes line `to`; that newline is not a line of its own.
    if (slice.text.endsWith("\n") && to < this.lineCount) slice.text = slice.text.slice(0, -1);
    return { ...slice, droppedBefore: from < this.firstHeldLine ? this.firstHeldLine - from : 0 };
  }
}
