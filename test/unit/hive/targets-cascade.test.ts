// Targets and cascades over a quad: 4 agents in 2 teams under one parent team.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HiveError, resolveTargets, planCascade, type SessionDescriptor } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

const code = (c: string) => (err: unknown) => err instanceof HiveError && err.code === c;

// org ─┬─ red:  r1 (s1), r2 (s2)
//      └─ blue: b1 (s3), b2 (s4)
function quad() {
  const ctx = openHive();
  const { hive } = ctx;
  hive.teams.create("org");
  hive.teams.create("red", { parent: "org" });
  hive.teams.create("blue", { parent: "org" });
  hive.agents.register({ name: "r1", sessionId: "s1", team: "red" });
  hive.agents.register({ name: "r2", sessionId: "s2", team: "red" });
  hive.agents.register({ name: "b1", sessionId: "s3", team: "blue" });
  hive.agents.register({ name: "b2", sessionId: "s4", team: "blue" });
  const sessions: SessionDescriptor[] = [
    { id: "s1", name: "pane-r1", alive: true },
    { id: "s2", name: "pane-r2", alive: true },
    { id: "s3", name: "pane-b1", alive: true },
    { id: "s4", name: "pane-b2", alive: true },
    { id: "s5", name: "scratch", alive: true },
    { id: "s6", name: "dead", alive: false },
  ];
  return { ...ctx, sessions };
}

test("targets: by session, name, agent, team (recursive), all — de-duplicated, in order of mention", () => {
  const { hive, sessions, done } = quad();
  try {
    const ids = (spec: Parameters<typeof hive.resolveTargets>[0]) => hive.resolveTargets(spec, sessions).targets.map((t) => t.sessionId);
    // Within a team, sessions come in agent-name order.
    assert.deepEqual(ids({ teams: ["org"] }), ["s3", "s4", "s1", "s2"], "parent team reaches child teams");
    assert.deepEqual(ids({ sessions: ["s3"], agents: ["b1", "r1"], teams: ["red"] }), ["s3", "s1", "s2"]);
    assert.deepEqual(ids(["name:scratch", "agent:b2", "team:blue", "s1"]), ["s5", "s4", "s3", "s1"]);
    assert.deepEqual(ids("all"), ["s1", "s2", "s3", "s4", "s5"], "all = alive sessions");
    assert.deepEqual(ids({ sessions: ["s6"] }), ["s6"], "a dead session can be named explicitly");
    const r = hive.resolveTargets({ agents: ["r1"], teams: ["red"] }, sessions).targets[0]!;
    assert.deepEqual(r, { sessionId: "s1", sessionName: "pane-r1", alive: true, agents: ["r1"], via: ["agent:r1", "team:red"] });
  } finally {
    done();
  }
});

test("targets: unknown names list the valid ones; an empty result is an error; bare words must be unambiguous", () => {
  const { hive, sessions, done } = quad();
  try {
    assert.throws(() => hive.resolveTargets({ agents: ["zed"] }, sessions), /unknown agent 'zed'; valid agents: b1, b2, r1, r2/);
    assert.throws(() => hive.resolveTargets({ teams: ["green"] }, sessions), /unknown team 'green'; valid teams: blue, org, red/);
    assert.throws(() => hive.resolveTargets({ sessions: ["s99"] }, sessions), /unknown session 's99'; valid sessions: s1 \(pane-r1\)/);
    assert.throws(() => hive.resolveTargets(["nothing"], sessions), code("unknown"));
    assert.throws(() => hive.resolveTargets({}, sessions), code("empty"));
    assert.throws(() => hive.resolveTargets([], sessions), code("empty"));
    // The org team alone (not recursive) has no members: empty, not a silent no-op.
    assert.throws(() => hive.resolveTargets({ teams: ["org"], recursive: false }, sessions), code("empty"));
    // An agent whose session is gone is reported; alone it makes an empty set.
    hive.agents.register({ name: "ghost", sessionId: "s-gone", team: "red" });
    const res = hive.resolveTargets({ teams: ["red"] }, sessions);
    assert.deepEqual(res.targets.map((t) => t.sessionId), ["s1", "s2"]);
    assert.deepEqual(res.unavailable.map((u) => u.ref), ["team:red/agent:ghost"]);
    assert.throws(() => hive.resolveTargets({ agents: ["ghost"] }, sessions), /matched no session: agent:ghost — its session s-gone is gone/);
    // A bare word that is both a session name and an agent reaching different sessions is ambiguous.
    assert.throws(
      () => resolveTargets("x", { sessions: [{ id: "s1", name: "x", alive: true }, { id: "s2", name: "y", alive: true }], agents: [{ name: "x", sessionId: "s2", team: null, status: "idle" }], teams: [] }),
      /ambiguous target 'x'.*name:x and agent:x/,
    );
  } finally {
    done();
  }
});

test("cascade: each agent gets exactly one text — own, else nearest team (walking up), else broadcast", () => {
  const { hive, done } = quad();
  try {
    const plan = hive.planCascade({
      broadcast: "B",
      teams: { org: "ORG", red: "RED" },
      agents: { r2: "R2 ONLY" },
    });
    const got = Object.fromEntries(plan.assignments.map((a) => [a.agent, [a.text, a.level, a.source]]));
    assert.deepEqual(got, {
      b1: ["ORG", "team", "team:org"], // blue has no text: its parent org's
      b2: ["ORG", "team", "team:org"],
      r1: ["RED", "team", "team:red"], // nearest team beats the parent
      r2: ["R2 ONLY", "agent", "agent:r2"], // own text beats its team
    });
    assert.equal(plan.deliveries.length, 4);
    assert.deepEqual(plan.deliveries.map((d) => [d.sessionId, d.text]).sort(), [["s1", "RED"], ["s2", "R2 ONLY"], ["s3", "ORG"], ["s4", "ORG"]]);

    const onlyBroadcast = hive.planCascade({ broadcast: "hello all" });
    assert.deepEqual(onlyBroadcast.assignments.map((a) => a.level), ["broadcast", "broadcast", "broadcast", "broadcast"]);
    const onlyBlue = hive.planCascade({ teams: { blue: "go" } });
    assert.deepEqual(onlyBlue.assignments.map((a) => a.agent), ["b1", "b2"], "agents without an applicable text are not addressed");
  } finally {
    done();
  }
});

test("cascade: de-duplicated per session; exited agents reported, not sent; bad input refused", () => {
  const { hive, done } = quad();
  try {
    // A second name on r1's session, in the blue team.
    hive.agents.register({ name: "r1alias", sessionId: "s1", team: "blue" });
    const plan = hive.planCascade({ teams: { blue: "BLUE" }, agents: { r1: "R1" }, broadcast: "B" });
    const s1 = plan.deliveries.filter((d) => d.sessionId === "s1");
    assert.equal(s1.length, 1, "one delivery per session");
    assert.equal(s1[0]!.text, "R1", "the most specific text wins");
    const alias = plan.assignments.find((a) => a.agent === "r1alias")!;
    assert.equal(alias.delivered, false);
    assert.match(alias.note!, /shares session s1 with r1/);
    // Same text twice on one session: sent once, both agents listed.
    const same = hive.planCascade({ broadcast: "same" });
    assert.deepEqual(same.deliveries.find((d) => d.sessionId === "s1")!.agents, ["r1", "r1alias"]);
    assert.equal(same.deliveries.length, 4);

    hive.agents.markSessionExited("s4", { exitCode: 0 });
    const afterExit = hive.planCascade({ broadcast: "x" });
    assert.equal(afterExit.deliveries.some((d) => d.sessionId === "s4"), false);
    assert.match(afterExit.assignments.find((a) => a.agent === "b2")!.note!, /exited/);

    assert.throws(() => hive.planCascade({}), code("empty"));
    assert.throws(() => hive.planCascade({ agents: { nobody: "x" } }), /unknown agent 'nobody'; valid agents: b1, b2, r1, r1alias, r2/);
    assert.throws(() => hive.planCascade({ teams: { green: "x" } }), /unknown team 'green'/);
    assert.throws(() => hive.planCascade({ broadcast: "" }), code("invalid"));
    assert.throws(() => planCascade({ teams: { t: "x" } }, { agents: [], teams: [{ name: "t", parent: null }] }), code("empty"));
  } finally {
    done();
  }
});
