import type { LineTable } from "./table.js";

/**
 * Lines worth keeping from the middle of folded output: failures, errors, warnings,
 * non-zero exits and file:line references (where a fix starts). Tuned to stay quiet on
 * plain data (numbers, listings) so folding those stays tight.
 */
const IMPORTANT_ANYWHERE = new RegExp(
  [
    String.raw`\b(?:errors?|fail(?:s|ed|ure|ures|ing)?|panic(?:ked)?|traceback|exception|warn(?:ing)?s?|fatal|abort(?:ed)?|segmentation fault|assert(?:ion)?(?:error)?)\b`,
    "[✗✖✘❌]",
    String.raw`\bexit(?:ed)?(?: with)? (?:code|status)?[ :=]*[1-9]\d*`,
    String.raw`\bError \d+\b`,
    String.raw`non-zero`,
    // file:line and file(line,col) references, matched from the extension only: a leading
    // [\w./-]+ made the scan backtrack over every path-like word (~35 ms per MB).
    String.raw`\w\.[A-Za-z]\w{0,7}:\d+\b`,
    String.raw`\w\.[A-Za-z]\w{0,7}\(\d+,\d+\)`,
  ].join("|"),
  "gi",
);

/**
 * Indexes (ascending) of the important lines of a table. One regex scan over the table's
 * joined text instead of a test per line: per-line calls dominate on 200k short lines.
 */
export function importantLineIndexes(table: LineTable): number[] {
  const found: number[] = [];
  const text = table.text;
  IMPORTANT_ANYWHERE.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = IMPORTANT_ANYWHERE.exec(text)) !== null) {
    const line = lineAt(table, match.index);
    found.push(line);
    // Continue at the next line: one hit per line is enough.
    if (line + 1 >= table.length) break;
    IMPORTANT_ANYWHERE.lastIndex = table.lineStart(line + 1);
  }
  return found;
}

function lineAt(table: LineTable, position: number): number {
  let low = 0;
  let high = table.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (table.lineStart(mid) <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}
