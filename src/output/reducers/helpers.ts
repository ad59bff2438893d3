import type { Line } from "../line.js";
import { hiddenMarker, type FetchTarget } from "../markers.js";

/** True when any of the first `limit` lines matches. Shape checks stay O(limit). */
export function someHead(lines: readonly Line[], pattern: RegExp, limit = 40): boolean {
  const end = Math.min(lines.length, limit);
  for (let i = 0; i < end; i++) if (pattern.test(lines[i]!.text)) return true;
  return false;
}

export function someTail(lines: readonly Line[], pattern: RegExp, limit = 40): boolean {
  for (let i = Math.max(0, lines.length - limit); i < lines.length; i++) if (pattern.test(lines[i]!.text)) return true;
  return false;
}

/** A line the reducer wrote, standing for source lines from..to of `span`. */
export function note(text: string, span: readonly Line[]): Line {
  let from = Infinity;
  let to = -Infinity;
  for (const line of span) {
    from = Math.min(from, line.from);
    to = Math.max(to, line.to);
  }
  return { text, from: Number.isFinite(from) ? from : 0, to: Number.isFinite(to) ? to : 0 };
}

export function withText(line: Line, text: string): Line {
  return { text, from: line.from, to: line.to };
}

/** Keeps the first `max` lines; the rest become one marker with its fetch call. */
export function capLines(lines: readonly Line[], max: number, target: FetchTarget, what = "lines hidden"): Line[] {
  if (lines.length <= max) return [...lines];
  const rest = lines.slice(max);
  const marker = note("", rest);
  marker.text = "  " + hiddenMarker(target, marker.to - marker.from + 1, marker.from, marker.to, what);
  return [...lines.slice(0, max), marker];
}

/** Splits lines into blocks, each starting at a line for which `starts` is true. */
export function blocksStartingAt(lines: readonly Line[], starts: (text: string) => boolean): Line[][] {
  const blocks: Line[][] = [];
  for (const line of lines) {
    if (starts(line.text) || blocks.length === 0) blocks.push([line]);
    else blocks[blocks.length - 1]!.push(line);
  }
  return blocks;
}

/** Start of a git command line up to its subcommand: `git`, `git -C dir`, `git -c k=v --no-pager`. */
export const GIT_PREFIX = String.raw`^git(?:\s+(?:-[Cc]|--git-dir|--work-tree|--namespace)\s+\S+|\s+-\S+)*\s+`;

/**
 * Options that make `git log` print each commit's changes (a patch, raw lines, file names):
 * output to keep, not to summarise a line per commit. Used after `log\b`, inside `.*`.
 */
export const GIT_LOG_CHANGE_OPTIONS = String.raw`\s(?:-p|-u|-U\d*|-c|--cc|--dd|-L\S*|--patch\S*|--unified\S*|--remerge-diff|--word-diff\S*|--color-words\S*|--raw|--name-only|--name-status|--summary)(?=\s|$)`;
