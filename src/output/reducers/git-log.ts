import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { GIT_LOG_CHANGE_OPTIONS, GIT_PREFIX, blocksStartingAt, note, someHead } from "./helpers.js";

const COMMIT = /^commit ([0-9a-f]{7,40})\b(.*)$/;
// A file's patch or a raw change line: the output shows what changed, which a log line would drop.
const CHANGE = /^diff --git |^:\d{6} \d{6} /;
const STAT_TOTAL = /^\s*(\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?/;

/**
 * `git log` (with or without --stat): one line per commit — short hash, subject (every
 * subject kept), a "…" when the message has a body, the --stat totals, then date, author and refs.
 * The per-file stat lines and the bodies are what gets dropped. Output that shows changes
 * (`git show`, `git log -p`, `git whatchanged`) is the git-diff reducer's: its diff is
 * what the reader asked for.
 */
export const gitLog: Reducer = {
  name: "git-log",
  summarisesBlocks: true,
  command: new RegExp(String.raw`${GIT_PREFIX}log\b(?!.*${GIT_LOG_CHANGE_OPTIONS})`),
  cutsAtEnd: true,
  shape: (lines) => COMMIT.test(lines[0]?.text ?? "") && someHead(lines, /^(?:Author|Date):\s/, 5) && !someHead(lines, CHANGE, lines.length),
  reduce(lines) {
    const out: Line[] = [];
    for (const block of blocksStartingAt(lines, (text) => COMMIT.test(text))) {
      const head = COMMIT.exec(block[0]!.text);
      if (!head) {
        out.push(...block);
        continue;
      }
      out.push(note(summarise(head[1]!, head[2]!, block), block));
    }
    return out;
  },
};

function summarise(hash: string, decoration: string, block: readonly Line[]): string {
  let author = "";
  let date = "";
  const message: string[] = [];
  let totals = "";
  for (const { text } of block.slice(1)) {
    if (text.startsWith("Author:")) author = text.slice(7).trim().replace(/\s*<[^>]*>$/, "");
    else if (text.startsWith("Date:")) date = shortDate(text.slice(5).trim());
    else if (text.startsWith("    ")) message.push(text.trim());
    const total = STAT_TOTAL.exec(text);
    if (total) totals = ` (${total[1]} files +${total[2] ?? 0} -${total[3] ?? 0})`;
  }
  const subject = message.find((line) => line !== "") ?? "";
  const body = message.filter((line) => line !== "").length > 1 ? " …" : "";
  // What a reader needs first: which commit and what it did; then when and who (the ref list
  // last: on HEAD it is longer than most subjects).
  const head = `${hash.slice(0, 8)} `;
  const tail = `${body}${totals}`;
  const about = ` · ${date} ${author}${decoration}`.replace(/\s+/g, " ").trimEnd();
  const room = SUMMARY_MAX_CHARS - head.length - tail.length - Math.min(about.length, ABOUT_MIN_CHARS);
  const shown = shortSubject(subject.replace(/\s+/g, " "), room);
  // A cut subject's "…" already says there is more to read.
  const line = `${head}${shown}${shown.endsWith("…") ? totals : tail}${about}`.trim();
  return line.length <= SUMMARY_MAX_CHARS ? line : `${line.slice(0, SUMMARY_MAX_CHARS - 1).trimEnd()}…`;
}

/**
 * A summary line's most characters. A long log is folded to its first and last commits, and a
 * folded line over its width is cut in the middle, which takes the subject: cut here at its
 * end instead, so the line keeps its hash, the subject (how it starts, if long) and its date.
 */
const SUMMARY_MAX_CHARS = 120;
/** Room kept after a long subject for " · 2026-03-03" and the start of the author. */
const ABOUT_MIN_CHARS = 20;

/** A subject cut at a word break to `room` characters (at least 40), "…" saying so. */
function shortSubject(subject: string, room: number): string {
  const max = Math.max(40, room);
  if (subject.length <= max) return subject;
  const cut = subject.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

// "Tue Mar 3 10:20:30 2026 +0100" → "2026-03-03"; other formats are kept as they are.
function shortDate(text: string): string {
  const match = /^\w{3} (\w{3}) (\d{1,2}) [\d:]+ (\d{4})/.exec(text);
  if (!match) return text;
  const month = "JanFebMarAprMayJunJulAugSepOctNovDec".indexOf(match[1]!) / 3 + 1;
  if (month < 1) return text;
  return `${match[3]}-${String(month).padStart(2, "0")}-${match[2]!.padStart(2, "0")}`;
}
