import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead, someTail } from "./helpers.js";

// Pretty "a.ts:1:7 - error TS2322: …" and plain "a.ts(1,7): error TS2322: …".
const ERROR = /^\S.*?(?::\d+:\d+ - |\(\d+,\d+\): )(?:error|warning|message) TS\d+:/;
const CONTINUATION_LINES = 4;

/**
 * tsc: every diagnostic keeps its location line and the first few lines of its message
 * chain; the source excerpt and ~~~ underline of the pretty format go; "Found N errors"
 * and watch-mode status lines stay.
 */
export const tsc: Reducer = {
  name: "tsc",
  command: /^(?:tsc|vue-tsc|tsgo)\b/,
  shape: (lines) => someHead(lines, ERROR, 10) || someTail(lines, /^Found \d+ errors?\b/, 5),
  reduce(lines) {
    const out: Line[] = [];
    let continuation = -1;
    for (const line of lines) {
      const text = line.text;
      if (ERROR.test(text)) {
        out.push(line);
        continuation = 0;
      } else if (/^(?:\[[^\]]+\] )?Found \d+ errors?\b|Watching for file changes|Starting (?:incremental )?compilation/.test(text)) {
        out.push(line);
        continuation = -1;
      } else if (continuation >= 0 && /^\s{2,}\S/.test(text) && !/^\s*\d+\s/.test(text) && continuation < CONTINUATION_LINES) {
        out.push(line);
        continuation++;
      } else if (text.trim() === "" || /^\s*\d+\s|^\s*~+\s*$/.test(text)) {
        // The pretty format's blank line before the source excerpt ends the message chain.
        if (text.trim() === "") continuation = -1;
      } else if (!/^\s/.test(text) && !/^\s*[~^]+/.test(text)) {
        out.push(line); // anything tsc says that is not a diagnostic (config errors, "error TS5058" without location)
        continuation = -1;
      }
    }
    return out;
  },
};
