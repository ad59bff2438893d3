// The crew (src/hive/live) on the node-pty backend: real bash panes, a real hive.db, no tmux.
// Layout building binds the agents it names; cascade delivery types each agent its own text
// (or queues it when the busy rule says wait); onAgentChanged is a typed, disposable event.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyHookReport, type AgentRecord } from "../../../src/hive/index.js";
import { deliverCascade } from "../../../src/hive/ops/cascade-delivery.js";
import { buildLayout } from "../../../src/hive/launch/layout-builder.js";
import { typeText } from "../../../src/terminal/typing/typing.js";
import type { TerminalSession } from "../../../src/terminal/session/session.js";
import { stripAnsi } from "../../../src/util/ansi.js";
import { until } from "../terminal/pty-registry.js";
import { crewOnPty } from "./crew-on-pty.js";

const output = (session: TerminalSession) => stripAnsi(session.transcript.slice(session.transcript.start).text);

test("layout building on pty: the panes open in one group, the named agents are bound and followed", async (t) => {
  const { crew } = crewOnPty(t);
  const layout = await buildLayout(crew, { layout: "horizontal", panes: [{ name: "left", agent: "alpha", team: "crew" }, { name: "right" }] });
  assert.equal(layout.panes.length, 2);
  assert.deepEqual(layout.panes.map((p) => [p.name, p.ready, p.agent]), [["left", "ready", "alpha"], ["right", "ready", undefined]]);
  const alpha = crew.hive.agents.get("alpha");
  assert.equal(alpha.sessionId, layout.panes[0]!.session);
  assert.equal(alpha.team, "crew");
  assert.equal(crew.hive.agents.find("right"), undefined, "a pane with no agent, team or profile is no agent");
  const left = crew.registry.byId(layout.panes[0]!.session)!;
  assert.equal(crew.tracker.isTracked(left), true, "the bound pane's status is followed");
  // The pane knows its agent's name from the start (`termhive msg` sends as it).
  await typeText(left, "echo agent=$TERMHIVE_AGENT", true);
  await until("the pane's agent name", () => output(left).includes("agent=alpha"));
});

test("layout building refuses a taken agent name before any pane exists", async (t) => {
  const { crew } = crewOnPty(t);
  await buildLayout(crew, { panes: [{ name: "one", agent: "taken" }] });
  const before = crew.registry.all().length;
  await assert.rejects(buildLayout(crew, { panes: [{ name: "two" }, { name: "three", agent: "taken" }] }), /already registered/);
  assert.equal(crew.registry.all().length, before, "nothing was opened");
});

test("cascade delivery on pty: each agent gets its most specific text, typed and run; a busy agent's text is queued", async (t) => {
  const { crew } = crewOnPty(t);
  const layout = await buildLayout(crew, { panes: [{ name: "a", agent: "a", team: "t" }, { name: "b", agent: "b", team: "t" }, { name: "c", agent: "c", team: "t" }] });
  const [a, b] = layout.panes.map((p) => crew.registry.byId(p.session)!);
  // c is busy (a message is being typed to it: its turn holds idle back): its text waits in the outbox.
  crew.hive.turns.begin(["c"]);
  const r = await deliverCascade(crew, { teams: { t: "echo team-$((40+2))" }, agents: { b: "echo agent-$((6*7))" } });
  assert.equal(r.delivered, 2, JSON.stringify(r));
  assert.equal(r.queued, 1, JSON.stringify(r));
  assert.deepEqual(r.assignments.map((x) => [x.agent, x.source, x.delivered, x.queued ?? false]), [["a", "team:t", true, false], ["b", "agent:b", true, false], ["c", "team:t", false, true]]);
  await until("a's team text ran", () => output(a!).includes("team-42"));
  await until("b's own text ran", () => output(b!).includes("agent-42"));
  assert.ok(!output(b!).includes("team-42"), "b got only its own text");
  const queued = crew.hive.outbox.list("c");
  assert.deepEqual(queued.map((m) => m.text), ["echo team-$((40+2))"]);
});

test("cascade delivery refuses every text when the safety gate refuses one; nothing is typed", async (t) => {
  const { crew } = crewOnPty(t);
  const layout = await buildLayout(crew, { panes: [{ name: "x", agent: "x" }, { name: "y", agent: "y" }] });
  const x = crew.registry.byId(layout.panes[0]!.session)!;
  const typedBefore = output(x);
  await assert.rejects(deliverCascade(crew, { agents: { x: "echo fine", y: "rm -rf /" } }), /safety gate/);
  assert.equal(output(x), typedBefore, "x's harmless text was not typed either");
});

test("onAgentChanged: a typed event; a disposed subscription hears nothing more", async (t) => {
  const { crew } = crewOnPty(t);
  await buildLayout(crew, { panes: [{ name: "w", agent: "w" }] });
  const heard: AgentRecord[] = [];
  const subscription = crew.onAgentChanged((agent) => heard.push(agent));
  const session = crew.registry.byId(crew.hive.agents.get("w").sessionId)!;
  crew.tracker.record(() => crew.hive.agents.setStatus("w", "error", { source: "self", detail: "first" }), session);
  await until("the change is announced", () => heard.some((a) => a.statusDetail === "first"));
  assert.equal(heard.at(-1)!.name, "w");
  subscription.dispose();
  crew.tracker.record(() => crew.hive.agents.setStatus("w", "working", { source: "self", detail: "second" }), session);
  // A second subscriber proves the change was announced; the disposed one stays silent.
  const later: AgentRecord[] = [];
  const probe = crew.onAgentChanged((agent) => later.push(agent));
  crew.tracker.record(() => crew.hive.agents.setStatus("w", "error", { source: "self", detail: "third" }), session);
  await until("the probe hears the third change", () => later.some((a) => a.statusDetail === "third"));
  probe.dispose();
  assert.ok(!heard.some((a) => a.statusDetail === "second" || a.statusDetail === "third"), JSON.stringify(heard.map((a) => a.statusDetail)));
});

test("a quick turn whose Stop hook reported before the take was seen stays ended: not made working by the typing, and its end is not dropped as stale", async (t) => {
  const { crew } = crewOnPty(t);
  await buildLayout(crew, { panes: [{ name: "q", agent: "q" }, { name: "r", agent: "r" }] });
  const stop = { event: "Stop", status: "idle" as const, detail: "turn ended", endsTurn: false, channel: "hooks" as const };
  // q: Enter at `entered`; its program took the text, ran the turn and its Stop hook reported,
  // all before this process saw the take (a loaded machine).
  const entered = Date.now();
  crew.hive.turns.begin(["q"], entered - 5);
  assert.equal(applyHookReport(crew.hive, "q", { ...stop, firedAt: entered + 20 }), null);
  crew.turnAfterTyping(["q"], true, { enteredAt: entered, takenAt: Date.now() + 1 });
  assert.equal(crew.hive.agents.get("q").status, "idle", "the hook's end of the turn stands");
  assert.equal(crew.hive.turns.holdsIdle("q"), false, "the turn is over: a hive_wait for idle answers");
  // r: the take was seen 400 ms after the Enter, and the Stop hook fired between the two and
  // reports after: it is this turn's end, not an older turn's.
  const enteredR = Date.now() - 400;
  crew.hive.turns.begin(["r"], enteredR - 5);
  crew.turnAfterTyping(["r"], true, { enteredAt: enteredR, takenAt: Date.now() });
  assert.equal(applyHookReport(crew.hive, "r", { ...stop, firedAt: enteredR + 100 }), null, "not dropped as a turn's end from before the message");
  assert.equal(crew.hive.agents.get("r").status, "idle");
});
