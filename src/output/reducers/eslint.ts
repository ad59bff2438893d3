import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someTail } from "./helpers.js";

const PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)\s{2,}(\S+)$/;
const WARNINGS_PER_FILE = 5;

/**
 * eslint (stylish): every error kept with its position and rule; warnings capped per
 * file with a per-rule count of the rest; file headings and the ✖ summary stay.
 */
export const eslint: Reducer = {
  name: "eslint",
  command: /^(?:eslint|next\s+lint|biome\s+lint)\b/,
  shape: (lines) => someTail(lines, /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/, 6),
  reduce(lines) {
    const out: Line[] = [];
    let warnings = 0;
    let skipped = new Map<string, number>();
    let skippedSpan: Line[] = [];
    const flushSkipped = (): void => {
      if (skipped.size === 0) return;
      const rules = [...skipped].map(([rule, count]) => `${rule} ×${count}`).join(", ");
      const first = skippedSpan[0]!;
      const last = skippedSpan[skippedSpan.length - 1]!;
      out.push({ text: `  … ${skippedSpan.length} more warnings: ${rules}`, from: first.from, to: last.to });
      skipped = new Map();
      skippedSpan = [];
    };
    for (const line of lines) {
      const problem = PROBLEM.exec(line.text);
      if (!problem) {
        flushSkipped();
        if (line.text.trim() !== "") out.push(line);
        if (/^\S/.test(line.text)) warnings = 0;
        continue;
      }
      const compact = { ...line, text: `  ${problem[1]}:${problem[2]} ${problem[3]} ${problem[4]} (${problem[5]})` };
      if (problem[3] === "error" || warnings++ < WARNINGS_PER_FILE) out.push(compact);
      else {
        skipped.set(problem[5]!, (skipped.get(problem[5]!) ?? 0) + 1);
        skippedSpan.push(line);
      }
    }
    flushSkipped();
    return out;
  },
};
