// Agent status on iTerm2 tabs, against the protocol-level iTerm2 simulator: the built server
// on real tmux with its panes "shown" in the simulated iTerm2 (sessions whose tmuxWindowPane
// names termhive's tmux panes), and on the iTerm2 backend, where the panes are iTerm2 sessions.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";
import { Iterm2Simulator } from "../fixtures/iterm2-sim/server.js";
import { until as waitUntil } from "../until.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000) => waitUntil(what, probe, timeoutMs, 25);

function lastProfile(sim: Iterm2Simulator, session: string, key: string): unknown {
  return sim.profileLog.filter((p) => p.session === session && p.key === key).at(-1)?.value;
}

describe("status on iTerm2 tabs: tmux panes shown through iTerm2's tmux integration (simulated)", () => {
  let sim: Iterm2Simulator;
  let h: Harness;
  const tabOf = new Map<string, string>();
  before(async () => {
    sim = await Iterm2Simulator.start();
    h = await Harness.start(sim.env());
    const r = await h.ok("hive_layout", { layout: "horizontal", panes: [{ name: "d1", agent: "d1" }, { name: "d2", agent: "d2" }] });
    // What iTerm2 shows after `termhive attach --iterm2`: one session per tmux pane.
    for (const p of r.panes) tabOf.set(p.name, sim.addTmuxSession(p.pane.replace(/^%/, "")).id);
    sim.addTmuxSession("999"); // another tmux pane of the user's, never touched
  });
  after(async () => {
    await h?.destroy();
    await sim?.stop();
  });

  test("a status sets the agent's tab colour and badge, and only its tab", async () => {
    await h.ok("hive_status", { agent: "d1", status: "working", detail: "running tests" });
    const d1 = tabOf.get("d1")!;
    await until("d1's badge", () => (lastProfile(sim, d1, "Badge Text") === "d1: working\nrunning tests" ? true : undefined));
    assert.equal(lastProfile(sim, d1, "Use Tab Color"), true);
    assert.deepEqual(lastProfile(sim, d1, "Tab Color"), { "Red Component": 0.2, "Green Component": 0.45, "Blue Component": 0.9, "Alpha Component": 1, "Color Space": "sRGB" });
    await h.ok("hive_status", { agent: "d1", status: "error", detail: "boom" });
    await until("d1's error colour", () => ((lastProfile(sim, d1, "Tab Color") as Record<string, number>)?.["Red Component"] === 0.85 ? true : undefined));
    assert.ok(!sim.profileLog.some((p) => p.value === "d1: working\nrunning tests" && p.session !== d1), "no other tab got d1's badge");
    assert.ok(!sim.profileLog.some((p) => p.session === "SIM-3"), "the user's own tmux pane is left alone");
  });

  test("an agent that starts waiting for input raises one iTerm2 notification", async () => {
    const d2 = tabOf.get("d2")!;
    await h.ok("hive_status", { agent: "d2", status: "waiting_for_input", detail: "approve the plan?" });
    await until("the notification", () => (sim.sessions.get(d2)!.posted.length ? true : undefined));
    assert.deepEqual(sim.sessions.get(d2)!.posted, ["termhive: d2 is waiting for input (approve the plan?)"]);
    assert.equal(lastProfile(sim, d2, "Badge Text"), "d2: waiting for input\napprove the plan?");
    await h.ok("hive_status", { agent: "d2", status: "waiting_for_input", detail: "still waiting" });
    await until("the new badge", () => (lastProfile(sim, d2, "Badge Text") === "d2: waiting for input\nstill waiting" ? true : undefined));
    assert.equal(sim.sessions.get(d2)!.posted.length, 1, "still waiting is not a new notification");
  });

  test("hive_focus brings the agent's pane to the front in iTerm2", async () => {
    const r = await h.ok("hive_focus", { session: "d2" });
    assert.equal(r.focused, "d2");
    assert.equal(sim.activations.at(-1), tabOf.get("d2"));
  });
});

describe("status on iTerm2 tabs: the iTerm2 backend's own sessions (simulated)", () => {
  let sim: Iterm2Simulator;
  let h: Harness;
  before(async () => {
    sim = await Iterm2Simulator.start();
    h = await Harness.start({ TERMHIVE_BACKEND: "iterm2", ...sim.env() });
  });
  after(async () => {
    await h?.destroy();
    await sim?.stop();
  });

  test("status colours the session's tab; hive_focus activates it", async () => {
    const r = await h.ok("hive_layout", { layout: "horizontal", panes: [{ name: "e1", agent: "e1" }, { name: "e2", agent: "e2" }] });
    const [e1, e2] = r.panes.map((p: { pane: string }) => p.pane);
    assert.equal(sim.sessions.get(e1)!.tabId, sim.sessions.get(e2)!.tabId, "a layout's panes are splits of one tab");
    await h.ok("hive_status", { agent: "e2", status: "idle" });
    await until("e2's badge", () => (lastProfile(sim, e2, "Badge Text") === "e2: idle" ? true : undefined));
    await h.ok("hive_focus", { session: "e1" });
    assert.equal(sim.activations.at(-1), e1);
  });
});
