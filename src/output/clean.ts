import type { Line } from "./line.js";
import type { Rows } from "./rows.js";
import { replayTerminal } from "./screen.js";
import { LineTable } from "./table.js";
import { TextBuilder } from "./text-builder.js";

/**
 * Raw pty text → the lines a person would read on screen: escape codes and control
 * characters gone, carriage returns and backspaces applied (see screen.ts), trailing
 * blanks trimmed, a run of three or more identical lines shown once with `×N`, blank-line runs shown
 * as one blank line. Each line keeps the source lines it stands for.
 */
export function cleanLines(text: string): Line[] {
  return cleanTable(text).toLines();
}

/**
 * A piece of raw text (a pattern's match) as a terminal draws it: escapes gone, carriage
 * returns and backspaces applied, rows joined with line breaks. No trimming, no collapsing.
 */
export function drawnText(text: string): string {
  const rows = replayTerminal(text);
  const out: string[] = [];
  for (let row = 0; row < rows.count; row++) out.push(rows.text(row));
  return out.join("\n");
}

/** cleanLines as a LineTable: no object or string per line (see table.ts). */
export function cleanTable(text: string): LineTable {
  const rows = replayTerminal(text);
  for (let row = 0; row < rows.count; row++) trimEnd(rows, row);
  return collapseRuns(rows);
}

function trimEnd(rows: Rows, row: number): void {
  const length = rows.textLength(row);
  if (length === 0 || !isBlank(rows.charCodeAt(row, length - 1))) return;
  const trimmed = rows.text(row).trimEnd();
  if (rows.isSpan(row)) rows.setSpan(row, rows.start[row]!, rows.start[row]! + trimmed.length);
  else rows.setText(row, trimmed);
}

// What String.prototype.trimEnd would remove that can end a row (control characters are gone by now).
function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 160 || code === 0x3000;
}

/**
 * Drops leading and trailing blank rows, writes a run of 3+ identical rows once (`×N` unless
 * blank) and joins the result into a LineTable. The table's offsets are written over the
 * row arrays: output row k is written only after input rows up to k have been read.
 */
function collapseRuns(rows: Rows): LineTable {
  let first = 0;
  while (first < rows.count && rows.textLength(first) === 0) first++;
  let end = rows.count;
  while (end > first && rows.textLength(end - 1) === 0) end--;
  const out = new TextBuilder(rows.source.length);
  const starts = rows.start;
  const froms = rows.from;
  const tos = rows.to;
  let count = 0;
  for (let i = first; i < end; ) {
    let j = i + 1;
    let to = tos[i]!;
    while (j < end && rows.same(i, j)) to = Math.max(to, tos[j++]!);
    // Two identical lines stay two: "×2" saves one line and reads as one line repeated (two
    // commands' same error, trial 15). Blank runs always shrink to one.
    if (j - i === 2 && rows.textLength(i) > 0) {
      j = i + 1;
      to = tos[i]!;
    }
    const from = froms[i]!;
    if (count > 0) out.appendNewline();
    const start = out.length;
    if (rows.isSpan(i)) out.appendSlice(rows.source, rows.start[i]!, rows.end[i]!);
    else out.append(rows.text(i));
    if (j - i > 1 && out.length > start) out.append(` ×${j - i}`);
    starts[count] = start;
    froms[count] = from;
    tos[count] = to;
    count++;
    i = j;
  }
  return new LineTable(out.toString(), starts, froms, tos, count);
}
