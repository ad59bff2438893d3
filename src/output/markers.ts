/**
 * The exact text a model sees wherever something was left out: how many lines, and the
 * terminal_read call that returns them. One format for fold, filter and reducers, so a
 * model learns it once.
 */
export interface FetchTarget {
  session: string;
  /** Absolute 1-based transcript line number of the input's first line (a screen's: its first row). */
  firstLine: number;
  /**
   * The input is a screen's rows, not transcript lines (a line range would return older
   * output): what is hidden is named by row, fetched by a screen read with a budget that fits it.
   */
  screen?: { maxTokens: number; /** false: the lines are not the screen's rows in order (a diff's changed rows). */ inOrder: boolean };
}

export function fetchCall(target: FetchTarget, fromIndex: number, toIndex: number): string {
  if (target.screen) return `terminal_read ${JSON.stringify({ session: target.session, mode: "screen", max_tokens: target.screen.maxTokens })}`;
  const args = {
    session: target.session,
    mode: "lines",
    from_line: target.firstLine + fromIndex,
    to_line: target.firstLine + toIndex,
  };
  return `terminal_read ${JSON.stringify(args)}`;
}

export function hiddenMarker(target: FetchTarget, count: number, fromIndex: number, toIndex: number, what = "lines hidden"): string {
  const rows = target.screen?.inOrder ? ` (screen rows ${target.firstLine + fromIndex}–${target.firstLine + toIndex})` : "";
  return `… ${count} ${what}${rows}: ${fetchCall(target, fromIndex, toIndex)}`;
}
