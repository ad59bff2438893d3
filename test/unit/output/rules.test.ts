// Rule lines padded to the terminal width (pytest, vitest) are cut to their words, and the
// reducers that cut them stay linear on hostile shapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertLinear } from "../scaling.js";
import { cleanLines } from "../../../src/output/clean.js";
import { isBareRule, trimRule } from "../../../src/output/reducers/rules.js";
import { pytest } from "../../../src/output/reducers/pytest.js";
import { jest } from "../../../src/output/reducers/jest.js";
import { cargo } from "../../../src/output/reducers/cargo.js";

test("trimRule keeps the words and two rule characters each side", () => {
  assert.equal(trimRule(`${"=".repeat(40)} FAILURES ${"=".repeat(41)}`), "== FAILURES ==");
  assert.equal(trimRule(`${"_".repeat(30)} test_double[3-7] ${"_".repeat(30)}`), "__ test_double[3-7] __");
  assert.equal(trimRule(`${"⎯".repeat(20)} Failed Tests 2 ${"⎯".repeat(20)}`), "⎯⎯ Failed Tests 2 ⎯⎯");
  // Not a padded heading: left alone.
  assert.equal(trimRule("a == b"), "a == b");
  assert.equal(trimRule("E       assert x == y"), "E       assert x == y");
  assert.ok(isBareRule("  " + "⎯".repeat(60)));
  assert.ok(!isBareRule("---- tests::x stdout ----"));
});

test("vitest: full-width rules and [n/m] separators go, failure titles keep their words", () => {
  const rule = "⎯".repeat(80);
  const text = [
    ` ❯ src/a.test.ts (2)`,
    `${"⎯".repeat(33)} Failed Tests 2 ${"⎯".repeat(33)}`,
    " FAIL  src/a.test.ts > adds",
    "AssertionError: expected 2 to be 3",
    " ❯ src/a.test.ts:4:15",
    `${"⎯".repeat(76)}[1/2]⎯`,
    " FAIL  src/a.test.ts > subtracts",
    "AssertionError: expected 0 to be 1",
    " ❯ src/a.test.ts:8:15",
    `${"⎯".repeat(76)}[2/2]⎯`,
    " Test Files  1 failed (1)",
    "      Tests  2 failed (2)",
    rule,
  ].join("\n");
  const out = jest.reduce(cleanLines(text), { session: "t", firstLine: 1 }).map((line) => line.text);
  assert.deepEqual(out.filter((line) => line.includes("⎯")), ["⎯⎯ Failed Tests 2 ⎯⎯"]);
  for (const kept of ["FAIL  src/a.test.ts > adds", "FAIL  src/a.test.ts > subtracts", "src/a.test.ts:8:15", "Tests  2 failed (2)"]) assert.ok(out.some((line) => line.includes(kept)), kept);
});

test("cargo: the closing failures list drops only the tests already shown with their output", () => {
  const text = [
    "test tests::a ... FAILED",
    "test tests::b ... FAILED",
    "failures:",
    "---- tests::a stdout ----",
    "thread 'tests::a' panicked at src/lib.rs:6:31:",
    "boom",
    "failures:",
    "    tests::a",
    "    tests::b",
    "test result: FAILED. 0 passed; 2 failed",
  ].join("\n");
  const out = cargo.reduce(cleanLines(text), { session: "t", firstLine: 1 }).map((line) => line.text);
  assert.ok(!out.includes("    tests::a"), "tests::a was shown with its panic");
  assert.ok(out.includes("    tests::b"), "tests::b had no output block: the list is where it is named");
});

test("pytest and jest reducers stay linear on 1 MB of rule-shaped lines", () => {
  const shapes: ((size: number) => string)[] = [
    (size) => "=".repeat(size),
    (size) => `=== ${"= ".repeat(size / 2)}`,
    (size) => `=== ${"==== ".repeat(size / 5)}x`,
    (size) => `${"=".repeat(60)} FAILURES ${"=".repeat(60)}\n`.repeat(size / 131) + `${"_".repeat(60)} t ${"_".repeat(60)}\nE ${"x".repeat(100)}\n`.repeat(size / 262),
    (size) => `${"⎯".repeat(100)}[1/2]⎯\n`.repeat(size / 106),
  ];
  for (const shape of shapes) {
    for (const reducer of [pytest, jest]) {
      assertLinear(
        `${reducer.name} on ${JSON.stringify(shape(64).slice(0, 30))}…`,
        (size) => cleanLines(shape(size)),
        (lines) => reducer.reduce(lines, { session: "t", firstLine: 1 }),
      );
    }
  }
});
