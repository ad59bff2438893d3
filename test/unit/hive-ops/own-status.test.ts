// An agent's own status report (`termhive status`, hive_status) is one store-only operation
// (src/hive/ops/store-only.ts); a server that follows the agent's pane writes it through the
// pane's tracker (src/hive/ops/mail.ts, statusThroughPane), any other process straight to the store.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Hive } from "../../../src/hive/index.js";
import type { Crew } from "../../../src/hive/live/crew.js";
import { statusThroughPane } from "../../../src/hive/ops/mail.js";
import { recordOwnStatus } from "../../../src/hive/ops/store-only.js";
import { openHive } from "../hive/helpers.js";

test("a refused report never opens the store", () => {
  let opened = false;
  assert.throws(() => recordOwnStatus(() => ((opened = true), {} as Hive), { agent: "a", status: "bogus" }), /unknown status "bogus"/);
  assert.equal(opened, false);
});

test("in a server, the report goes through the tracker of a pane it follows, else straight to the store", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "followed", sessionId: "s-followed" });
    hive.agents.register({ name: "elsewhere", sessionId: "s-elsewhere" });
    const pane = { id: "s-followed", alive: true, paneId: "%1", meta: {} };
    const recorded: string[] = [];
    const crew = {
      hive,
      registry: { byId: (id: string) => (id === pane.id ? pane : undefined) },
      tracker: { record: (apply: () => { agent: { name: string } }) => { const r = apply(); recorded.push(r.agent.name); return r.agent; } },
    } as unknown as Pick<Crew, "hive" | "registry" | "tracker">;
    const followed = recordOwnStatus(() => hive, { agent: "followed", status: "working", detail: "on it" }, statusThroughPane(crew));
    assert.deepEqual({ status: followed.agent.status, alive: followed.agent.alive, pane: followed.agent.pane }, { status: "working", alive: true, pane: "%1" });
    const other = recordOwnStatus(() => hive, { agent: "elsewhere", status: "idle" }, statusThroughPane(crew));
    assert.deepEqual({ status: other.agent.status, alive: other.agent.alive, pane: other.agent.pane }, { status: "idle", alive: false, pane: null });
    assert.deepEqual(recorded, ["followed"], "only the followed pane's report went through its tracker");
  } finally {
    done();
  }
});
