// Events (cursor, filters, retention), watchers and the mailbox.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Hive, HiveError, ProfileRegistry, compileWatchPattern, type SessionDescriptor } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

const code = (c: string) => (err: unknown) => err instanceof HiveError && err.code === c;

test("events: cursor pages forward, filters by kind and by targets", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "a", sessionId: "s1", team: "t" });
    hive.agents.register({ name: "b", sessionId: "s2" });
    const start = hive.events.latestCursor();
    hive.agents.setStatus("a", "working");
    hive.agents.setStatus("b", "working");
    hive.mailbox.send("b", "a", "ping");
    hive.events.append({ kind: "watch", sessionId: "s2", data: { line: "ERROR x" } });

    const all = hive.events.since(start);
    assert.deepEqual(all.events.map((e) => e.kind), ["status", "status", "message", "watch"]);
    assert.ok(all.events.every((e, i, arr) => i === 0 || e.id > arr[i - 1]!.id));
    assert.equal(all.cursor, all.events.at(-1)!.id);
    assert.equal(hive.events.since(all.cursor).events.length, 0);
    assert.equal(hive.events.since(all.cursor).cursor, all.cursor, "an empty read keeps the cursor");

    const p1 = hive.events.since(start, { limit: 3 });
    assert.equal(p1.events.length, 3);
    assert.equal(p1.more, true);
    const p2 = hive.events.since(p1.cursor, { limit: 3 });
    assert.deepEqual(p2.events.map((e) => e.kind), ["watch"]);
    assert.equal(p2.more, false);

    assert.deepEqual(hive.events.since(start, { kinds: ["status"] }).events.map((e) => e.agent), ["a", "b"]);
    const sessions: SessionDescriptor[] = [{ id: "s1", name: "one", alive: true }, { id: "s2", name: "two", alive: true }];
    const forTeam = hive.eventsSince(start, { targets: { teams: ["t"] }, sessions });
    assert.deepEqual(forTeam.events.map((e) => [e.kind, e.agent]), [["status", "a"], ["message", "a"]]);
    const forS2 = hive.eventsSince(start, { targets: ["session:s2"], sessions, kinds: ["watch"] });
    assert.deepEqual(forS2.events.map((e) => e.data.line), ["ERROR x"]);
    assert.throws(() => hive.eventsSince(start, { targets: { agents: ["nobody"] }, sessions }), code("unknown"));
    assert.throws(() => hive.events.since(-1), code("invalid"));
    assert.throws(() => hive.events.since(0, { kinds: ["bogus" as never] }), /valid kinds: status, watch, message, lifecycle/);
  } finally {
    done();
  }
});

test("events: retention keeps the newest maxRows, ids never reused, a late reader is told what it missed", () => {
  const { hive, home, done } = openHive({ eventRetention: 5 });
  try {
    for (let i = 1; i <= 12; i++) hive.events.append({ kind: "lifecycle", data: { i } });
    const rows = hive.events.since(0, { limit: 100 });
    assert.deepEqual(rows.events.map((e) => e.data.i), [8, 9, 10, 11, 12]);
    assert.equal(rows.missed, 7);
    assert.equal(hive.events.since(9).missed, 0);
    // Old rows are gone, but the next id still continues from the newest one (AUTOINCREMENT).
    const last = hive.events.latestCursor();
    const next = hive.events.append({ kind: "lifecycle", data: { i: 13 } });
    assert.equal(next.id, last + 1);
    assert.throws(() => Hive.open({ home, eventRetention: 0, profiles: new ProfileRegistry() }), code("invalid"));
  } finally {
    done();
  }
});

test("watchers: persisted with their target spec; a bad regex or flag is refused, naming it", () => {
  const { hive, done } = openHive();
  try {
    const w = hive.watchers.add({ target: { teams: ["backend"] }, pattern: "ERROR|FATAL", flags: "i", label: "errors" });
    assert.equal(w.id, 1);
    assert.deepEqual(hive.watchers.list().map((x) => [x.id, x.target, x.pattern, x.flags, x.label]), [
      [1, { teams: ["backend"] }, "ERROR|FATAL", "i", "errors"],
    ]);
    assert.throws(() => hive.watchers.add({ target: "all", pattern: "(unclosed" }), (err: unknown) =>
      code("invalid")(err) && (err as Error).message.includes('"(unclosed"') && /missing closing \)/.test((err as Error).message));
    assert.throws(() => hive.watchers.add({ target: "all", pattern: "x", flags: "g" }), /flags 'g' are not allowed/);
    assert.throws(() => hive.watchers.add({ target: "all", pattern: "" }), code("invalid"));
    assert.ok(compileWatchPattern("warn", "i").test("WARNING"));

    hive.watchers.recordHit(w, { sessionId: "s1", agent: "api", line: "x".repeat(2000), match: "ERROR" });
    const hit = hive.events.since(0, { kinds: ["watch"] }).events[0]!;
    assert.equal(hit.data.watcher, 1);
    assert.equal((hit.data.line as string).length, 500, "lines are bounded in events");
    hive.watchers.remove(1);
    assert.deepEqual(hive.watchers.list(), []);
    assert.throws(() => hive.watchers.remove(1), /unknown watcher '1'/);
  } finally {
    done();
  }
});

test("mailbox: send to a known agent, read marks read, unread count, persisted", () => {
  const { hive, home, done } = openHive();
  try {
    hive.agents.register({ name: "lead", sessionId: "s1" });
    hive.agents.register({ name: "dev", sessionId: "s2" });
    assert.throws(() => hive.mailbox.send("lead", "ghost", "hi"), /unknown agent 'ghost'; valid agents: dev, lead/);
    assert.throws(() => hive.mailbox.send("lead", "dev", ""), code("invalid"));
    assert.throws(() => hive.mailbox.send("lead", "dev", "x".repeat(70_000)), /limit is 65536/);
    hive.mailbox.send("lead", "dev", "first");
    hive.mailbox.send("user", "dev", "second");
    assert.equal(hive.mailbox.unreadCount("dev"), 2);
    assert.equal(hive.mailbox.unreadCount("lead"), 0);

    const peek = hive.mailbox.read("dev", { markRead: false });
    assert.deepEqual(peek.map((m) => [m.from, m.text, m.readAt]), [["lead", "first", null], ["user", "second", null]]);
    assert.equal(hive.mailbox.unreadCount("dev"), 2);
    const got = hive.mailbox.read("dev", { limit: 1 });
    assert.deepEqual(got.map((m) => m.text), ["first"]);
    assert.ok(got[0]!.readAt !== null);
    assert.equal(hive.mailbox.unreadCount("dev"), 1);
    assert.deepEqual(hive.mailbox.read("dev", { unreadOnly: false, markRead: false }).map((m) => m.text), ["first", "second"]);
    const msgEvents = hive.events.since(0, { kinds: ["message"] }).events;
    assert.deepEqual(msgEvents.map((e) => [e.agent, e.sessionId, e.data.from]), [["dev", "s2", "lead"], ["dev", "s2", "user"]]);

    // Another process (another Hive on the same file) sees the same mailbox.
    const other = Hive.open({ home, profiles: new ProfileRegistry() });
    try {
      assert.deepEqual(other.mailbox.read("dev").map((m) => m.text), ["second"]);
      assert.equal(hive.mailbox.unreadCount("dev"), 0);
    } finally {
      other.close();
    }
  } finally {
    done();
  }
});
