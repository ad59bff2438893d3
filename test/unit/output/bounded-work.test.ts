// A huge single "word" (one line, no spaces) is folded and counted in bounded work: what is
// merged by the tokenizer is counted (bpe.ts' bpeWork), not wall time, so this holds on a
// loaded machine. Merging costs ~1 µs a byte, so these bounds are what keeps a result from
// holding the event loop (and every other client of the server) for 100 ms and more.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bpeWork, countBpeSteps, STEP } from "../../../src/output/bpe.js";
import { renderOutput, renderOutputYielding } from "../../../src/output/index.js";
import { countTokens, countTokensBounded, countTokensBoundedSteps, fitsTokens } from "../../../src/output/tokens.js";

const MB = 1024 * 1024;

function merged<T>(work: () => T): [number, T] {
  const before = bpeWork.merged;
  const value = work();
  return [bpeWork.merged - before, value];
}

function encoded<T>(work: () => T): number {
  const before = bpeWork.encoded;
  work();
  return bpeWork.encoded - before;
}

test("a 1 MB single-word line renders in bounded merging, with its count marked as an estimate", () => {
  const word = "x".repeat(MB);
  const [work, rendered] = merged(() => renderOutput(`${word}\n$ `, { firstLine: 1, session: "s" }));
  // Three 4 KB samples for raw_tokens, then 4 KB chunks until over the 2000-token budget.
  assert.ok(work <= 40 * 1024, `merged ${work} bytes`);
  assert.ok(encoded(() => renderOutput(`${word}\n$ `, { firstLine: 1, session: "s" })) <= 64 * 1024);
  assert.equal(rendered.raw_tokens_estimated, true);
  // "xxxxxxxx" is one cl100k token: the estimate from the word's start scales to its length.
  assert.ok(Math.abs(rendered.raw_tokens - MB / 8) / (MB / 8) < 0.02, `raw_tokens ${rendered.raw_tokens}`);
  assert.match(rendered.text, /…\[\d+ chars cut\]…/);
  assert.equal(rendered.tokens, countTokens(rendered.text));
});

test("the bound does not grow with the word: 1 MB costs what 128 KB costs", () => {
  const [small] = merged(() => renderOutput("x".repeat(128 * 1024), { firstLine: 1, session: "s" }));
  const [large] = merged(() => renderOutput("y".repeat(MB), { firstLine: 1, session: "s" }));
  assert.ok(large <= small * 1.5 + 8 * 1024, `128 KB: ${small}, 1 MB: ${large}`);
});

test("a long word under 64 KB is estimated from its first 4 KB, and says so", () => {
  const word = "ab".repeat(20_000);
  const [work, count] = merged(() => countTokensBounded(word));
  assert.ok(work <= 4 * 1024, `merged ${work} bytes`);
  assert.equal(count.estimated, true);
  const exact = countTokens(word);
  assert.ok(Math.abs(count.count - exact) / exact < 0.02, `${count.count} vs ${exact}`);
  assert.deepEqual(countTokensBounded("ab ".repeat(1000)), { count: countTokens("ab ".repeat(1000)), estimated: false });
});

test("deciding a budget stops merging once over it", () => {
  const [work, fits] = merged(() => fitsTokens("z".repeat(MB), 2000));
  assert.equal(fits, false);
  assert.ok(work <= 32 * 1024, `merged ${work} bytes`);
});

test("counting yields between slices of its work, so the server can give the loop back", () => {
  const steps = countBpeSteps("q".repeat(200_000), { limit: 20_000 });
  let yields = 0;
  let before = bpeWork.merged;
  let longest = 0;
  for (let step = steps.next(); !step.done; step = steps.next()) {
    assert.equal(step.value, STEP);
    yields++;
    longest = Math.max(longest, bpeWork.merged - before);
    before = bpeWork.merged;
  }
  assert.ok(yields >= 4, `${yields} yields`);
  assert.ok(longest <= 16 * 1024, `a slice merged ${longest} bytes`);
});

test("a bounded count of a huge word gives the loop back between its samples", () => {
  const steps = countTokensBoundedSteps("v".repeat(MB));
  let yields = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) yields++;
  assert.equal(step.value.estimated, true);
  assert.ok(yields >= 2, `${yields} yields`);
});

test("an exact count of many words yields between slices as well", () => {
  // Each word its own (a repeated word is merged once and remembered).
  let seed = 7;
  const letter = () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26));
  const words = Array.from({ length: 400 }, () => Array.from({ length: 200 }, letter).join("")).join(" ");
  const steps = countBpeSteps(words);
  let yields = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) yields++;
  assert.equal(step.value.count, countTokens(words));
  assert.ok(yields >= 4, `${yields} yields`);
});

test("the yielding renderer gives the same result as the plain one", async () => {
  const text = `${"w".repeat(300_000)}\nerror: done\n`;
  const opts = { firstLine: 1, session: "s" };
  assert.deepEqual(await renderOutputYielding(text, opts), renderOutput(text, opts));
});
