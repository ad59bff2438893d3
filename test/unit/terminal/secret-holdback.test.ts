import { test } from "node:test";
import assert from "node:assert/strict";
import { SecretHoldback } from "../../../src/terminal/model/secret-holdback.js";
import { redactSecrets } from "../../../src/redact.js";

function recordChunks(chunks: string[], secrets: string[]): string {
  let out = "";
  const holdback = new SecretHoldback(() => secrets, (masked) => (out += masked));
  for (const chunk of chunks) holdback.push(chunk);
  holdback.flush();
  return out;
}

test("a secret split at any point across two chunks is masked, and nothing else changes", () => {
  const secrets = ["hunter2-SECRET", "tok_abc"];
  const text = "login ok\npassword: hunter2-SECRET\nthen tok_abc and hunter2-SECRET again\n";
  for (let cut = 0; cut <= text.length; cut++) {
    const out = recordChunks([text.slice(0, cut), text.slice(cut)], secrets);
    assert.equal(out, redactSecrets(text, secrets), `cut at ${cut}`);
    assert.doesNotMatch(out, /hunter2|tok_abc/);
  }
});

test("three-way splits, byte-sized chunks, overlapping secrets", () => {
  const secrets = ["abcabc", "cab"];
  const text = "xxabcabcabyyabcabcabc";
  for (let i = 0; i <= text.length; i++) {
    for (let j = i; j <= text.length; j++) {
      assert.equal(recordChunks([text.slice(0, i), text.slice(i, j), text.slice(j)], secrets), redactSecrets(text, secrets), `${i}/${j}`);
    }
  }
  assert.equal(recordChunks([...text], secrets), redactSecrets(text, secrets));
});

test("no secrets: chunks pass straight through, nothing held", () => {
  const seen: string[] = [];
  const holdback = new SecretHoldback(() => [], (masked) => seen.push(masked));
  holdback.push("abc");
  holdback.push("def");
  assert.deepEqual(seen, ["abc", "def"]);
});

test("a held tail is written once output pauses", async () => {
  const seen: string[] = [];
  const holdback = new SecretHoldback(() => ["s3cret-value"], (masked) => seen.push(masked), 20);
  holdback.push("prompt$ ");
  // "prompt$ " could be followed by the secret, so part of it waits; after the pause it is written.
  const deadline = Date.now() + 5_000;
  while (seen.join("") !== "prompt$ " && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.equal(seen.join(""), "prompt$ ");
});
