// A costly user regex × text pair runs in a worker thread (SafeRegex.execAsync): same answers
// as the in-place match, and a match that runs past its time is stopped with an error that
// says so — never a silent "no match".
import { test } from "node:test";
import assert from "node:assert/strict";
import { SafeRegex } from "../../../src/util/regex.js";
import { RegexTimeoutError } from "../../../src/util/regex-worker.js";
import { classify } from "../../../src/verbs/errors.js";

const LONG = "x".repeat(60_000) + "\r\nerror: disk full\r\n" + "y".repeat(60_000);

test("execAsync finds what exec finds, in place or in the worker, with \\r as a line end", async () => {
  for (const [pattern, flags] of [["^error: (\\w+) full$", "m"], ["DISK", "i"], ["(.*x){5}\\n", "m"], ["nowhere", "m"]] as const) {
    const regex = new SafeRegex(pattern, "pattern", flags);
    assert.deepEqual(await regex.execAsync(LONG), regex.exec(LONG), pattern);
    assert.equal(await regex.testAsync("short error: disk full"), regex.test("short error: disk full"), pattern);
  }
});

test("a worker match past its time is stopped with an error naming the pattern and the text size", async () => {
  // ~1.5 s on this machine's linear engine (a 'c' is in the text, so no literal shortcut ends it
  // early), thirty times the 50 ms allowed: stopped on any machine.
  const regex = new SafeRegex("(a|aa){40}c");
  await assert.rejects(regex.execAsync("a".repeat(200_000) + "bc", 50), (error: Error) => {
    assert.ok(error instanceof RegexTimeoutError);
    assert.match(error.message, /\(a\|aa\)\{40\}c.*200002 characters within 50 ms/);
    // An answer about the caller's pattern, not "internal error".
    assert.deepEqual(classify(error), { code: "invalid", message: error.message });
    return true;
  });
});
