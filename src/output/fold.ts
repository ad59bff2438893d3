import type { Line } from "./line.js";
import { importantLineIndexes } from "./important.js";
import { hiddenMarker, type FetchTarget } from "./markers.js";
import { cutOverlong } from "./overlong.js";
import { countTokens, fitsTokens } from "./tokens.js";

export interface FoldOptions extends FetchTarget {
  maxTokens: number;
  /** Lines kept from the start / end when folding (the "about 20 and 30"). */
  headLines?: number;
  tailLines?: number;
  /** Most important middle lines kept; the rest are counted in the markers. */
  maxImportant?: number;
}

export interface Folded {
  lines: string[];
  /** Source lines hidden behind markers (0 when the output came back whole). */
  hidden: number;
}

const HEAD = 20;
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
  if (fitsWhole(lines, options.maxTokens)) return { lines: lines.map((line) => line.text), hidden: 0 };
  let head = options.headLines ?? HEAD;
  let tail = options.tailLines ?? TAIL;
  let cap = options.maxImportant ?? IMPORTANT_CAP;
  const important = importantLineIndexes(
    lines.map((line) => line.text),
    0,
    lines.length,
  );
  let maxChars: number | undefined;
  for (;;) {
    const folded = foldWith(lines, options, head, tail, important, cap, maxChars);
    const small = head <= 1 && tail <= 1 && cap === 0;
    if (small || countTokens(folded.lines.join("\n")) <= options.maxTokens) return folded;
    cap = Math.floor(cap / 2);
    head = Math.max(1, Math.floor(head / 2));
    tail = Math.max(1, Math.floor(tail / 2));
    maxChars = Math.max(60, Math.floor((maxChars ?? 400) / 2));
  }
}

// Decides "fits" without joining or counting a huge text: a prefix of ~12 characters per
// budgeted token that is already over budget settles it; only suspiciously compressible
// text is counted in full.
function fitsWhole(lines: readonly Line[], maxTokens: number): boolean {
  const prefixChars = maxTokens * 12;
  const prefix: string[] = [];
  let chars = 0;
  for (const line of lines) {
    prefix.push(line.text);
    chars += line.text.length + 1;
    if (chars > prefixChars) break;
  }
  if (!fitsTokens(prefix.join("\n"), maxTokens)) return false;
  return prefix.length === lines.length || fitsTokens(lines.map((line) => line.text).join("\n"), maxTokens);
}

function foldWith(
  lines: readonly Line[],
  target: FetchTarget,
  head: number,
  tail: number,
  important: readonly number[],
  cap: number,
  maxChars: number | undefined,
): Folded {
  // Important lines inside the head/tail windows are kept anyway; the cap is for the middle.
  const middle = important.filter((index) => index >= head && index < lines.length - tail);
  const keep = new Set<number>(middle.slice(0, cap));
  let nextImportant = 0;
  for (let i = 0; i < Math.min(head, lines.length); i++) keep.add(i);
  for (let i = Math.max(0, lines.length - tail); i < lines.length; i++) keep.add(i);
  const out: string[] = [];
  let hidden = 0;
  for (let i = 0; i < lines.length; ) {
    if (keep.has(i)) {
      out.push(cutOverlong(lines[i]!.text, maxChars));
      i++;
      continue;
    }
    let from = lines[i]!.from;
    let to = lines[i]!.to;
    let j = i;
    for (; j < lines.length && !keep.has(j); j++) {
      from = Math.min(from, lines[j]!.from);
      to = Math.max(to, lines[j]!.to);
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
