// A filter over more text than is rendered at once: the text is fed in parts of whole lines,
// each cleaned and matched on its own, and only the matching lines (with their context) are
// kept, so a search over a 16 MB transcript never holds it all as lines. The lines between
// what is kept become the usual markers with the call that returns them.
import { cleanLines } from "./clean.js";
import { matchLinesSliced, type LineMatcher } from "./filter.js";
import type { Line } from "./line.js";
import { hiddenMarker, type FetchTarget } from "./markers.js";
import { maskSecrets } from "./secrets.js";

/** Kept lines beyond this many characters are thinned from the middle (the fold shows a head and a tail anyway). */
const MAX_KEPT_CHARS = 1_000_000;
/** Matches kept from the start however many follow. */
const KEPT_HEAD_LINES = 200;

/** A cleaned line, with (raw scans) the part's source lines and where its own start there. */
interface ScannedLine extends Line {
  source?: readonly string[];
  local?: number;
}

export class FilterScan {
  private readonly kept: Line[] = [];
  private keptChars = 0;
  /** Unmatched lines just before the next part, for a match's leading context. */
  private before: ScannedLine[] = [];
  /** Lines still owed to the last match's trailing context. */
  private after = 0;
  /** Index of the last line fed (-1: none yet). */
  lastIndex = -1;
  matches = 0;

  /** Source lines already kept (raw scans): one two cleaned lines share is kept once. */
  private nextSource = 0;

  /** `raw`: lines are matched as shown but kept as the program wrote them, escape codes and all. */
  constructor(
    private readonly pattern: LineMatcher,
    private readonly context: number,
    private readonly secrets: readonly string[] = [],
    private readonly raw = false,
  ) {}

  /** One part of whole lines; `offset`: the index of its first line from the scan's first line. */
  async add(text: string, offset: number): Promise<void> {
    // A raw scan's lines point into their part's source lines: a context line may be kept
    // after the next part came in.
    const source = this.raw ? text.split("\n") : undefined;
    // Masked before matching, as a whole render does: a pattern must not find a secret's text.
    const lines: ScannedLine[] = cleanLines(text).map((line) => ({
      text: maskSecrets(line.text, this.secrets),
      from: line.from + offset,
      to: line.to + offset,
      ...(source ? { source, local: line.from } : {}),
    }));
    const matched = await matchLinesSliced(lines, this.pattern);
    lines.forEach((line, i) => {
      if (matched[i]) {
        this.matches++;
        for (const waiting of this.before) this.keep(waiting);
        this.before = [];
        this.keep(line);
        this.after = this.context;
      } else if (this.after > 0) {
        this.after--;
        this.keep(line);
      } else if (this.context > 0) {
        this.before.push(line);
        if (this.before.length > this.context) this.before.shift();
      }
    });
    if (lines.length) this.lastIndex = Math.max(this.lastIndex, lines[lines.length - 1]!.to);
  }

  private keep(line: ScannedLine): void {
    if (line.source) {
      for (let k = Math.max(line.from, this.nextSource); k <= line.to; k++) this.keepOne({ text: maskSecrets(line.source[line.local! + k - line.from] ?? "", this.secrets), from: k, to: k });
      this.nextSource = Math.max(this.nextSource, line.to + 1);
    } else this.keepOne({ text: line.text, from: line.from, to: line.to });
  }

  private keepOne(line: Line): void {
    this.kept.push(line);
    this.keptChars += line.text.length + 1;
    if (this.keptChars > MAX_KEPT_CHARS && this.kept.length > KEPT_HEAD_LINES * 2) {
      // A quarter of the middle at once: dropping one line per keep would be quadratic.
      const removed = this.kept.splice(KEPT_HEAD_LINES, Math.floor((this.kept.length - KEPT_HEAD_LINES) / 4));
      for (const line of removed) this.keptChars -= line.text.length + 1;
    }
  }

  /** The kept lines, every gap (and a thinned middle) as one marker; the count of lines hidden. */
  finish(target: FetchTarget): { lines: Line[]; hidden: number } {
    if (this.lastIndex < 0) return { lines: [], hidden: 0 };
    if (this.matches === 0) {
      const text = `no line matches ${String(this.pattern)}; ${hiddenMarker(target, this.lastIndex + 1, 0, this.lastIndex)}`;
      return { lines: [{ text, from: 0, to: this.lastIndex }], hidden: this.lastIndex + 1 };
    }
    const out: Line[] = [];
    let hidden = 0;
    let next = 0;
    const gapTo = (end: number): void => {
      if (end < next) return;
      hidden += end - next + 1;
      out.push({ text: hiddenMarker(target, end - next + 1, next, end), from: next, to: end });
    };
    for (const line of this.kept) {
      gapTo(line.from - 1);
      out.push(line);
      next = line.to + 1;
    }
    gapTo(this.lastIndex);
    return { lines: out, hidden };
  }
}
