// A freshly spawned shell agent at its first prompt is idle, from the spawn's own answer on:
// it was "starting" in the answer, then "working (output is changing)" for the ~200 ms the
// prompt rule waits for quiet, listed and announced so (issue 31's trial).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("a fresh shell agent is idle at its prompt", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("spawn, list and events say idle, never working", async () => {
    const names = ["fresh-a", "fresh-b", "fresh-c", "fresh-d"];
    for (const name of names) {
      const spawned = await h.ok("agent_spawn", { name, profile: "shell" });
      assert.equal(spawned.ready, "ready");
      assert.equal(spawned.agent.status, "idle", JSON.stringify(spawned.agent));
      const listed = await h.ok("agent_list");
      const row = listed.agents.find((a: { name: string }) => a.name === name);
      assert.equal(row.status, "idle", JSON.stringify(row));
    }
    const events = await h.ok("hive_events", {});
    const statuses = events.events.filter((e: { kind: string }) => e.kind === "status").map((e: { agent: string; data: { status: string; detail: string } }) => `${e.agent}: ${e.data.status} (${e.data.detail})`);
    assert.deepEqual(statuses, names.map((n) => `${n}: idle (shell prompt)`));
  });
});
