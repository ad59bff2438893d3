// Removing what a sandbox left without following its links (src/sandbox/safe-remove.ts): a
// tree deeper than the descriptors it may hold, links to a victim folder at every level, a
// FIFO; the victim keeps every file, the tree is gone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openFolder, removeEntry, removeFolder } from "../../src/sandbox/safe-remove.js";

test("a tree 40 levels deep with links to a victim at each level and a FIFO: removed whole, the victim untouched", () => {
  const root = mkdtempSync(join(tmpdir(), "safe-remove-"));
  try {
    const victim = join(root, "victim");
    mkdirSync(victim);
    for (let i = 0; i < 20; i++) writeFileSync(join(victim, `f${i}`), "keep");
    const relay = join(root, "relay");
    let dir = join(relay, "deep");
    mkdirSync(dir, { recursive: true });
    for (let level = 0; level < 40; level++) {
      symlinkSync(victim, join(dir, "link"));
      for (let i = 0; i < 3; i++) writeFileSync(join(dir, `f${i}`), "x");
      dir = join(dir, "d");
      mkdirSync(dir);
    }
    execFileSync("mkfifo", [join(relay, "fifo")]);
    symlinkSync(victim, join(relay, "top-link"));
    const fd = openFolder(relay);
    try {
      assert.equal(removeEntry(fd, "deep"), true);
      assert.equal(removeEntry(fd, "fifo"), true);
      assert.equal(removeEntry(fd, "top-link"), true);
    } finally {
      closeSync(fd);
    }
    assert.deepEqual(readdirSync(relay), []);
    assert.equal(readdirSync(victim).length, 20);
    assert.equal(removeFolder(relay), true);
    assert.equal(existsSync(relay), false);
    assert.equal(readdirSync(victim).length, 20);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a budget too small for the tree leaves the rest for a later pass, saying so; the next pass finishes", () => {
  const root = mkdtempSync(join(tmpdir(), "safe-remove-"));
  try {
    const relay = join(root, "relay");
    mkdirSync(join(relay, "many"), { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(join(relay, "many", `f${i}`), "x");
    const fd = openFolder(relay);
    try {
      assert.equal(removeEntry(fd, "many", { left: 10 }), false);
      assert.ok(existsSync(join(relay, "many")));
      assert.equal(removeEntry(fd, "many"), true);
    } finally {
      closeSync(fd);
    }
    assert.deepEqual(readdirSync(relay), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a link given as the folder itself is refused, not followed", () => {
  const root = mkdtempSync(join(tmpdir(), "safe-remove-"));
  try {
    const victim = join(root, "victim");
    mkdirSync(victim);
    writeFileSync(join(victim, "f"), "keep");
    symlinkSync(victim, join(root, "relay"));
    assert.throws(() => removeFolder(join(root, "relay")), /ELOOP|ENOTDIR/);
    assert.deepEqual(readdirSync(victim), ["f"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a relay folder filled with 3000 names is emptied over bounded passes, each saying whether another is due; a request among them still arrives", async () => {
  const { takeRelayRequests, writeRelayRequest } = await import("../../src/sandbox/relay.js");
  const root = mkdtempSync(join(tmpdir(), "safe-remove-"));
  try {
    const relay = join(root, "relay");
    mkdirSync(relay);
    for (let i = 0; i < 3000; i++) writeFileSync(join(relay, `junk${i}`), "");
    writeRelayRequest(relay, { kind: "status", args: ["working"] });
    const first = takeRelayRequests(relay);
    assert.equal(first.more, true);
    assert.ok(readdirSync(relay).length > 0);
    let passes = 1;
    let requests = first.requests.length;
    for (let more: boolean = first.more; more; passes++) {
      const next = takeRelayRequests(relay);
      requests += next.requests.length;
      more = next.more;
    }
    assert.deepEqual(readdirSync(relay), []);
    assert.equal(requests, 1);
    assert.ok(passes >= 2 && passes <= 3, `${passes} passes`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
