// Agents and teams: CRUD, refusals, cycles, removal semantics, exited agents, events.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DETAIL_EVENT_MS, Hive, HiveError, ProfileRegistry } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

const code = (c: string) => (err: unknown) => err instanceof HiveError && err.code === c;

test("register binds a name to a session; a duplicate name is refused unless replace: true", () => {
  const { hive, done } = openHive();
  try {
    const r = hive.registerAgent({ name: "coder", sessionId: "s1", sessionName: "build", profile: "claude", team: "backend" });
    assert.equal(r.createdTeam, true);
    assert.equal(r.replaced, null);
    assert.deepEqual(
      { ...hive.agents.get("coder"), createdAt: 0, updatedAt: 0 },
      { name: "coder", sessionId: "s1", sessionName: "build", profile: "claude", team: "backend", status: "starting",
        statusDetail: null, statusSource: "service", exitCode: null, createdAt: 0, updatedAt: 0 },
    );
    assert.throws(() => hive.agents.register({ name: "coder", sessionId: "s2" }), (err: unknown) =>
      code("duplicate")(err) && /already registered.*s1.*replace: true/.test((err as Error).message));
    const again = hive.agents.register({ name: "coder", sessionId: "s2", replace: true });
    assert.equal(again.replaced?.sessionId, "s1");
    assert.equal(hive.agents.get("coder").sessionId, "s2");
    assert.equal(hive.agents.get("coder").team, null, "a replace rebinds from scratch");
  } finally {
    done();
  }
});

test("a replace with keepTeam keeps the team the row has now (a restore); with no row, the team given", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "alice", sessionId: "s1" });
    hive.agents.assign("alice", "backend");
    const back = hive.agents.register({ name: "alice", sessionId: "s2", team: null, replace: true, keepTeam: true });
    assert.equal(back.agent.team, "backend");
    assert.equal(hive.agents.get("alice").team, "backend");
    hive.agents.unassign("alice");
    hive.agents.register({ name: "alice", sessionId: "s3", team: "frontend", replace: true, keepTeam: true });
    assert.equal(hive.agents.get("alice").team, null, "left its team: stays out of teams");
    hive.agents.register({ name: "bob", sessionId: "s4", team: "frontend", replace: true, keepTeam: true });
    assert.equal(hive.agents.get("bob").team, "frontend");
  } finally {
    done();
  }
});

test("bad names, unknown profiles and unknown agents are refused with the valid choices", () => {
  const { hive, done } = openHive();
  try {
    assert.throws(() => hive.agents.register({ name: "has space", sessionId: "s" }), code("invalid"));
    assert.throws(() => hive.agents.register({ name: "", sessionId: "s" }), code("invalid"));
    assert.throws(() => hive.agents.register({ name: "ok", sessionId: "" }), code("invalid"));
    assert.throws(() => hive.registerAgent({ name: "ok", sessionId: "s", profile: "gpt-pilot" }),
      /unknown profile 'gpt-pilot'; valid profiles: aider, claude, codex, shell/);
    hive.agents.register({ name: "a1", sessionId: "s1" });
    assert.throws(() => hive.agents.get("a2"), /unknown agent 'a2'; valid agents: a1/);
    assert.throws(() => hive.agents.remove("a2"), code("unknown"));
  } finally {
    done();
  }
});

test("assign, unassign, list by team (recursive), remove", () => {
  const { hive, done } = openHive();
  try {
    hive.teams.create("eng");
    hive.teams.create("backend", { parent: "eng" });
    hive.teams.create("db", { parent: "backend" });
    hive.agents.register({ name: "lead", sessionId: "s0", team: "eng" });
    hive.agents.register({ name: "api", sessionId: "s1", team: "backend" });
    hive.agents.register({ name: "pg", sessionId: "s2", team: "db" });
    hive.agents.register({ name: "loner", sessionId: "s3" });
    const names = (list: { name: string }[]) => list.map((a) => a.name);
    assert.deepEqual(names(hive.agents.list()), ["api", "lead", "loner", "pg"]);
    assert.deepEqual(names(hive.agents.list({ team: "backend" })), ["api"]);
    assert.deepEqual(names(hive.agents.list({ team: "backend", recursive: true })), ["api", "pg"]);
    assert.deepEqual(names(hive.agents.list({ team: "eng", recursive: true })), ["api", "lead", "pg"]);
    assert.throws(() => hive.agents.list({ team: "ops" }), /unknown team 'ops'; valid teams: backend, db, eng/);

    const moved = hive.agents.assign("loner", "ops");
    assert.equal(moved.createdTeam, true);
    assert.equal(hive.agents.get("loner").team, "ops");
    hive.agents.unassign("loner");
    assert.equal(hive.agents.get("loner").team, null);
    hive.agents.remove("loner");
    assert.deepEqual(names(hive.agents.list()), ["api", "lead", "pg"]);
    const view = hive.teams.view().find((t) => t.name === "backend")!;
    assert.deepEqual(view.members, ["api"]);
    assert.deepEqual(view.children, ["db"]);
  } finally {
    done();
  }
});

test("a cycle in team parents is refused, naming the cycle", () => {
  const { hive, done } = openHive();
  try {
    hive.teams.create("a");
    hive.teams.create("b", { parent: "a" });
    hive.teams.create("c", { parent: "b" });
    assert.throws(() => hive.teams.setParent("a", "c"), (err: unknown) =>
      code("cycle")(err) && (err as Error).message.includes("a → c → b → a"));
    assert.throws(() => hive.teams.setParent("a", "a"), (err: unknown) =>
      code("cycle")(err) && (err as Error).message.includes("a → a"));
    assert.equal(hive.teams.get("a").parent, null, "nothing changed");
    assert.throws(() => hive.teams.create("a"), code("duplicate"));
    assert.throws(() => hive.teams.create("x", { parent: "nope" }), /unknown team 'nope'; valid teams: a, b, c/);
    hive.teams.setParent("c", null);
    hive.teams.setParent("a", "c"); // no longer a cycle
    assert.deepEqual(hive.teams.subtree("c"), ["c", "a", "b"]);
  } finally {
    done();
  }
});

test("removing a team moves its agents and child teams to its parent (or to none) and says so", () => {
  const { hive, done } = openHive();
  try {
    hive.teams.create("org");
    hive.teams.create("mid", { parent: "org" });
    hive.teams.create("leaf", { parent: "mid" });
    hive.agents.register({ name: "m1", sessionId: "s1", team: "mid" });
    hive.agents.register({ name: "m2", sessionId: "s2", team: "mid" });
    hive.agents.register({ name: "o1", sessionId: "s3", team: "org" });
    const r = hive.teams.remove("mid");
    assert.deepEqual({ movedTo: r.movedTo, agents: r.agents, childTeams: r.childTeams }, { movedTo: "org", agents: ["m1", "m2"], childTeams: ["leaf"] });
    assert.equal(hive.agents.get("m1").team, "org");
    assert.equal(hive.teams.get("leaf").parent, "org");
    const top = hive.teams.remove("org");
    assert.equal(top.movedTo, null);
    assert.deepEqual(top.agents, ["m1", "m2", "o1"]);
    assert.equal(hive.agents.get("o1").team, null);
    assert.equal(hive.teams.get("leaf").parent, null);
    assert.deepEqual(hive.teams.names(), ["leaf"]);
    const ev = hive.events.since(0, { kinds: ["lifecycle"], limit: 1000 }).events.filter((e) => e.data.event === "team_removed");
    assert.equal(ev.length, 2);
  } finally {
    done();
  }
});

test("status: changes make events, repeats do not; a dead session marks its agents exited, never deletes them", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "w1", sessionId: "s1" });
    hive.agents.register({ name: "w1b", sessionId: "s1" });
    hive.agents.register({ name: "w2", sessionId: "s2" });
    const start = hive.events.latestCursor();
    assert.equal(hive.agents.setStatus("w1", "working", { detail: "running\ntests", source: "self" }).changed, true);
    assert.equal(hive.agents.setStatus("w1", "working", { detail: "running tests", source: "self" }).changed, false);
    const w1 = hive.agents.get("w1");
    assert.deepEqual([w1.status, w1.statusDetail, w1.statusSource], ["working", "running tests", "self"]);
    assert.ok(w1.updatedAt >= w1.createdAt);
    assert.throws(() => hive.agents.setStatus("w1", "sleeping" as never), /valid: starting, working, idle, waiting_for_input, error, exited/);

    const exited = hive.agents.markSessionExited("s1", { exitCode: 137 });
    assert.deepEqual(exited.map((a) => a.name), ["w1", "w1b"]);
    assert.equal(hive.agents.get("w1").status, "exited");
    assert.equal(hive.agents.get("w1").exitCode, 137);
    assert.equal(hive.agents.get("w1").statusDetail, "exit code 137");
    assert.equal(hive.agents.setStatus("w1", "idle").changed, false, "an exited agent stays exited");
    assert.deepEqual(hive.agents.markSessionExited("s1"), [], "second notice is a no-op");
    assert.equal(hive.agents.get("w2").status, "starting");
    assert.deepEqual(hive.agents.names(), ["w1", "w1b", "w2"]);

    const statusEvents = hive.events.since(start, { kinds: ["status"] }).events;
    assert.deepEqual(statusEvents.map((e) => [e.agent, e.data.status, e.data.previous]), [
      ["w1", "working", "starting"],
      ["w1", "exited", "working"],
      ["w1b", "exited", "starting"],
    ]);
    // Re-registering brings the name back.
    hive.agents.register({ name: "w1", sessionId: "s9", replace: true });
    assert.equal(hive.agents.get("w1").status, "starting");
  } finally {
    done();
  }
});

test("status: a detected detail alone is an event at most once per DETAIL_EVENT_MS; the row always has the newest", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "spin", sessionId: "s1" });
    const start = hive.events.latestCursor();
    const frames = ["✻ Working… (0.1s)", "✢ Working… (0.2s)", "✳ Working… (0.3s)"];
    for (const detail of frames) assert.equal(hive.agents.setStatus("spin", "working", { detail, source: "profile" }).changed, true);
    assert.equal(hive.agents.get("spin").statusDetail, frames[2]);
    const kinds = () => hive.events.since(start, { kinds: ["status"] }).events.map((e) => `${e.data.status}:${e.data.detail}`);
    assert.deepEqual(kinds(), [`working:${frames[0]}`], "only the status change is an event");
    // The agent's own report is deliberate: an event even with the same status.
    hive.agents.setStatus("spin", "working", { detail: "running tests", source: "self" });
    assert.equal(kinds().length, 2);
    // Once the last status event is DETAIL_EVENT_MS old, a detail change is an event again.
    hive.store.db.prepare("UPDATE events SET at = at - ? WHERE kind = 'status'").run(DETAIL_EVENT_MS);
    hive.agents.setStatus("spin", "working", { detail: "✽ Working… (9s)", source: "profile" });
    hive.agents.setStatus("spin", "working", { detail: "· Working… (9.1s)", source: "profile" });
    assert.deepEqual(kinds().slice(2), ["working:✽ Working… (9s)"]);
    hive.agents.setStatus("spin", "idle", { detail: "input prompt", source: "profile" });
    assert.equal(kinds().at(-1), "idle:input prompt");
  } finally {
    done();
  }
});

test("status judged on an older row (another process wrote since) is not written; judged on the current row it is", () => {
  const { hive, home, done } = openHive();
  const other = Hive.open({ home, profiles: new ProfileRegistry() });
  try {
    hive.registerAgent({ name: "a", sessionId: "s1" });
    hive.agents.setStatus("a", "working", { source: "profile" });
    const judged = hive.agents.get("a");
    // Another process's hook says idle after this one read the row.
    other.agents.setStatus("a", "idle", { source: "hook", detail: "Stop" });
    const r = hive.agents.setStatus("a", "waiting_for_input", { source: "profile", judged });
    assert.equal(r.stale, true);
    assert.equal(r.changed, false);
    assert.deepEqual([hive.agents.get("a").status, hive.agents.get("a").statusSource], ["idle", "hook"], "the hook's status stays");
    const now = hive.agents.setStatus("a", "waiting_for_input", { source: "profile", judged: hive.agents.get("a") });
    assert.equal(now.changed, true);
    assert.equal(hive.agents.get("a").status, "waiting_for_input");
  } finally {
    other.close();
    done();
  }
});
