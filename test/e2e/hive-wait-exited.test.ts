// Trial 16 §6: hive_wait over targets of which some exited names them in its answer — never
// leaves one out — and a wait that can no longer be met is an answer, not an "internal error".
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";
import { agentIs } from "./real-agents.js";

describe("hive_wait over exited agents", () => {
  let h: Harness;

  before(async () => {
    h = await Harness.start();
    for (const name of ["dora", "ed"]) await h.ok("agent_spawn", { name, command: "bash" });
    await h.ok("terminal_send", { session: "ed", text: "exit 3\n" });
    await agentIs(h, "ed", "exited");
  });
  after(async () => {
    await h?.destroy();
  });

  test("all over a live and an exited agent (pane kept): cannot be met, said plainly", async () => {
    const r = await h.call("hive_wait", { targets: ["dora", "ed"], for: "idle", mode: "all", timeout_s: 20 });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^hive_wait for idle cannot be met any more — ed: its program exited/);
  });

  test("with the exited agent's session gone: named in the answer, and all cannot be met", async () => {
    await h.ok("terminal_close", { session: "ed" });
    const any = await h.call("hive_wait", { targets: ["dora", "ed"], for: "idle", mode: "any", timeout_s: 20 });
    assert.equal(any.isError, false, any.text);
    assert.match(any.text, /^matched .*\ndora: ✓ dora: idle[^\n]*\ned: · exited: its session th-[0-9a-f]+ is gone \(status exited\)$/);
    const all = await h.call("hive_wait", { targets: ["dora", "ed"], for: "idle", mode: "all", timeout_s: 20 });
    assert.equal(all.isError, true, all.text);
    assert.match(all.text, /^hive_wait for idle cannot be met any more — ed: exited: its session th-[0-9a-f]+ is gone/);
    const exited = await h.call("hive_wait", { targets: ["dora", "ed"], for: "exited", timeout_s: 20 });
    assert.match(exited.text, /^matched .*\ndora: · running\ned: ✓ exited: its session/);
  });
});
