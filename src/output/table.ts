import type { Line } from "./line.js";

/**
 * Lines as one string plus offsets, rather than an object and a string per line: a
 * 200k-line flood is folded down to ~50 lines, so only those are ever cut out as
 * strings. Holding 200k small objects at once is what made the server's heap (and so its
 * resident memory) grow by tens of MB per flood.
 *
 * `text` is the lines joined with "\n"; line i is text[starts[i] .. next start - 1), and
 * stands for source lines froms[i]..tos[i] (see line.ts).
 */
export class LineTable {
  constructor(
    readonly text: string,
    private readonly starts: Int32Array,
    private readonly froms: Int32Array,
    private readonly tos: Int32Array,
    readonly length: number,
  ) {}

  static fromLines(lines: readonly Line[]): LineTable {
    const starts = new Int32Array(lines.length);
    const froms = new Int32Array(lines.length);
    const tos = new Int32Array(lines.length);
    let offset = 0;
    lines.forEach((line, i) => {
      starts[i] = offset;
      froms[i] = line.from;
      tos[i] = line.to;
      offset += line.text.length + 1;
    });
    return new LineTable(lines.map((line) => line.text).join("\n"), starts, froms, tos, lines.length);
  }

  /** Text untouched, one line per "\n"-separated piece (raw mode). */
  static split(text: string): LineTable {
    let count = 1;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) count++;
    const starts = new Int32Array(count);
    const indexes = new Int32Array(count);
    let line = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) starts[++line] = nl + 1;
    for (let i = 0; i < count; i++) indexes[i] = i;
    return new LineTable(text, starts, indexes, indexes, count);
  }

  lineStart(i: number): number {
    return this.starts[i]!;
  }

  /** Offset just past line i (where its "\n" is, or the end of the text). */
  lineEnd(i: number): number {
    return i + 1 < this.length ? this.starts[i + 1]! - 1 : this.text.length;
  }

  lineText(i: number): string {
    return this.text.slice(this.lineStart(i), this.lineEnd(i));
  }

  from(i: number): number {
    return this.froms[i]!;
  }

  to(i: number): number {
    return this.tos[i]!;
  }

  line(i: number): Line {
    return { text: this.lineText(i), from: this.from(i), to: this.to(i) };
  }

  toLines(): Line[] {
    return Array.from({ length: this.length }, (_, i) => this.line(i));
  }

  /**
   * The first and last `edge` lines (all of them when there are few): what a reducer's
   * shape check may look at (see reducers/types.ts), without materialising the rest.
   */
  edges(edge: number): Line[] {
    if (this.length <= 2 * edge) return this.toLines();
    const head = Array.from({ length: edge }, (_, i) => this.line(i));
    const tail = Array.from({ length: edge }, (_, i) => this.line(this.length - edge + i));
    return [...head, ...tail];
  }
}
