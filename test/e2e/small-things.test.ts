// Issue 21 §6: smaller things users hit, each as a real client meets it (bare environment,
// another working directory, the built server over MCP).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("smaller things users hit (issue 21 §6)", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    await h.ok("terminal_open", { name: "s" });
  });
  after(async () => h?.destroy());

  test('keys: ["q"] — the error says to send it as text, and nothing is sent', async () => {
    const r = await h.call("terminal_send", { session: "s", keys: ["q"] });
    assert.equal(r.isError, true);
    assert.match(r.text, /unknown key "q"/);
    assert.match(r.text, /to type "q", send it as text: \{"text": "q", "enter": false\}/);
    // A key-like name that is no key gets the list of keys only.
    const other = await h.call("terminal_send", { session: "s", keys: ["Hyper-X"] });
    assert.doesNotMatch(other.text, /send it as text/);
    const run = await h.ok("terminal_run", { session: "s", command: "echo clean-$((1+1))" });
    assert.equal(run.output, "clean-2", "nothing was typed by the refused calls");
  });
});
