import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead, someTail, withText } from "./helpers.js";
import { trimRule } from "./rules.js";

const SECTION = /^={3,} (.*?) ={3,}$/;
const FAILURE_HEADER = /^_{3,} (.*?) _{3,}$/;
// The frame that raised: "test_x.py:18: AssertionError" (a frame it passed through ends in ": ").
const LOCATION = /^\S+:\d+: \w+/;
const EXPLANATION_LINES = 2;
// pytest's own hints and headings inside an explanation: they tell a person which flag shows
// more, or announce what follows ("Full diff:"); a diff's "?" lines point at characters.
const HINT = /^E\s+(?:Use -v to get more diff|Skipping \d+ identical .* use -vv? to show|Omitting \d+ identical items?, use -vv? to show|\.\.\.Full output truncated|Full diff:|Differing items:|\?\s|$)/;
/** Characters kept of an E line (the first one a little longer): a long diff line says little more past this. */
const E_LINE_CHARS = 72;
const FIRST_E_CHARS = 100;
// A diff's unchanged context lines, indented past its "- "/"+ " lines: the changes say more.
const DIFF_CONTEXT = /^E {11,}\S/;
const SUMMARY_ENTRY = /^((?:FAILED|ERROR) (\S+?)(?:::(\S+))?)(?: - (.*))?$/;

/**
 * pytest: the per-test progress, session header and source listings go; every failure
 * keeps its name, its first "E …" explanation lines and the file:line where it raised;
 * the rules padded to the terminal width are cut to their words. A short-summary line
 * keeps its node id and drops the message when that failure's E lines already showed it,
 * and stands for -v's "file::test FAILED" progress line; the warnings headlines and the
 * final counts stay.
 */
export const pytest: Reducer = {
  name: "pytest",
  command: /^(?:pytest|py\.test)\b/,
  shape: (lines) => someHead(lines, /^={3,} test session starts ={3,}$/, 5) || someTail(lines, /^={3,} .*\b(?:passed|failed|errors?)\b.* in [\d.]+s/, 3),
  reduce(lines) {
    const out: Line[] = [];
    // Failure name (as in its header, "ERROR at setup of" dropped) → its kept E texts.
    const explained = new Map<string, string[]>();
    let current: string[] | undefined;
    // -v progress lines ("file::test FAILED [ 10%]") by node id → index in out: the short
    // summary names the same tests again, so these go once it does.
    const progress = new Map<string, number>();
    const repeated = new Set<number>();
    let section = "";
    let pendingHeading: Line | undefined;
    for (const line of lines) {
      const text = line.text;
      const heading = SECTION.exec(text);
      if (heading) {
        section = heading[1]!.toLowerCase();
        // The short summary's heading waits for an entry the failure blocks did not already name.
        if (section === "short test summary info") pendingHeading = withText(line, trimRule(text));
        // The failure blocks' own headers say what they are: their section rules add nothing.
        else if (!["test session starts", "failures", "errors"].includes(section)) out.push(withText(line, trimRule(text)));
        continue;
      }
      // "collected 35 items" goes: the final counts say as much. A collection error stays.
      if (/^collecting .*error|^collected .*errors?\b/.test(text)) {
        out.push(line);
        continue;
      }
      if (section === "failures" || section === "errors") {
        const header = FAILURE_HEADER.exec(text);
        if (header) {
          out.push(withText(line, trimRule(text)));
          current = [];
          explained.set(header[1]!.replace(/^ERROR at \w+ of /, ""), current);
        } else if (/^E\s/.test(text) && current && current.length < explanationLines(current) && !HINT.test(text) && !(current.length > 0 && DIFF_CONTEXT.test(text))) {
          // "E" and one space: pytest's indentation after it is the same on every line.
          out.push(withText(line, clip(text.replace(/^E {2,}/, current.length === 0 ? "E " : "E   "), current.length === 0 ? FIRST_E_CHARS : E_LINE_CHARS)));
          current.push(text.replace(/^E\s+/, ""));
        } else if (LOCATION.test(text)) {
          // "file.py:7: AssertionError": the exception's name goes when the E line already says it.
          const [, where, name] = /^(\S+:\d+): (\w+)/.exec(text)!;
          out.push(current?.[0]?.includes(name!) ? withText(line, where!) : line);
        }
      } else if (section === "short test summary info") {
        const entry = SUMMARY_ENTRY.exec(text);
        const earlier = entry ? progress.get(entry[3] ? `${entry[2]}::${entry[3]}` : entry[2]!) : undefined;
        if (earlier !== undefined) repeated.add(earlier);
        // A test whose failure block was shown is named there already (its file:line too).
        if (entry && explained.has((entry[3] ?? entry[2]!).replace(/::/g, ".")) && (entry[4] === undefined || shortSummary(line, explained) !== line)) continue;
        out.push(shortSummary(line, explained));
      }
      else if (section === "warnings summary") {
        if (/Warning\b|^\S+\.py:\d+/.test(text)) out.push(line);
      } else if (/^(?:FAILED|ERROR) |::\S+ (?:FAILED|ERROR)\b|^!{3,}|Interrupted|^no tests ran/.test(text)) {
        const verbose = /^(\S+::\S+) (?:FAILED|ERROR)\b/.exec(text);
        if (verbose) progress.set(verbose[1]!, out.length);
        out.push(line);
      }
    }
    return repeated.size === 0 ? out : out.filter((_, i) => !repeated.has(i));
  },
};

/**
 * E lines kept for a failure: the first, and one more when pytest elided the values in it
 * ("{'hosts': ['w..., 'tls': True}"): then the next line shows what differs.
 */
function explanationLines(kept: readonly string[]): number {
  return kept.length === 0 || /\.\.\./.test(kept[0]!) ? EXPLANATION_LINES : 1;
}

/** A line cut to `max` characters, marked; the text is clean already (escape codes went first). */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** "FAILED file::test - message": the message goes when the failure's E lines already said it. */
function shortSummary(line: Line, explained: ReadonlyMap<string, readonly string[]>): Line {
  const entry = SUMMARY_ENTRY.exec(line.text);
  if (!entry || entry[4] === undefined) return line;
  // Node id "file::Class::test" is headed "Class.test" in the failures section.
  const shown = explained.get((entry[3] ?? entry[2]!).replace(/::/g, "."));
  // The summary cuts a long message to the terminal width, ending it with "...".
  const message = entry[4].replace(/\.\.\.$/, "");
  if (shown?.some((e) => e.startsWith(message))) return withText(line, entry[1]!);
  return line;
}
