import { test } from "node:test";
import assert from "node:assert/strict";
import { foldLines } from "../../../src/output/fold.js";
import type { Line } from "../../../src/output/line.js";
import { cutOverlong } from "../../../src/output/overlong.js";
import { countTokens } from "../../../src/output/tokens.js";

const numbered = (count: number, make = (i: number) => `line ${i}`): Line[] =>
  Array.from({ length: count }, (_, i) => ({ text: make(i), from: i, to: i }));
const target = { session: "s1", firstLine: 101 };

test("output within the budget comes back whole", () => {
  const lines = numbered(50);
  assert.deepEqual(foldLines(lines, { ...target, maxTokens: 2000 }), { lines: lines.map((l) => l.text), hidden: 0 });
});

test("over budget: first 20, last 30, one marker with the exact fetch call in absolute lines", () => {
  const folded = foldLines(numbered(5000), { ...target, maxTokens: 2000 });
  assert.equal(folded.lines.length, 51);
  assert.deepEqual(folded.lines.slice(0, 20), numbered(20).map((l) => l.text));
  assert.equal(folded.lines[20], '… 4950 lines hidden: terminal_read {"session":"s1","mode":"lines","from_line":121,"to_line":5070}');
  assert.equal(folded.lines[50], "line 4999");
  assert.equal(folded.hidden, 4950);
});

test("important middle lines are kept and split the hidden runs", () => {
  const lines = numbered(3000, (i) => (i === 1500 ? "src/app.ts:12:5 - error TS2322: nope" : i === 2000 ? "FAILED test_x" : `row ${i}`));
  const folded = foldLines(lines, { ...target, maxTokens: 1000 });
  assert.ok(folded.lines.includes("src/app.ts:12:5 - error TS2322: nope"));
  assert.ok(folded.lines.includes("FAILED test_x"));
  const markers = folded.lines.filter((line) => line.startsWith("… "));
  assert.equal(markers.length, 3);
  assert.match(markers[0]!, /"from_line":121,"to_line":1600\}/);
});

test("important lines beyond the cap are counted in their marker", () => {
  const lines = numbered(4000, (i) => (i % 50 === 25 ? `warning: thing ${i}` : `row ${i}`));
  const folded = foldLines(lines, { ...target, maxTokens: 2000, maxImportant: 5 });
  // 5 from the middle (the cap) + "warning: thing 3975", which sits in the 30-line tail.
  assert.equal(folded.lines.filter((line) => line.startsWith("warning:")).length, 6);
  // 80 warnings: 79 in the middle, of which the cap keeps the first 5 (each splits the hidden
  // run before it); the other 74 are all in the last run. A kept one is counted in no marker.
  const counts = folded.lines.filter((line) => line.startsWith("… ")).map((line) => /lines hidden(?: \((\d+) look important\))?/.exec(line)![1] ?? "0");
  assert.deepEqual(counts, ["0", "0", "0", "0", "0", "74"]);
});

test("folded result respects the budget even with long lines, keeping the last line", () => {
  const lines = numbered(2000, (i) => `${i} ${"word ".repeat(60)}`);
  const folded = foldLines(lines, { ...target, maxTokens: 600 });
  assert.ok(countTokens(folded.lines.join("\n")) <= 600);
  assert.ok(folded.lines[folded.lines.length - 1]!.startsWith("1999 "));
});

test("overlong lines are cut in the middle with a marker", () => {
  const cut = cutOverlong(`HEAD${"x".repeat(5000)}TAIL`, 400);
  assert.ok(cut.startsWith("HEAD") && cut.endsWith("TAIL"));
  assert.match(cut, / …\[\d+ chars cut\]… /);
  assert.ok(cut.length <= 420);
});
