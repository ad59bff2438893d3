import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead, someTail } from "./helpers.js";

const DIAGNOSTIC = /^(?:error|warning)(?:\[\w+\])?: /;
const PROGRESS = /^\s*(?:Compiling|Checking|Downloaded|Downloading|Fresh|Locking|Adding|Updating|Blocking|Documenting|Building)\s/;

/**
 * cargo build/check/test/clippy: Compiling/Checking progress, passing tests, code frames
 * and backtrace frames go; every diagnostic keeps its headline, its --> location, the
 * ^^^ label lines and = notes; every failing test keeps its panic location and message;
 * the `failures:` list (less the tests already shown above it), `test result:` and the
 * final error line stay.
 */
export const cargo: Reducer = {
  name: "cargo",
  command: /^cargo(?:\s+\+\S+)?\s+(?:build|b|check|c|test|t|run|r|clippy|nextest)\b/,
  shape: (lines) => someHead(lines, /^\s*(?:Compiling|Checking) \S+ v\d/, 10) || someTail(lines, /^test result: |^error: could not compile/, 10),
  reduce(lines) {
    const out: Line[] = [];
    let mode: "none" | "diagnostic" | "panic" | "backtrace" | "failures" = "none";
    // Tests whose "---- name stdout ----" block was kept: the closing `failures:` list repeats them.
    const shown = new Set<string>();
    for (const line of lines) {
      const text = line.text;
      if (PROGRESS.test(text) || /^test .* \.\.\. ok$|^running \d+ tests?$|^\s*Running |^\s*Doc-tests /.test(text)) {
        mode = "none";
        continue;
      }
      if (/^\s*Finished /.test(text)) continue;
      if (DIAGNOSTIC.test(text) || /^test .* \.\.\. (?:FAILED|ignored)/.test(text) || /^---- .* stdout ----$/.test(text) || /^test result: /.test(text)) {
        out.push(line);
        const stdout = /^---- (.*) stdout ----$/.exec(text);
        if (stdout) shown.add(stdout[1]!);
        mode = DIAGNOSTIC.test(text) ? "diagnostic" : "none";
        continue;
      }
      if (/^thread '.*' (?:\(\d+\) )?panicked at /.test(text)) {
        out.push(line);
        mode = "panic";
        continue;
      }
      if (/^failures:$/.test(text)) {
        mode = "failures";
        continue;
      }
      if (mode === "panic") {
        if (/^stack backtrace:|^note: /.test(text)) mode = "backtrace";
        else if (text.trim() !== "") out.push(line);
      } else if (mode === "diagnostic") {
        if (/^\s*--> |^\s*= |^\s*\|\s*[\^-]+|^\s*\|.*[\^]{1,}/.test(text)) out.push(line);
      } else if (mode === "failures") {
        if (/^\s{4}\S+$/.test(text) && !shown.has(text.trim())) out.push(line);
      }
    }
    return out;
  },
};
