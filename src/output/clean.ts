import type { Line } from "./line.js";
import { replayTerminal } from "./screen.js";

/**
 * Raw pty text → the lines a person would read on screen: escape codes and control
 * characters gone, carriage returns and backspaces applied (see screen.ts), trailing
 * blanks trimmed, a run of identical lines shown once with `×N`, blank-line runs shown
 * as one blank line. Each line keeps the source lines it stands for.
 */
export function cleanLines(text: string): Line[] {
  const rows = replayTerminal(text);
  for (const row of rows) if (endsWithBlank(row.text)) row.text = row.text.trimEnd();
  return collapseRuns(rows);
}

function endsWithBlank(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last === 32 || last === 9 || last === 160 || last === 0x3000;
}

function collapseRuns(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  let start = 0;
  while (start < lines.length && lines[start]!.text === "") start++;
  let end = lines.length;
  while (end > start && lines[end - 1]!.text === "") end--;
  for (let i = start; i < end; ) {
    const first = lines[i]!;
    let j = i + 1;
    let to = first.to;
    while (j < end && lines[j]!.text === first.text) to = Math.max(to, lines[j++]!.to);
    const count = j - i;
    const text = count > 1 && first.text !== "" ? `${first.text} ×${count}` : first.text;
    out.push(count > 1 ? { text, from: first.from, to } : first);
    i = j;
  }
  return out;
}
