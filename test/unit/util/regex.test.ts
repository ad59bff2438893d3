// User regexes run on RE2 semantics: linear time whatever the pattern and flags.
import { test } from "node:test";
import assert from "node:assert/strict";
import { InvalidRegexError, SafeRegex } from "../../../src/util/regex.js";

test("patterns that backtrack catastrophically in JavaScript answer at once, with any flag", () => {
  const subject = "a".repeat(40) + "!";
  // Each of these takes 2^40 steps on a backtracking engine: the test would never end.
  assert.equal(new SafeRegex("(a+)+$", "watch", "i").test(subject), false);
  assert.equal(new SafeRegex("(a+)+$", "watch", "u").test(subject), false);
  assert.equal(new SafeRegex("^(a|aa)+$", "pattern", "m").test(subject), false);
  assert.equal(new SafeRegex("(.*a){20}x").test("a".repeat(5000)), false);
  assert.deepEqual(new SafeRegex("(a+)+!").exec(subject), { index: 0, text: subject });
});

test("flags: i, m (default), s, u; g and y ignored; others refused", () => {
  assert.ok(new SafeRegex("error", "p", "i").test("ERROR: x"));
  assert.ok(new SafeRegex("^two$").test("one\ntwo\nthree"));
  assert.equal(new SafeRegex("^two$", "p", "").test("one\ntwo\nthree"), false);
  assert.ok(new SafeRegex("a.b", "p", "s").test("a\nb"));
  assert.ok(new SafeRegex("x", "p", "gy").test("x"));
  assert.throws(() => new SafeRegex("x", "p", "q"), /flag "q" is not supported/);
});

test("terminal line ends: \\r\\n and a lone \\r end a line, as in JavaScript", () => {
  assert.ok(new SafeRegex("^DONE$").test("first\r\nDONE\r\nnext"));
  assert.ok(new SafeRegex("^60%$").test("50%\r60%\r\n"));
  assert.deepEqual(new SafeRegex("DONE").exec("x\r\nDONE"), { index: 3, text: "DONE" });
});

test("what RE2 cannot run in linear time is refused, naming the construct", () => {
  const cases: [string, RegExp][] = [
    ["(?<=a)b", /lookbehind/],
    ["(?<!a)b", /negative lookbehind/],
    ["a(?=b)", /lookahead/],
    ["a(?!b)", /negative lookahead/],
    ["(a)\\1", /backreference `\\1`/],
    ["(?<x>a)\\k<x>", /named backreference/],
  ];
  for (const [source, what] of cases) {
    assert.throws(() => new SafeRegex(source), (error: unknown) => error instanceof InvalidRegexError && what.test((error as Error).message) && (error as Error).message.includes(JSON.stringify(source)));
  }
  // An escaped backslash before a digit is a literal, not a backreference.
  assert.ok(new SafeRegex("a\\\\1").test("a\\1"));
  assert.throws(() => new SafeRegex("(unclosed", "filter"), /invalid filter regex "\(unclosed": missing closing \)/);
  assert.throws(() => new SafeRegex("x".repeat(5000)), /the limit is 4000/);
});
