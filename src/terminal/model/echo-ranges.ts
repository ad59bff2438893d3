// Which parts of a session's transcript are the echo of input, not what its program printed:
// an integrated shell's input line (from OSC 133 B, where it starts reading, to C, where the
// command's output starts — its echo, redraws and paste highlighting all lie between), and
// the characters a program echoed of text termhive typed into it (typed-echo.ts finds them).
// A program can print while the shell reads (a background job): lines that stand on the
// input line before anyone typed on it are output, so the open range starts again past them.
// Patterns, watchers and questions are matched against the transcript without these ranges.

/** Ranges kept at most; past it the oldest are forgotten (their text is long gone from reads). */
const MAX_RANGES = 4096;

export class EchoRanges {
  /** Closed ranges, in order, not overlapping: [start, end) transcript offsets. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Where the input line being read now began (B seen, no C yet). */
  private openStart: number | null = null;

  /** The shell began reading a line at `offset`. */
  open(offset: number): void {
    if (this.openStart === null) this.openStart = offset;
  }

  /** The line being read ended at `offset` (its command started, or the shell gave it up). */
  close(offset: number): void {
    if (this.openStart === null) return;
    const start = this.openStart;
    this.openStart = null;
    this.add(start, offset);
  }

  get reading(): boolean {
    return this.openStart !== null;
  }

  /** Where the line being read begins (its echo from here on), null when none is read. */
  get openAt(): number | null {
    return this.openStart;
  }

  /** What the line being read shows before `offset` was printed there, not typed: not echo. */
  advance(offset: number): void {
    if (this.openStart !== null && offset > this.openStart) this.openStart = offset;
  }

  /** Marks [start, end) as echo; touching or overlapping the last range, it grows that one. */
  add(start: number, end: number): void {
    if (end <= start) return;
    const last = this.ends.length - 1;
    if (last >= 0 && start <= this.ends[last]! && start >= this.starts[last]!) {
      this.ends[last] = Math.max(this.ends[last]!, end);
      return;
    }
    this.starts.push(start);
    this.ends.push(end);
    if (this.starts.length > MAX_RANGES) {
      this.starts.shift();
      this.ends.shift();
    }
  }

  /**
   * `text` (the transcript from offset `base`) without the echo in it. A range's line breaks
   * stay, so what the program printed keeps its lines (the output after a command line starts
   * a line of its own, as it does on screen).
   */
  cut(text: string, base: number): string {
    const end = base + text.length;
    const ranges: [number, number][] = [];
    for (let i = this.firstEndingAfter(base); i < this.starts.length && this.starts[i]! < end; i++) ranges.push([this.starts[i]!, this.ends[i]!]);
    if (this.openStart !== null && this.openStart < end) ranges.push([this.openStart, end]);
    if (ranges.length === 0) return text;
    const parts: string[] = [];
    let at = base;
    for (const [start, stop] of ranges) {
      const from = Math.max(start, base);
      if (from > at) parts.push(text.slice(at - base, from - base));
      const to = Math.min(stop, end);
      if (to > at) parts.push(lineBreaks(text.slice(Math.max(from, at) - base, to - base)));
      at = Math.max(at, to);
    }
    if (at < end) parts.push(text.slice(at - base));
    return parts.join("");
  }

  /** Index of the first range that ends after `offset` (binary search: ranges are in order). */
  private firstEndingAfter(offset: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function lineBreaks(text: string): string {
  let out = "";
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) out += "\n";
  return out;
}
