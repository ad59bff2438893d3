import { test } from "node:test";
import assert from "node:assert/strict";
import { filterLines } from "../../../src/output/filter.js";
import type { Line } from "../../../src/output/line.js";

const lines: Line[] = Array.from({ length: 100 }, (_, i) => ({ text: i === 40 || i === 42 ? `ERROR at ${i}` : `ok ${i}`, from: i, to: i }));
const target = { session: "web", firstLine: 1 };

test("keeps matches with context and marks each gap with its fetch call", () => {
  const result = filterLines(lines, /ERROR/, 1, target);
  assert.deepEqual(result.lines.map((line) => line.text), [
    '… 39 lines hidden: terminal_read {"session":"web","mode":"lines","from_line":1,"to_line":39}',
    "ok 39",
    "ERROR at 40",
    "ok 41",
    "ERROR at 42",
    "ok 43",
    '… 56 lines hidden: terminal_read {"session":"web","mode":"lines","from_line":45,"to_line":100}',
  ]);
  assert.equal(result.hidden, 95);
});

test("a global regex does not skip matches through lastIndex", () => {
  const result = filterLines(lines, /ERROR/g, 0, target);
  assert.equal(result.lines.filter((line) => line.text.startsWith("ERROR")).length, 2);
});

test("no match says so and gives the call for the whole range", () => {
  const result = filterLines(lines, /panic/, 2, target);
  assert.equal(result.lines.length, 1);
  assert.match(result.lines[0]!.text, /^no line matches \/panic\/; … 100 lines hidden: .*"from_line":1,"to_line":100\}$/);
});
