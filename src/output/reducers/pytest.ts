import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead, someTail } from "./helpers.js";

const SECTION = /^={3,} (.*?) ={3,}$/;
const FAILURE_HEADER = /^_{3,} (.*?) _{3,}$/;
const LOCATION = /^\S+:\d+: \w+/;
const EXPLANATION_LINES = 6;

/**
 * pytest: the per-test progress, session header and source listings go; every failure
 * keeps its name, its "E …" explanation lines (first few) and its file:line location;
 * the short test summary, warnings headlines and the final summary line stay whole.
 */
export const pytest: Reducer = {
  name: "pytest",
  command: /^(?:pytest|py\.test)\b/,
  shape: (lines) => someHead(lines, /^={3,} test session starts ={3,}$/, 5) || someTail(lines, /^={3,} .*\b(?:passed|failed|errors?)\b.* in [\d.]+s/, 3),
  reduce(lines) {
    const out: Line[] = [];
    let section = "";
    let explained = 0;
    for (const line of lines) {
      const text = line.text;
      const heading = SECTION.exec(text);
      if (heading) {
        section = heading[1]!.toLowerCase();
        if (section !== "test session starts") out.push(line);
        continue;
      }
      if (/^collected \d+ items?|^collecting .*(?:error|\d+ items)/.test(text)) {
        out.push(line);
        continue;
      }
      if (section === "failures" || section === "errors") {
        if (FAILURE_HEADER.test(text)) {
          out.push(line);
          explained = 0;
        } else if (/^E\s/.test(text) && explained < EXPLANATION_LINES) {
          out.push(line);
          explained++;
        } else if (LOCATION.test(text)) out.push(line);
      } else if (section === "short test summary info") out.push(line);
      else if (section === "warnings summary") {
        if (/Warning\b|^\S+\.py:\d+/.test(text)) out.push(line);
      } else if (/^(?:FAILED|ERROR) |::\S+ (?:FAILED|ERROR)\b|^!{3,}|Interrupted|^no tests ran/.test(text)) out.push(line);
    }
    return out;
  },
};
