/**
 * A line of cleaned output that remembers where it came from.
 * `from`/`to` are 0-based indices into the input text split on "\n"; a line can span
 * several source lines (a collapsed run, a row rewritten after cursor-up), so both ends
 * are kept. Fold markers turn them into absolute transcript line numbers.
 */
export interface Line {
  text: string;
  from: number;
  to: number;
}

