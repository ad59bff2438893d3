import { test } from "node:test";
import assert from "node:assert/strict";
import { FilterScan } from "../../../src/output/filter-scan.js";

const target = { session: "s", firstLine: 1 };

test("a match at a part's edge keeps its context from the parts either side, and gaps become markers", async () => {
  const scan = new FilterScan(/^x$/, 1);
  await scan.add("a\nb\nc", 0);
  await scan.add("x\nd\ne", 3);
  await scan.add("f\nx", 6);
  const { lines, hidden } = scan.finish(target);
  assert.deepEqual(
    lines.map((line) => line.text),
    [
      '… 2 lines hidden: terminal_read {"session":"s","mode":"lines","from_line":1,"to_line":2}',
      "c",
      "x",
      "d",
      '… 1 lines hidden: terminal_read {"session":"s","mode":"lines","from_line":6,"to_line":6}',
      "f",
      "x",
    ],
  );
  assert.equal(hidden, 3);
});

test("no match: one line saying so over everything searched", async () => {
  const scan = new FilterScan(/^zz$/, 0);
  await scan.add("a\nb", 0);
  await scan.add("c", 2);
  const { lines, hidden } = scan.finish(target);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!.text, /^no line matches \/\^zz\$\/; … 3 lines hidden: .*"from_line":1,"to_line":3/);
  assert.equal(hidden, 3);
});

test("a secret is masked before matching: a pattern cannot find it", async () => {
  const scan = new FilterScan(/hunter2/, 0, ["hunter2"]);
  await scan.add("password hunter2\nother", 0);
  assert.equal(scan.matches, 0);
});

test("a raw scan matches lines as shown and keeps them as written, context from the part before included", async () => {
  const scan = new FilterScan(/^ERROR/, 1, [], true);
  await scan.add("\x1b[32mok\x1b[0m one\r\nbefore\r", 0);
  await scan.add("\x1b[1;31mERROR\x1b[0m two\r\nafter\r\nlast\r", 2);
  const { lines, hidden } = scan.finish(target);
  assert.deepEqual(
    lines.map((line) => line.text),
    [
      '… 1 lines hidden: terminal_read {"session":"s","mode":"lines","from_line":1,"to_line":1}',
      "before\r",
      "\x1b[1;31mERROR\x1b[0m two\r",
      "after\r",
      '… 1 lines hidden: terminal_read {"session":"s","mode":"lines","from_line":5,"to_line":5}',
    ],
  );
  assert.equal(hidden, 2);
});

test("a raw scan masks secrets in the lines it keeps", async () => {
  const scan = new FilterScan(/^user/, 0, ["hunter2"], true);
  await scan.add("\x1b[1muser\x1b[0m bob hunter2\nother", 0);
  const { lines } = scan.finish(target);
  assert.equal(lines[0]!.text.includes("hunter2"), false, lines[0]!.text);
  assert.match(lines[0]!.text, /^\x1b\[1muser\x1b\[0m bob /);
});
