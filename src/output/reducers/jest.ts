import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someTail, withText } from "./helpers.js";
import { isBareRule, trimRule } from "./rules.js";

const FAILURE_TITLE = /^\s*● /;
const SUMMARY = /^\s*(?:Tests?(?: Files| Suites)?|Snapshots|Time|Start at|Duration|Test Suites):\s|^\s*(?:Test Files|Tests|Start at|Duration)\s{2,}\S|^Ran all test suites/;
const DETAIL_LINES = 10;

/**
 * jest and vitest: PASS / ✓ lines go; FAIL lines, each failure's title (● …, or vitest's
 * "FAIL file > test"), its first detail lines (message, expected/received, location) and
 * the Tests / Test Suites / Test Files summary stay. Code frames ("  12 | …") go.
 */
export const jest: Reducer = {
  name: "jest",
  command: /^(?:jest|vitest)\b/,
  shape: (lines) => someTail(lines, /^\s*Tests:\s+.*\btotal\b|^\s*Test Files\s{2,}|^\s*Tests\s{2,}\d+ (?:passed|failed)/, 10),
  reduce(lines) {
    const out: Line[] = [];
    let details = -1;
    for (const line of lines) {
      const text = line.text;
      if (/^\s*(?:PASS|✓|√)\s/.test(text)) continue;
      // vitest's full-width "⎯⎯⎯⎯" rules and "⎯⎯⎯[1/2]⎯" separators between failures say nothing.
      if (isBareRule(text) || /^⎯+\[\d+\/\d+\]⎯*$/.test(text)) continue;
      if (FAILURE_TITLE.test(text) || /^\s*FAIL\s/.test(text) || /^\s*(?:×|✗|❯)\s/.test(text) || /⎯ Failed Tests? \d+ ⎯/.test(text)) {
        out.push(withText(line, trimRule(text)));
        details = FAILURE_TITLE.test(text) || /^\s*FAIL\s.*>/.test(text) ? 0 : -1;
        continue;
      }
      if (SUMMARY.test(text)) {
        out.push(line);
        details = -1;
        continue;
      }
      if (details < 0 || text.trim() === "" || /^\s*(?:>?\s*\d+\s*\||\|)/.test(text)) continue;
      if (details < DETAIL_LINES && !/^\s+at .*node_modules|^\s+at .*\(node:/.test(text)) {
        out.push(line);
        details++;
      }
    }
    return out;
  },
};
