import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { someHead, someTail } from "./helpers.js";

const SUMMARY = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\S+)/;
const FAIL_MARK = /^\s*✖ /;
const PASS_MARK = /^\s*✔ /;
const INTERNAL_FRAME = /^\s*at .*\((?:node:|internal\/)|^\s*at (?:node:|async node:)/;
const MESSAGE_LINES = 8;

/**
 * `node --test` (spec reporter; TAP too): passing tests go; the ℹ counters become one
 * line; each failing test keeps its name, where it is, its error message and the first
 * frame in user code. Node prints every failure twice (inline and under "failing
 * tests:"); when that section exists only it is kept.
 */
export const nodeTest: Reducer = {
  name: "node-test",
  command: /^(?:node|tsx)\s+(?:\S+\s+)*--test\b/,
  shape: (lines) => someTail(lines, /^ℹ (?:tests|pass|fail) \d+$|^# (?:tests|pass|fail) \d+$/, 200) || someHead(lines, /^TAP version \d+/, 2),
  reduce(lines) {
    if (lines.some((line) => /^(?:TAP version|# Subtest:|(?:not )?ok \d+ )/.test(line.text.trim()))) return reduceTap(lines);
    const failingAt = lines.findIndex((line) => /^✖ failing tests:$/.test(line.text));
    const counters: string[] = [];
    const out: Line[] = [];
    let counterSpan: Line | undefined;
    let inObject = false; // the "{ generatedMessage, code, actual, … }" dump after an assertion
    lines.forEach((line, index) => {
      if (inObject) {
        if (/^\s*}$/.test(line.text)) inObject = false;
        return;
      }
      const counter = SUMMARY.exec(line.text);
      if (counter) {
        counters.push(`${counter[1]} ${counter[2]}`);
        counterSpan ??= line;
        return;
      }
      if (failingAt >= 0 && index < failingAt) {
        // Before the "failing tests:" recap: only the names of failing suites/tests.
        if (FAIL_MARK.test(line.text)) out.push(line);
        return;
      }
      if (/ \{$/.test(line.text)) inObject = true;
      if (FAIL_MARK.test(line.text) || /^test at \S+:\d+:\d+$/.test(line.text)) out.push(line);
      else if (failingAt < 0 && PASS_MARK.test(line.text)) return;
      else if (!INTERNAL_FRAME.test(line.text) && line.text.trim() !== "") out.push(line);
    });
    const kept = limitMessages(out);
    if (counters.length > 0 && counterSpan) kept.push({ text: counters.join(" · "), from: counterSpan.from, to: counterSpan.to });
    return kept;
  },
};

// Keep at most MESSAGE_LINES detail lines under each ✖ line.
function limitMessages(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  let details = 0;
  for (const line of lines) {
    if (FAIL_MARK.test(line.text) || /^test at /.test(line.text)) details = 0;
    else if (details++ >= MESSAGE_LINES) continue;
    out.push(line);
  }
  return out;
}

function reduceTap(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  let inFailure = false;
  for (const line of lines) {
    const text = line.text.trim();
    if (/^not ok \d+ /.test(text)) {
      out.push(line);
      inFailure = true;
    } else if (/^ok \d+ /.test(text) || /^# Subtest:/.test(text)) inFailure = false;
    else if (/^# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /.test(text)) out.push(line);
    else if (inFailure && /^(?:error|location|failureType|code|expected|actual):/.test(text)) out.push(line);
  }
  return out;
}
