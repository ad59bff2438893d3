import { test } from "node:test";
import assert from "node:assert/strict";
import { EXACT_LIMIT, countTokens, countTokensBounded, fitsTokens } from "../../../src/output/tokens.js";

test("counts with a real BPE tokenizer, not characters ÷ 4", () => {
  assert.equal(countTokens("hello world"), 2);
  assert.equal(countTokens("1234567"), 3); // o200k groups digits by three
});

test("special-token text in output is plain text, not an error", () => {
  assert.ok(countTokens("x <|endoftext|> y") > 3);
});

test("exact up to the bound, estimated and flagged beyond it", () => {
  const small = "error: something failed\n".repeat(100);
  assert.deepEqual(countTokensBounded(small), { count: countTokens(small), estimated: false });
  const big = Array.from({ length: 60_000 }, (_, i) => `line ${i} of the log`).join("\n");
  assert.ok(big.length > EXACT_LIMIT);
  const estimate = countTokensBounded(big);
  assert.equal(estimate.estimated, true);
  const exact = countTokens(big);
  assert.ok(Math.abs(estimate.count - exact) / exact < 0.1, `${estimate.count} vs ${exact}`);
});

test("fitsTokens answers without counting past the limit", () => {
  assert.equal(fitsTokens("a b c", 3), true);
  assert.equal(fitsTokens("a b c d", 3), false);
});
