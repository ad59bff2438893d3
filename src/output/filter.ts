import type { Line } from "./line.js";
import { SYNC_MATCH_STEPS } from "../util/regex.js";
import { hiddenMarker, type FetchTarget } from "./markers.js";

export interface Filtered {
  lines: Line[];
  /** Source lines left out between matches. */
  hidden: number;
}

/**
 * Keeps lines matching `pattern` plus `context` lines either side; every gap becomes one
 * marker with the call that returns it, so nothing is silently dropped.
 */
/** What a filter needs of a regex: a stateless test per line (termhive's SafeRegex; a RegExp without g/y). */
export interface LineMatcher {
  test(text: string): boolean;
  toString(): string;
  /** SafeRegex: what one line costs in place, and a match that may run off the event loop. */
  cost?(text: string): number;
  testAsync?(text: string): Promise<boolean>;
}

/** Steps of matching between two returns to the event loop: the in-place bound of one match. */
const SLICE_STEPS = SYNC_MATCH_STEPS;

/**
 * Which lines match, in slices: the event loop is given back after every SLICE_STEPS of
 * estimated work, and a line too costly for one slice is matched off the event loop, so a
 * costly pattern over many or long lines never holds other clients for long.
 */
export async function matchLinesSliced(lines: readonly Line[], pattern: LineMatcher): Promise<boolean[]> {
  const matched: boolean[] = [];
  let spent = 0;
  for (const line of lines) {
    const cost = pattern.cost?.(line.text) ?? 0;
    if (pattern.testAsync && cost > SLICE_STEPS) {
      matched.push(await pattern.testAsync(line.text));
      continue;
    }
    if (spent + cost > SLICE_STEPS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      spent = 0;
    }
    spent += cost;
    matched.push(pattern.test(line.text));
  }
  return matched;
}

/** `matched`: the lines' answers from matchLinesSliced, when the caller could wait for them. */
export function filterLines(lines: readonly Line[], pattern: LineMatcher, context: number, target: FetchTarget, matched?: readonly boolean[]): Filtered {
  // A global or sticky RegExp carries lastIndex between test() calls and would skip matches.
  const matcher = pattern instanceof RegExp && (pattern.global || pattern.sticky) ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "")) : pattern;
  const around = Math.max(0, Math.floor(context));
  const keep = new Uint8Array(lines.length);
  let matches = 0;
  lines.forEach((line, index) => {
    if (!(matched ? matched[index] : matcher.test(line.text))) return;
    matches++;
    for (let k = Math.max(0, index - around); k <= Math.min(lines.length - 1, index + around); k++) keep[k] = 1;
  });
  if (lines.length === 0) return { lines: [], hidden: 0 };
  if (matches === 0) {
    const first = lines[0]!.from;
    const last = lines[lines.length - 1]!.to;
    const text = `no line matches ${String(pattern)}; ${hiddenMarker(target, last - first + 1, first, last)}`;
    return { lines: [{ text, from: first, to: last }], hidden: last - first + 1 };
  }
  const out: Line[] = [];
  let hidden = 0;
  for (let i = 0; i < lines.length; ) {
    if (keep[i]) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    let from = lines[i]!.from;
    let to = lines[i]!.to;
    for (; j < lines.length && !keep[j]; j++) {
      from = Math.min(from, lines[j]!.from);
      to = Math.max(to, lines[j]!.to);
    }
    hidden += to - from + 1;
    out.push({ text: hiddenMarker(target, to - from + 1, from, to), from, to });
    i = j;
  }
  return { lines: out, hidden };
}

/**
 * A filter's kept lines as the program wrote them, for a raw read: a pattern is matched against
 * each line as a terminal shows it (escape codes would split a word, and `^` would meet a colour
 * code), and each line kept, a match or its context, comes back as the source lines it stands
 * for, escape codes and all. Markers stay as they are; a source line two cleaned lines share is
 * given once.
 */
export function sourceOfKept(kept: readonly Line[], cleaned: ReadonlySet<Line>, source: readonly string[]): Line[] {
  const out: Line[] = [];
  let next = 0;
  for (const line of kept) {
    if (!cleaned.has(line)) {
      out.push(line);
      next = Math.max(next, line.to + 1);
      continue;
    }
    for (let k = Math.max(line.from, next); k <= line.to; k++) out.push({ text: source[k] ?? "", from: k, to: k });
    next = Math.max(next, line.to + 1);
  }
  return out;
}
