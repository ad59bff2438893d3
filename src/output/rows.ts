/**
 * The rows of a replayed terminal (screen.ts) while they are drawn. Most rows are a line
 * printed once and left alone, so a row is a span of the source text — four integers, no
 * string — until something (a carriage return, an escape code, a cursor move) draws over
 * it; from then on it holds a string of its own.
 *
 * from/to are the source lines the row stands for (see line.ts).
 */
export class Rows {
  count = 0;
  start: Int32Array;
  end: Int32Array;
  from: Int32Array;
  to: Int32Array;
  /** Index into `drawn` of a row's own text; -1 while the row is a span of the source. */
  private drawnIndex: Int32Array;
  private readonly drawn: string[] = [];

  constructor(
    readonly source: string,
    capacity: number,
  ) {
    const size = Math.max(16, capacity);
    this.start = new Int32Array(size);
    this.end = new Int32Array(size);
    this.from = new Int32Array(size);
    this.to = new Int32Array(size);
    this.drawnIndex = new Int32Array(size);
  }

  /** Adds an empty row standing for source line `index`. */
  add(index: number): void {
    if (this.count === this.start.length) this.grow();
    const row = this.count++;
    this.start[row] = 0;
    this.end[row] = 0;
    this.from[row] = index;
    this.to[row] = index;
    this.drawnIndex[row] = -1;
  }

  /** Source line `index` drew on this row too. */
  touch(row: number, index: number): void {
    if (index > this.to[row]!) this.to[row] = index;
  }

  isSpan(row: number): boolean {
    return this.drawnIndex[row] === -1;
  }

  textLength(row: number): number {
    const drawn = this.drawnIndex[row]!;
    return drawn === -1 ? this.end[row]! - this.start[row]! : this.drawn[drawn]!.length;
  }

  charCodeAt(row: number, offset: number): number {
    const drawn = this.drawnIndex[row]!;
    return drawn === -1 ? this.source.charCodeAt(this.start[row]! + offset) : this.drawn[drawn]!.charCodeAt(offset);
  }

  text(row: number): string {
    const drawn = this.drawnIndex[row]!;
    return drawn === -1 ? this.source.slice(this.start[row]!, this.end[row]!) : this.drawn[drawn]!;
  }

  setSpan(row: number, start: number, end: number): void {
    this.start[row] = start;
    this.end[row] = end;
    this.drawnIndex[row] = -1;
  }

  setText(row: number, text: string): void {
    const drawn = this.drawnIndex[row]!;
    if (drawn !== -1) {
      this.drawn[drawn] = text;
    } else {
      this.drawnIndex[row] = this.drawn.length;
      this.drawn.push(text);
    }
  }

  /** True when two rows read the same, compared in place. */
  same(a: number, b: number): boolean {
    const length = this.textLength(a);
    if (length !== this.textLength(b)) return false;
    if (!this.isSpan(a) || !this.isSpan(b)) return this.text(a) === this.text(b);
    const source = this.source;
    const startA = this.start[a]!;
    const startB = this.start[b]!;
    if (startA === startB) return true;
    // From the end: neighbouring rows of counters and numbered lists differ there.
    for (let i = length - 1; i >= 0; i--) if (source.charCodeAt(startA + i) !== source.charCodeAt(startB + i)) return false;
    return true;
  }

  private grow(): void {
    const size = this.start.length * 2;
    const grown = (old: Int32Array): Int32Array => {
      const copy = new Int32Array(size);
      copy.set(old);
      return copy;
    };
    this.start = grown(this.start);
    this.end = grown(this.end);
    this.from = grown(this.from);
    this.to = grown(this.to);
    this.drawnIndex = grown(this.drawnIndex);
  }
}
