import type { Line } from "./line.js";
import { importantLineIndexes } from "./important.js";
import { LineTable } from "./table.js";
import { hiddenMarker, type FetchTarget } from "./markers.js";
import { cutOverlong, type CutAt } from "./overlong.js";
import { runSteps } from "./bpe.js";
import { countTokens, fitsTokensSteps, STEP } from "./tokens.js";

export interface FoldOptions extends FetchTarget {
  maxTokens: number;
  /** Lines kept from the start / end when folding (the "about 20 and 30"). */
  headLines?: number;
  tailLines?: number;
  /** Most important middle lines kept; the rest are counted in the markers. */
  maxImportant?: number;
  /** Whether the whole table fits maxTokens, when the caller decided it already (fitsWholeSteps). */
  fits?: boolean;
  /** Where a line over the fold's width is cut (overlong.ts); the middle by default. */
  cutAt?: CutAt;
}

export interface Folded {
  lines: string[];
  /** Source lines hidden behind markers (0 when the output came back whole). */
  hidden: number;
}

export const FOLD_HEAD_LINES = 20;
const HEAD = FOLD_HEAD_LINES;
const TAIL = 30;
const IMPORTANT_CAP = 40;

/**
 * Output that fits the budget comes back whole. Output over it is folded hard — not
 * filled up to the budget: the head, the tail, the important middle lines, and one
 * marker per hidden run with the call that fetches it. If even that is over budget
 * (long lines, a tiny budget), the kept sets shrink until it fits; the last line always
 * stays, since that is where the answer usually is.
 */
export function foldLines(lines: readonly Line[], options: FoldOptions): Folded {
  const table = LineTable.fromLines(lines);
  return fold(table, options) ?? { lines: lines.map((line) => line.text), hidden: 0 };
}

/** foldLines for a table, joined: whole output is the table's own text, never re-joined. */
export function foldTable(table: LineTable, options: FoldOptions): { text: string; hidden: number } {
  const folded = fold(table, options);
  return folded ? { text: folded.lines.join("\n"), hidden: folded.hidden } : { text: table.text, hidden: 0 };
}

/** The folded lines, or undefined when the whole table fits the budget. */
function fold(table: LineTable, options: FoldOptions): Folded | undefined {
  if (options.fits ?? runSteps(fitsWholeSteps(table, options.maxTokens))) return undefined;
  // A budget well above the default is a caller asking for more of the output: head and tail
  // grow to fill it (the default budget folds hard, to the head, tail and important lines).
  const fill = options.maxTokens > FILL_ABOVE_TOKENS ? linesFilling(table, options.maxTokens) : 0;
  let head = options.headLines ?? Math.max(HEAD, Math.floor(fill * 0.4));
  let tail = options.tailLines ?? Math.max(TAIL, Math.floor(fill * 0.6));
  let cap = options.maxImportant ?? IMPORTANT_CAP;
  const important = importantLineIndexes(table);
  let maxChars: number | undefined;
  for (;;) {
    const folded = foldWith(table, options, head, tail, important, cap, maxChars);
    const small = head <= 1 && tail <= 1 && cap === 0;
    const tokens = small ? 0 : countTokens(folded.lines.join("\n"));
    if (small || tokens <= options.maxTokens) return folded;
    // Shrunk by about how far over budget it is (halving each time left up to half the
    // budget unused: a 2000-token git log came back in ~1000, its lines cut to 60 characters).
    const shrink = Math.min(0.9, Math.max(0.5, (options.maxTokens / tokens) * 0.95));
    cap = Math.floor(cap * shrink);
    head = Math.min(head, Math.max(1, Math.floor(head * shrink)));
    tail = Math.max(1, Math.floor(tail * shrink));
    maxChars = Math.max(60, Math.floor((maxChars ?? 400) * shrink));
  }
}

/** Budgets above this fill up with output; at or below it, output is folded hard. */
const FILL_ABOVE_TOKENS = 4000;

/** How many lines of this output about fit the budget (from the tokens per line of a sample). */
function linesFilling(table: LineTable, maxTokens: number): number {
  const edge = Math.min(100, Math.floor(table.length / 2));
  const sample: string[] = [];
  // Cut as the fold cuts them: a line of 100 KB stands for 400 characters in what is shown.
  for (let i = 0; i < edge; i++) sample.push(cutOverlong(table.lineText(i)), cutOverlong(table.lineText(table.length - 1 - i)));
  const perLine = Math.max(1, countTokens(sample.join("\n")) / Math.max(1, sample.length));
  // A tenth is left for the fold markers and the important middle lines.
  return Math.floor((maxTokens * 0.9) / perLine);
}

// Decides "fits" without counting a huge text: a prefix of whole lines of ~12 characters
// per budgeted token that is already over budget settles it; only suspiciously
// compressible text is counted in full. Counting stops once over budget, so the work is
// bounded by the budget, not by the text; it yields STEP between slices of it.
export function* fitsWholeSteps(table: LineTable, maxTokens: number): Generator<typeof STEP, boolean, void> {
  const prefixChars = maxTokens * 12;
  let last = 0;
  while (last < table.length - 1 && table.lineEnd(last) + 1 <= prefixChars) last++;
  if (last === table.length - 1 || table.length === 0) return yield* fitsTokensSteps(table.text, maxTokens);
  return (yield* fitsTokensSteps(table.text.slice(0, table.lineEnd(last)), maxTokens)) && (yield* fitsTokensSteps(table.text, maxTokens));
}

function foldWith(
  table: LineTable,
  target: FetchTarget & { cutAt?: CutAt },
  head: number,
  tail: number,
  important: readonly number[],
  cap: number,
  maxChars: number | undefined,
): Folded {
  const length = table.length;
  // Important lines inside the head/tail windows are kept anyway; the cap is for the middle.
  const middle = important.filter((index) => index >= head && index < length - tail);
  const keep = new Set<number>(middle.slice(0, cap));
  let nextImportant = 0;
  for (let i = 0; i < Math.min(head, length); i++) keep.add(i);
  for (let i = Math.max(0, length - tail); i < length; i++) keep.add(i);
  const out: string[] = [];
  let hidden = 0;
  for (let i = 0; i < length; ) {
    if (keep.has(i)) {
      out.push(cutOverlong(table.lineText(i), maxChars, target.cutAt));
      i++;
      continue;
    }
    let from = table.from(i);
    let to = table.to(i);
    let j = i;
    for (; j < length && !keep.has(j); j++) {
      from = Math.min(from, table.from(j));
      to = Math.max(to, table.to(j));
    }
    let importantInRun = 0;
    while (nextImportant < important.length && important[nextImportant]! < j) {
      if (important[nextImportant]! >= i) importantInRun++;
      nextImportant++;
    }
    const count = to - from + 1;
    hidden += count;
    const what = importantInRun > 0 ? `lines hidden (${importantInRun} look important)` : "lines hidden";
    out.push(hiddenMarker(target, count, from, to, what));
    i = j;
  }
  return { lines: out, hidden };
}
