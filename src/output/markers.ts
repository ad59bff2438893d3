/**
 * The exact text a model sees wherever something was left out: how many lines, and the
 * terminal_read call that returns them. One format for fold, filter and reducers, so a
 * model learns it once.
 */
export interface FetchTarget {
  session: string;
  /** Absolute 1-based transcript line number of the input's first line. */
  firstLine: number;
}

export function fetchCall(target: FetchTarget, fromIndex: number, toIndex: number): string {
  const args = {
    session: target.session,
    mode: "lines",
    from_line: target.firstLine + fromIndex,
    to_line: target.firstLine + toIndex,
  };
  return `terminal_read ${JSON.stringify(args)}`;
}

export function hiddenMarker(target: FetchTarget, count: number, fromIndex: number, toIndex: number, what = "lines hidden"): string {
  return `… ${count} ${what}: ${fetchCall(target, fromIndex, toIndex)}`;
}
