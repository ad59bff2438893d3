// Status displays (hive/live/displays): one interface, one registry on the crew. A pane display
// is awaited before the change is announced (whoever hears of a change sees it there too); the
// others hear the announced event; a display added late starts at once, added after the end
// ends at once. The tracker's own part (record → displays → announce) on a fake session.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { AgentRecord } from "../../../src/hive/index.js";
import { StatusDisplays, type StatusDisplay } from "../../../src/hive/displays/status-display.js";
import { StatusTracker } from "../../../src/hive/live/status-tracker.js";
import { Emitter } from "../../../src/util/event.js";
import { fakeSession } from "../terminal/fake-session.js";
import { until } from "../terminal/pty-registry.js";
import { openHive } from "../hive/helpers.js";

function tracking(t: { after(fn: () => void): void }) {
  const { hive, done } = openHive();
  const changes = new Emitter<AgentRecord>();
  const displays = new StatusDisplays(changes.event);
  const log: string[] = [];
  const tracker = new StatusTracker(hive, displays, (agent) => {
    log.push(`announced ${agent.status}`);
    changes.fire(agent);
  });
  const { session } = fakeSession("bash");
  hive.registerAgent({ name: "w", sessionId: session.id });
  t.after(() => {
    tracker.dispose();
    displays.dispose();
    done();
  });
  return { hive, displays, tracker, session, log };
}

test("displays: a pane display is current before the change is announced; an event display hears it after", async (t) => {
  const { hive, displays, tracker, session, log } = tracking(t);
  let release: () => void = () => {};
  const drawn = new Promise<void>((resolve) => (release = resolve));
  displays.add({
    showPane: async (_s, agents) => {
      log.push(`border ${agents.map((a) => a.status).join(",")}`);
      await drawn;
      log.push("border drawn");
    },
    dispose: () => {},
  });
  displays.add({ changed: (agent) => void log.push(`tab ${agent.status}`), dispose: () => {} });
  tracker.record(() => hive.agents.setStatus("w", "error", { source: "self", detail: "boom" }), session);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(log, ["border error"], "nobody hears of it while the border is being drawn");
  release();
  await until("the announcement", () => log.includes("tab error"));
  assert.deepEqual(log, ["border error", "border drawn", "announced error", "tab error"]);
});

test("displays: a pane that is no longer followed is left, as bound or as no agent's", (t) => {
  const { hive, displays, tracker, session } = tracking(t);
  const left: boolean[] = [];
  displays.add({ leavePane: (_s, bound) => void left.push(bound), dispose: () => {} });
  tracker.track(session);
  tracker.untrack(session.id);
  assert.equal(tracker.isTracked(session), false);
  hive.agents.remove("w");
  tracker.track(session);
  tracker.untrack(session.id);
  assert.deepEqual(left, [true, false]);
});

test("displays: each starts with the hive (at once when added later), and all end together, one failing or not", () => {
  const displays = new StatusDisplays(new Emitter<AgentRecord>().event);
  const log: string[] = [];
  const display = (name: string, failing = false): StatusDisplay => ({
    start: () => void log.push(`start ${name}`),
    dispose: () => {
      log.push(`dispose ${name}`);
      if (failing) throw new Error("refuses to stop");
    },
  });
  displays.add(display("early", true));
  assert.deepEqual(log, []);
  displays.start({ hive: {} as never });
  displays.add(display("late"));
  displays.dispose();
  displays.add(display("after the end"));
  assert.deepEqual(log, ["start early", "start late", "dispose early", "dispose late", "dispose after the end"]);
});
