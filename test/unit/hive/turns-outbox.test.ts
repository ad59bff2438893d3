// Turns (the work a typed message started) and the outbox (messages queued for busy agents):
// state in SQLite, so two Hive objects on one file (two processes) see and claim the same rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { CLAIM_STALE_MS, Hive, ProfileRegistry, SCHEMA_VERSION, TURN_GRACE_MS } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

test("a turn holds idle while typing, through the echo, until the agent was busy and came back", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "a", sessionId: "s1" });
    hive.agents.setStatus("a", "idle");
    hive.store.write(() => hive.turns.begin(["a"]));
    // The paste's echo looks like work and its pause like idle: neither ends the turn.
    hive.agents.setStatus("a", "working");
    hive.agents.setStatus("a", "idle");
    assert.equal(hive.turns.holdsIdle("a"), true);
    hive.turns.submitted(["a"], () => false);
    assert.equal(hive.turns.holdsIdle("a"), true, "within the grace");
    assert.equal(hive.turns.holdsIdle("a", Date.now() + TURN_GRACE_MS + 1), false, "an instant answer: the grace ends it");
    hive.agents.setStatus("a", "working");
    assert.equal(hive.turns.holdsIdle("a", Date.now() + TURN_GRACE_MS + 1), true, "seen busy: held past the grace");
    hive.agents.setStatus("a", "idle");
    assert.equal(hive.turns.holdsIdle("a"), false, "busy and back: the turn is over");
  } finally {
    done();
  }
});

test("the outbox keeps order per session, is claimed by one of two processes, cancels and expires", () => {
  const { hive, home, done } = openHive();
  const other = Hive.open({ home, profiles: new ProfileRegistry() });
  try {
    const m1 = hive.outbox.add({ sessionId: "s1", agents: ["a"], text: "one", level: "agent", source: "agent:a", submit: true });
    const m2 = hive.outbox.add({ sessionId: "s1", agents: ["a"], text: "two", level: "agent", source: "agent:a", submit: true });
    assert.deepEqual(other.outbox.list("a").map((m) => m.text), ["one", "two"]);
    const first = hive.outbox.claim("s1", "p1", () => true);
    assert.equal(first?.id, m1.id);
    assert.equal(other.outbox.claim("s1", "p2", () => true), undefined, "claimed by p1: not typed twice");
    assert.equal(other.outbox.cancel(m1.id)?.claimedBy, "p1", "a message being typed is not cancelled");
    hive.outbox.done(m1.id);
    assert.equal(other.outbox.claim("s1", "p2", () => false), undefined, "not ready: stays queued");
    assert.equal(other.outbox.cancel(m2.id)?.text, "two");
    assert.equal(hive.outbox.hasFor("s1"), false);
    hive.outbox.add({ sessionId: "s2", agents: ["b"], text: "late", level: "broadcast", source: "broadcast", submit: true, ttlMs: 1 });
    assert.deepEqual(other.outbox.expire(Date.now() + 5).map((m) => m.text), ["late"]);
  } finally {
    other.close();
    done();
  }
});

test("a claim held past CLAIM_STALE_MS (its process died typing) is taken over; a fresh one is not", () => {
  const { hive, home, done } = openHive();
  const other = Hive.open({ home, profiles: new ProfileRegistry() });
  try {
    const m = hive.outbox.add({ sessionId: "s1", agents: ["a"], text: "one", level: "agent", source: "agent:a", submit: true });
    const claimedAt = Date.now();
    assert.equal(hive.outbox.claim("s1", "p1", () => true, claimedAt)?.id, m.id);
    assert.equal(other.outbox.claim("s1", "p2", () => true, claimedAt + CLAIM_STALE_MS - 1), undefined, "still being typed by p1");
    const retaken = other.outbox.claim("s1", "p2", () => true, claimedAt + CLAIM_STALE_MS);
    assert.equal(retaken?.id, m.id, "p1 died holding it: the queue goes on");
    assert.equal(retaken?.claimedBy, "p2");
  } finally {
    other.close();
    done();
  }
});

test("a v1 hive.db opens and is migrated to the turns and outbox schema", () => {
  const { hive, home, done } = openHive();
  hive.close();
  const raw = new Database(join(home, "hive.db"));
  raw.exec("DROP TABLE turns; DROP TABLE outbox; DROP TABLE notifications; DROP TABLE agent_launches; DROP TABLE permission_asks; DROP TABLE hook_prompts;"); // and what later versions added
  raw.pragma("user_version = 1");
  raw.close();
  const again = Hive.open({ home, profiles: new ProfileRegistry() });
  try {
    assert.equal(again.store.schemaVersion, SCHEMA_VERSION);
    assert.equal(again.outbox.list().length, 0);
    assert.equal(again.turns.holdsIdle("x"), false);
  } finally {
    again.close();
    done();
  }
});

test("a claim of a process that died is retaken at once, with the turn it had begun; one past Enter says so", () => {
  const { hive, home, done } = openHive();
  const other = Hive.open({ home, profiles: new ProfileRegistry() });
  const dead = spawnSync("true").pid!; // exited: its pid names no process
  try {
    hive.agents.register({ name: "a", sessionId: "s1" });
    const m1 = hive.outbox.add({ sessionId: "s1", agents: ["a"], text: "one", level: "agent", source: "agent:a", submit: true });
    const claimer = `${dead}:abcd`;
    hive.outbox.claim("s1", claimer, () => {
      hive.turns.begin(["a"]);
      return true;
    });
    assert.equal(other.outbox.claim("s1", `${process.pid}:live`, () => !other.turns.holdsIdle("a"))?.orphan?.entered, false, "retaken at once, its typing turn gone");
    other.outbox.release(m1.id);
    hive.outbox.claim("s1", claimer, () => true);
    hive.outbox.entering(m1.id, claimer);
    assert.equal(other.outbox.claim("s1", `${process.pid}:live`, () => true)?.orphan?.entered, true, "Enter was pressed for it: not to be typed again");
    other.outbox.release(m1.id);
    assert.equal(hive.outbox.claim("s1", `${process.pid}:one`, () => true)?.orphan, undefined);
    assert.equal(other.outbox.claim("s1", `${process.pid}:two`, () => true), undefined, "a live process's claim holds");
  } finally {
    other.close();
    done();
  }
});

test("ready() is asked with the head it would claim: a retaken one says so (its text may sit on the input line, needing only Enter)", () => {
  const { hive, home, done } = openHive();
  const other = Hive.open({ home, profiles: new ProfileRegistry() });
  const dead = spawnSync("true").pid!;
  try {
    hive.agents.register({ name: "a", sessionId: "s1" });
    const m1 = hive.outbox.add({ sessionId: "s1", agents: ["a"], text: "echo one >> out", level: "agent", source: "agent:a", submit: true });
    const asked: { id: number; orphan: boolean }[] = [];
    hive.outbox.claim("s1", `${process.pid}:first`, (head) => (asked.push({ id: head.id, orphan: head.orphan !== undefined }), false));
    hive.outbox.claim("s1", `${dead}:abcd`, () => true);
    const retaken = other.outbox.claim("s1", `${process.pid}:live`, (head) => (asked.push({ id: head.id, orphan: head.orphan !== undefined }), head.orphan !== undefined));
    assert.deepEqual(asked, [{ id: m1.id, orphan: false }, { id: m1.id, orphan: true }]);
    assert.equal(retaken?.id, m1.id, "claimed on what ready() saw of it");
  } finally {
    other.close();
    done();
  }
});
