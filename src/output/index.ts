import { cleanTable } from "./clean.js";
import { filterLines, matchLinesSliced, sourceOfKept, type LineMatcher } from "./filter.js";
import { fitsWholeSteps, foldTable } from "./fold.js";
import type { Line } from "./line.js";
import { fetchCall, type FetchTarget } from "./markers.js";
import { selectReducer } from "./reducers/index.js";
import { SHAPE_EDGE_LINES } from "./reducers/types.js";
import { maskSecrets } from "./secrets.js";
import type { CutAt } from "./overlong.js";
import { LineTable } from "./table.js";
import { countTokens, countTokensBoundedSteps, fitsTokens, STEP } from "./tokens.js";

export { cleanLines } from "./clean.js";
export { countTokens, countTokensBounded } from "./tokens.js";
export { FilterScan } from "./filter-scan.js";
export { REDUCERS, selectReducer } from "./reducers/index.js";
export type { Line } from "./line.js";

export const DEFAULT_MAX_TOKENS = 2000;

export interface RenderOptions {
  /** Command line that produced the text, when known (selects a reducer). */
  command?: string;
  /** Fold budget; default 2000. */
  maxTokens?: number;
  /** false: clean only, no per-command reducer. Default true. */
  reduce?: boolean;
  /** true: return the text untouched (escape codes kept), only bounded; a filter still chooses the lines. */
  raw?: boolean;
  /** Keep only lines matching this regex (already validated by the caller), with `context` lines around. */
  filter?: LineMatcher;
  context?: number;
  /** Absolute 1-based transcript line number of the text's first line (text split on "\n"). */
  firstLine: number;
  /** Session id or name, used in the fetch call written into fold markers. */
  session: string;
  /** Values that must never appear in the result. */
  secrets?: readonly string[];
  /** Lines kept from the start when folding (default 20); 0 when the caller shows the start itself. */
  headLines?: number;
  /** The text is a screen's rows (firstLine: the first row): markers name rows and a screen read. */
  screen?: FetchTarget["screen"];
}

export interface Rendered {
  text: string;
  tokens: number;
  raw_tokens: number;
  /** Lines hidden by folding or filtering (0 when the text came back whole). */
  folded_lines: number;
  /** Name of the reducer applied, if any. */
  reducer?: string;
  /** true when raw_tokens was estimated from samples (very large input or a very long word; see tokens.ts). */
  raw_tokens_estimated?: boolean;
  /** Source lines a reducer condensed away (fetchable with the call in the result's last line). */
  reduced_lines?: number;
}

/**
 * Raw pty text → what a model reads: cleaned (clean.ts), then either filtered
 * (filter.ts) or reduced by the command's reducer (reducers/), then folded to the token
 * budget (fold.ts), with caller-declared secrets masked in every line before it is folded (the
 * text as a whole is masked once more where it leaves termhive: terminal/views/render.ts textForModel).
 */
export function renderOutput(text: string, opts: RenderOptions): Rendered {
  const stages = renderStages(text, opts, false);
  for (;;) {
    const step = stages.next();
    if (step.done) return step.value;
  }
}

/** Outputs above this many characters give the event loop back between render stages. */
const YIELD_ABOVE_CHARS = 64 * 1024;

/**
 * renderOutput, giving the event loop back between its stages (count, clean, reduce and
 * fold) on a large output: each stage of 1 MB of noise costs tens of ms, and all of them in
 * one go held every other client of the process for over 100 ms.
 */
export async function renderOutputYielding(text: string, opts: RenderOptions): Promise<Rendered> {
  const stages = renderStages(text, opts, true);
  for (;;) {
    const step = stages.next();
    if (step.done) return step.value;
    if (step.value === STEP || (step.value === undefined && text.length > YIELD_ABOVE_CHARS)) await new Promise<void>((resolve) => setImmediate(resolve));
    else if (step.value) await step.value;
  }
}

/**
 * `sliced`: the driver awaits a yielded promise (a filter matched in slices, filter.ts). Token
 * counting yields STEP after every slice of its work (bpe.ts), whatever the text's length: one
 * 60 KB word is as much merging as megabytes of log lines.
 */
function* renderStages(text: string, opts: RenderOptions, sliced: boolean): Generator<Promise<unknown> | typeof STEP | void, Rendered, void> {
  const target: FetchTarget = { session: opts.session, firstLine: opts.firstLine, ...(opts.screen ? { screen: opts.screen } : {}) };
  const maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
  const raw = yield* countTokensBoundedSteps(maskSecrets(text, opts.secrets));
  yield;
  // Lines stay a table (table.ts) unless a step needs them one by one: secrets, a filter,
  // or a reducer that was chosen.
  let lines = opts.raw ? LineTable.split(text) : cleanTable(text);
  yield;
  // Masked before folding, so an overlong-line cut can never leave half a secret behind.
  if (opts.secrets?.length) {
    lines = LineTable.fromLines(lines.toLines().map((line) => ({ ...line, text: maskSecrets(line.text, opts.secrets) })));
  }

  let hidden = 0;
  let reducerName: string | undefined;
  let reducedLines: number | undefined;
  let cutAt: CutAt | undefined;
  if (opts.filter) {
    // A raw read is filtered too: matched as shown (cleaned), kept as written (sourceOfKept).
    const all = opts.raw ? cleanLinesMasked(text, opts.secrets) : lines.toLines();
    let matched: boolean[] | undefined;
    if (sliced) yield matchLinesSliced(all, opts.filter).then((m) => void (matched = m));
    const filtered = filterLines(all, opts.filter, opts.context ?? 0, target, matched);
    lines = LineTable.fromLines(opts.raw ? sourceOfKept(filtered.lines, new Set(all), lines.toLines().map((line) => line.text)) : filtered.lines);
    hidden += filtered.hidden;
  } else if (!opts.raw && opts.reduce !== false) {
    const reduced = reduceLines(lines, opts.command, target);
    if (reduced) {
      lines = LineTable.fromLines(reduced.lines);
      reducerName = reduced.name;
      reducedLines = reduced.condensed;
      if (reduced.cutsAtEnd) cutAt = "end";
    }
  }

  yield;
  const fits = yield* fitsWholeSteps(lines, maxTokens);
  const folded = foldTable(lines, { ...target, maxTokens, headLines: opts.headLines, fits, cutAt });
  hidden += folded.hidden;
  // Every line was masked before folding (above); the text as a whole is masked at the edge (terminal/views/render.ts textForModel).
  const out = folded.text;
  const result: Rendered = { text: out, tokens: countTokens(out), raw_tokens: raw.count, folded_lines: hidden };
  if (reducerName) result.reducer = reducerName;
  if (reducedLines) result.reduced_lines = reducedLines;
  if (raw.estimated) result.raw_tokens_estimated = true;
  return result;
}

function cleanLinesMasked(text: string, secrets: readonly string[] | undefined): Line[] {
  return cleanTable(text).toLines().map((line) => ({ ...line, text: maskSecrets(line.text, secrets) }));
}

/** Lines already chosen (a FilterScan's, with its markers), folded to the budget as renderOutput folds. */
export function renderChosenLines(chosen: { lines: Line[]; hidden: number }, rawTokens: number, opts: RenderOptions): Rendered {
  const target: FetchTarget = { session: opts.session, firstLine: opts.firstLine };
  const folded = foldTable(LineTable.fromLines(chosen.lines), { ...target, maxTokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS, headLines: opts.headLines });
  // The chosen lines were masked one by one (filter-scan.ts); the whole text is masked at the edge.
  const text = folded.text;
  return { text, tokens: countTokens(text), raw_tokens: rawTokens, raw_tokens_estimated: true, folded_lines: chosen.hidden + folded.hidden };
}

interface Reduced {
  name: string;
  cutsAtEnd?: true;
  lines: Line[];
  condensed: number;
}

/**
 * Applies the chosen reducer, then guarantees what every reducer promises: the last
 * line of output is there, and a closing line says how much was condensed and how to
 * get all of it. A reduction that does not pay for its closing line is not used.
 */
function reduceLines(table: LineTable, command: string | undefined, target: FetchTarget): Reduced | undefined {
  if (table.length === 0) return undefined;
  const reducer = selectReducer(command, table.edges(SHAPE_EDGE_LINES));
  if (!reducer) return undefined;
  const lines = table.toLines();
  const reduced = reducer.reduce(lines, target);
  const last = lines[lines.length - 1]!;
  // A line standing for exactly the last source line is the reducer's rewrite of it (ls's
  // "name size", pytest's counts without their rule): appending it raw would say it twice.
  // A marker hiding just that line does not count.
  const rewritesLast = (line: Line): boolean => line.from === last.from && line.to === last.to && line.text.trim() !== "" && !line.text.includes("terminal_read {");
  // A block's summary (a git log commit's line) spanning the last line says it, its subject kept.
  const summarisesLast = (line: Line): boolean => reducer.summarisesBlocks === true && line.from <= last.from && line.to >= last.to && line.text.trim() !== "" && !line.text.includes("terminal_read {");
  if (!reduced.some((line) => rewritesLast(line) || summarisesLast(line) || (line.to >= last.from && line.text.includes(last.text)))) reduced.push(last);
  const first = lines[0]!.from;
  const end = last.to;
  const condensed = Math.max(0, lines.length - reduced.length);
  const closing = `[${reducer.name} reducer, ${reduced.length} of ${lines.length} lines; all: ${fetchCall(target, first, end)}]`;
  const candidate = [...reduced, { text: closing, from: first, to: end }];
  if (worthIt(table.text, candidate)) return { name: reducer.name, lines: candidate, condensed, ...(reducer.cutsAtEnd ? { cutsAtEnd: true as const } : {}) };
  return undefined;
}

// Small outputs are compared exactly; a large one is always worth reducing (the
// comparison itself would cost more than it could save).
function worthIt(beforeText: string, after: readonly Line[]): boolean {
  if (beforeText.length > 32_000) return true;
  const beforeTokens = countTokens(beforeText);
  return fitsTokens(after.map((line) => line.text).join("\n"), beforeTokens - 1);
}
