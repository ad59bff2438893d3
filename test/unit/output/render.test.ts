import { test } from "node:test";
import assert from "node:assert/strict";
import { assertLinear } from "../scaling.js";
import { renderOutput } from "../../../src/output/index.js";
import { countTokens } from "../../../src/output/tokens.js";

const seq = (n: number): string => Array.from({ length: n }, (_, i) => String(i + 1)).join("\r\n") + "\r\n";

test("seq 1 200000 folds under 250 tokens with first and last lines visible", () => {
  const result = renderOutput(seq(200_000), { command: "seq 1 200000", firstLine: 7, session: "build" });
  const lines = result.text.split("\n");
  assert.ok(result.tokens <= 250, `${result.tokens} tokens`);
  assert.equal(lines[0], "1");
  assert.equal(lines[lines.length - 1], "200000");
  assert.ok(result.text.includes('terminal_read {"session":"build","mode":"lines","from_line":27,"to_line":199976}'));
  assert.equal(result.folded_lines, 199_950);
  assert.equal(result.raw_tokens_estimated, true);
  assert.equal(result.tokens, countTokens(result.text));
});

test("small output comes back whole with exact token counts", () => {
  const result = renderOutput("\x1b[32mhello\x1b[0m\r\nworld\r\n", { firstLine: 1, session: "s" });
  assert.equal(result.text, "hello\nworld");
  assert.equal(result.folded_lines, 0);
  assert.equal(result.tokens, countTokens("hello\nworld"));
  assert.equal(result.raw_tokens, countTokens("\x1b[32mhello\x1b[0m\r\nworld\r\n"));
  assert.equal(result.reducer, undefined);
});

test("maxTokens is honoured", () => {
  const text = Array.from({ length: 400 }, (_, i) => `compiling module ${i} of the project`).join("\n");
  assert.equal(renderOutput(text, { firstLine: 1, session: "s", maxTokens: 10_000 }).folded_lines, 0);
  const small = renderOutput(text, { firstLine: 1, session: "s", maxTokens: 300 });
  assert.ok(small.folded_lines > 0 && small.tokens <= 300);
});

test("reduce:false returns cleaned output unreduced", () => {
  const tsc = "a.ts:1:7 - error TS2322: bad\n\n1 const a: number = 'x';\n        ~\n\nFound 1 error in a.ts:1\n";
  const reduced = renderOutput(tsc.repeat(10), { command: "tsc", firstLine: 1, session: "s" });
  const unreduced = renderOutput(tsc.repeat(10), { command: "tsc", firstLine: 1, session: "s", reduce: false });
  assert.equal(reduced.reducer, "tsc");
  assert.equal(unreduced.reducer, undefined);
  assert.ok(unreduced.text.includes("1 const a: number = 'x';"));
  assert.ok(!reduced.text.includes("1 const a: number = 'x';"));
});

test("raw keeps escape codes", () => {
  const result = renderOutput("\x1b[31mred\x1b[0m", { firstLine: 1, session: "s", raw: true });
  assert.equal(result.text, "\x1b[31mred\x1b[0m");
});

test("raw with a filter: lines matched as shown, kept with their escape codes", () => {
  const text = "\x1b[32mok\x1b[0m 1\r\n\x1b[31mERROR\x1b[0m 2\r\nok 3\r\nok 4\r\n\x1b[1;31mERROR\x1b[0m 5\r";
  const result = renderOutput(text, { firstLine: 1, session: "s", raw: true, filter: /^ERROR \d$/ });
  assert.deepEqual(result.text.split("\n"), [
    '… 1 lines hidden: terminal_read {"session":"s","mode":"lines","from_line":1,"to_line":1}',
    "\x1b[31mERROR\x1b[0m 2\r",
    '… 2 lines hidden: terminal_read {"session":"s","mode":"lines","from_line":3,"to_line":4}',
    "\x1b[1;31mERROR\x1b[0m 5\r",
  ]);
  assert.equal(result.folded_lines, 3);
});

test("filter keeps matching lines with context; no reducer runs", () => {
  const text = Array.from({ length: 50 }, (_, i) => (i === 20 ? "boom: failure" : `fine ${i}`)).join("\n");
  const result = renderOutput(text, { firstLine: 1, session: "s", filter: /boom/, context: 1 });
  assert.deepEqual(result.text.split("\n").slice(1, 4), ["fine 19", "boom: failure", "fine 21"]);
  assert.equal(result.folded_lines, 47);
});

test("secrets are masked, including inside lines that get cut", () => {
  const secret = "hunter2-very-secret";
  const long = `token=${secret} ${"x".repeat(2000)} again ${secret}`;
  const text = [`password is ${secret}`, ...Array.from({ length: 3000 }, (_, i) => (i === 1500 ? `error ${long}` : `row ${i}`))].join("\n");
  const result = renderOutput(text, { firstLine: 1, session: "s", secrets: [secret] });
  assert.ok(!result.text.includes(secret));
  assert.ok(!result.text.includes("hunter2"));
  assert.ok(result.text.includes("password is ••••"));
});

test("rendering output grows linearly with its size (1 MB; the 50 ms target is in npm run bench pure)", () => {
  const block = Array.from({ length: 200 }, (_, i) => `\x1b[32m[${i}]\x1b[0m src/module/file${i}.ts compiled in ${i}ms\r\n`).join("");
  assertLinear(
    "renderOutput",
    (size) => block.repeat(Math.ceil(size / block.length)).slice(0, size),
    (text) => renderOutput(text, { firstLine: 1, session: "s" }),
  );
});
