import type { Line } from "../line.js";
import type { FetchTarget } from "../markers.js";
import type { Reducer } from "./types.js";
import { GIT_LOG_CHANGE_OPTIONS, GIT_PREFIX, capLines, note, someHead } from "./helpers.js";

const FILE_START = /^diff --git a\/(.*) b\/(.*)$/;
const COMMIT = /^commit [0-9a-f]{7,40}\b/;
// What may follow a file's `diff --git` line within its diff: extended headers, hunks, and
// the empty line a context line becomes once trailing blanks are cleaned. Any other line (a
// commit header, a --oneline log line) ends the file's diff and is kept as it is.
const IN_FILE = /^(?:[ +\-@\\]|$|index |(?:new|deleted) file mode |(?:old|new) mode |(?:dis)?similarity index |rename (?:from|to) |copy (?:from|to) |Binary files )/;
const CHANGED_LINES_PER_FILE = 40;

/**
 * Diff output — `git diff`, `git show`, `git log -p`, `git whatchanged`: every line outside a
 * file's diff (commit headers and messages, --stat and raw lines) is kept; each run of file
 * diffs becomes a stat line per file first (so every changed file is seen), then each file's
 * hunks with context lines dropped and at most CHANGED_LINES_PER_FILE changed lines; the rest
 * of a file is one marker with its fetch call.
 */
export const gitDiff: Reducer = {
  name: "git-diff",
  command: new RegExp(
    String.raw`${GIT_PREFIX}(?:diff\b(?!.*--(?:stat|name-only|name-status|shortstat)\b)|show(?![\w-])|whatchanged\b|log\b(?=.*${GIT_LOG_CHANGE_OPTIONS}))`,
  ),
  shape: (lines) => FILE_START.test(lines[0]?.text ?? "") || (COMMIT.test(lines[0]?.text ?? "") && someHead(lines, FILE_START, lines.length)),
  reduce(lines, target) {
    const out: Line[] = [];
    let files: Line[][] = [];
    const flush = (): void => {
      if (files.length > 0) out.push(...reduceFiles(files, target));
      files = [];
    };
    for (const line of lines) {
      if (FILE_START.test(line.text)) files.push([line]);
      else if (files.length > 0 && IN_FILE.test(line.text)) files[files.length - 1]!.push(line);
      else {
        flush();
        out.push(line);
      }
    }
    flush();
    return out;
  },
};

/** One run of file diffs (a `git diff`, or one commit's patch): stat lines, then capped hunks. */
function reduceFiles(files: readonly Line[][], target: FetchTarget): Line[] {
  const stats: Line[] = [];
  const bodies: Line[] = [];
  for (const block of files) {
    const name = FILE_START.exec(block[0]!.text)![2]!;
    const hunkLines = block.filter((line) => /^[-+@](?!--|\+\+)/.test(line.text) || /^(?:new|deleted) file mode|^rename |^Binary files/.test(line.text));
    const added = count(block, /^\+(?!\+\+)/);
    const removed = count(block, /^-(?!--)/);
    stats.push(note(`${name} | +${added} -${removed}`, [block[0]!]));
    bodies.push(note(`--- ${name}`, [block[0]!]));
    bodies.push(...capLines(hunkLines, CHANGED_LINES_PER_FILE, target, `more diff lines of ${name}`));
  }
  return [note(`${stats.length} files changed`, files.flat()), ...stats, ...bodies];
}

// A run of identical lines was cleaned into one line ending in " ×N" (clean.ts): it counts N times.
function count(block: readonly Line[], pattern: RegExp): number {
  let total = 0;
  for (const { text } of block) if (pattern.test(text)) total += Number(/ ×(\d+)$/.exec(text)?.[1] ?? 1);
  return total;
}
