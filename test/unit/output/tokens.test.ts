import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { EXACT_LIMIT, countTokens, countTokensBounded, fitsTokens } from "../../../src/output/tokens.js";

test("counts with a real BPE tokenizer, not characters ÷ 4", () => {
  assert.equal(countTokens("hello world"), 2);
  assert.equal(countTokens("1234567"), 3); // cl100k groups digits by three
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

test("counts are gpt-tokenizer's cl100k_base counts, piece merging and odd text included", () => {
  // Our counter reads the vocabulary from a byte file and merges on its own (bpe.ts); the
  // package's encoder is the reference it must agree with.
  const require = createRequire(import.meta.url);
  const reference = require("gpt-tokenizer/encoding/cl100k_base") as typeof import("gpt-tokenizer/encoding/cl100k_base");
  const plain = { disallowedSpecial: new Set<string>() };
  const dir = fileURLToPath(new URL("../../fixtures/output/", import.meta.url));
  const texts = readdirSync(dir).filter((name) => name.endsWith(".txt")).map((name) => readFileSync(dir + name, "utf8"));
  texts.push(
    "",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "日本語のテキスト、中文文本 and ünïcödé — ✓ ✗ ⠙ 😀 👍🏽 क्षत्रिय",
    "lone \ud800 high, lone \udc00 low, pair \ud83d\ude00",
    "<|endoftext|><|im_start|>user<|im_end|>",
    "=".repeat(300) + " " + "-_-".repeat(100),
    "\t\t  \r\n\n\n   \u00a0\u3000x",
  );
  for (const text of texts) {
    const expected = reference.countTokens(text, plain);
    assert.equal(countTokens(text), expected, JSON.stringify(text.slice(0, 80)));
    for (const limit of [expected - 1, expected]) {
      assert.equal(fitsTokens(text, limit), reference.isWithinTokenLimit(text, limit, plain) !== false, `limit ${limit}: ${JSON.stringify(text.slice(0, 80))}`);
    }
  }
});
