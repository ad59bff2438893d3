// The seal of a 2026 confirmation (src/mcp/confirm-seal.ts): one key per home (0600, shared by
// every process on it), a digest blind to key order and to confirm, and a nonce claimed once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ServerContext } from "@modelcontextprotocol/server";
import { callDigest, claimOnce, mintConfirm, openConfirm } from "../../../src/mcp/confirm-seal.js";
import { removeTempFolder, tempFolder } from "../../temp-folder.js";

const ctx = {} as ServerContext;

test("the digest names the tool and every argument but confirm, whatever their order", () => {
  const a = callDigest("terminal_run", { session: "sh", command: "rm -rf x", opts: { b: 1, a: 2 } });
  assert.equal(callDigest("terminal_run", { opts: { a: 2, b: 1 }, command: "rm -rf x", session: "sh", confirm: true }), a);
  assert.notEqual(callDigest("hive_message", { session: "sh", command: "rm -rf x", opts: { b: 1, a: 2 } }), a);
  assert.notEqual(callDigest("terminal_run", { session: "sh", command: "rm -rf y", opts: { b: 1, a: 2 } }), a);
});

test("a state opens on its own home only; the key is made once, 0600", async () => {
  const base = tempFolder("termhive-seal-");
  try {
    const [one, two] = [join(base, "one"), join(base, "two")];
    const state = await mintConfirm(one, "digest", "why");
    const key = readFileSync(join(one, "confirm.key"));
    assert.equal(statSync(join(one, "confirm.key")).mode & 0o777, 0o600);
    assert.equal(key.length, 32);
    const opened = await openConfirm(one, state, ctx);
    assert.ok("digest" in opened && opened.digest === "digest" && opened.reason === "why", JSON.stringify(opened));
    assert.match((await openConfirm(two, state, ctx) as { invalid: string }).invalid, /not sealed by this termhive home/);
    await mintConfirm(one, "again", "why");
    assert.deepEqual(readFileSync(join(one, "confirm.key")), key, "the key is kept");
  } finally {
    removeTempFolder(base);
  }
});

test("a nonce is claimed once per home", () => {
  const base = tempFolder("termhive-seal-");
  try {
    assert.equal(claimOnce(base, "AAAAAAAAAAAAAAAAAAAAAA"), true);
    assert.equal(claimOnce(base, "AAAAAAAAAAAAAAAAAAAAAA"), false);
    assert.equal(claimOnce(base, "BBBBBBBBBBBBBBBBBBBBBB"), true);
  } finally {
    removeTempFolder(base);
  }
});
