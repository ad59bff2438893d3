import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { GIT_PREFIX, blocksStartingAt, capLines, note } from "./helpers.js";

const FILE_START = /^diff --git a\/(.*) b\/(.*)$/;
const CHANGED_LINES_PER_FILE = 40;

/**
 * `git diff` / `git show -p`: a stat line per file first (so every changed file is seen),
 * then each file's hunks with context lines dropped and at most CHANGED_LINES_PER_FILE
 * changed lines; the rest of a file is one marker with its fetch call.
 */
export const gitDiff: Reducer = {
  name: "git-diff",
  command: new RegExp(String.raw`${GIT_PREFIX}diff\b(?!.*--(?:stat|name-only|name-status|shortstat)\b)`),
  shape: (lines) => FILE_START.test(lines[0]?.text ?? ""),
  reduce(lines, target) {
    const blocks = blocksStartingAt(lines, (text) => FILE_START.test(text));
    const stats: Line[] = [];
    const bodies: Line[] = [];
    for (const block of blocks) {
      const start = FILE_START.exec(block[0]!.text);
      if (!start) {
        bodies.push(...block);
        continue;
      }
      const hunkLines = block.filter((line) => /^[-+@](?!--|\+\+)/.test(line.text) || /^(?:new|deleted) file mode|^rename |^Binary files/.test(line.text));
      const added = block.filter((line) => /^\+(?!\+\+)/.test(line.text)).length;
      const removed = block.filter((line) => /^-(?!--)/.test(line.text)).length;
      stats.push(note(`${start[2]} | +${added} -${removed}`, [block[0]!]));
      bodies.push(note(`--- ${start[2]}`, [block[0]!]));
      bodies.push(...capLines(hunkLines, CHANGED_LINES_PER_FILE, target, `more diff lines of ${start[2]}`));
    }
    return [note(`${stats.length} files changed`, lines), ...stats, ...bodies];
  },
};
