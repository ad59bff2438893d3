import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead, someTail } from "./helpers.js";

/**
 * `go test`: the === RUN/PAUSE/CONT chatter and --- PASS lines go; --- FAIL lines with
 * their indented t.Error messages, panics, build errors and the per-package ok/FAIL
 * lines stay.
 */
export const goTest: Reducer = {
  name: "go-test",
  command: /^go\s+test\b/,
  shape: (lines) => someHead(lines, /^=== RUN\s/, 5) || someTail(lines, /^(?:ok|FAIL|---)\s+\S+\s+[\d.]+s$|^(?:ok|FAIL)\s+\S+\s+\(cached\)/, 10),
  reduce(lines) {
    const out: Line[] = [];
    let inFailure = false;
    let inPanic = false;
    for (const line of lines) {
      const text = line.text;
      if (/^=== (?:RUN|PAUSE|CONT|NAME)\s/.test(text) || /^\s*--- (?:PASS|SKIP):/.test(text) || /^PASS$/.test(text)) {
        inFailure = false;
        continue;
      }
      if (/^\s*--- FAIL:/.test(text)) {
        out.push(line);
        inFailure = true;
        continue;
      }
      if (/^panic: |^fatal error: /.test(text)) inPanic = true;
      const packageLine = /^(?:ok|FAIL|\?)\s+\S+/.test(text) || /^FAIL$/.test(text);
      const location = /^\s*\S+\.go:\d+(?::\d+)?:/.test(text) || /^#\s+\S+/.test(text);
      if (packageLine || location || inFailure || (inPanic && !/^\s+\/usr\/(?:local\/)?go\//.test(text)) || /^exit status \d+/.test(text)) {
        if (packageLine) inPanic = false;
        if (text.trim() !== "") out.push(line);
      }
    }
    return out;
  },
};
