// What a result says, in plain words (session 15's trial of ordinary use): a key-only send
// names its key ("sent 0 bytes and 1 keys" before), a pager still open is still running
// ("[done · fullscreen]" before), and a REPL's prompt says which program waits there.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("results in plain words", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    await h.ok("terminal_open", { name: "w", command: "bash" });
  });
  after(async () => h.destroy());

  test("terminal_send names the keys it pressed", async () => {
    assert.equal((await h.call("terminal_send", { session: "w", keys: ["Enter"] })).text, "sent key Enter");
    assert.equal((await h.call("terminal_send", { session: "w", text: "ab", enter: false, keys: ["C-a", "C-k"] })).text, "sent 2 bytes, then keys C-a, C-k");
    assert.equal((await h.call("terminal_send", { session: "w", text: "ab", enter: false })).text, "sent 2 bytes");
    await h.ok("terminal_send", { session: "w", keys: ["C-c"] });
  });

  test("a pager left open by a run is still running, not done", async () => {
    const r = await h.call("terminal_run", { session: "w", command: "seq 1000 | less" });
    assert.equal(r.data.reason, "fullscreen", r.text);
    assert.match(r.text, /\n\[still running, full screen · fullscreen · /);
    await h.ok("terminal_send", { session: "w", text: "q", enter: false });
    assert.equal((await h.ok("terminal_wait", { session: "w", for: "completion", timeout_s: 10 })).matched, true);
  });

  test("a REPL started by a run waits at its prompt; a statement in it is done, back at that prompt", async () => {
    const started = await h.call("terminal_run", { session: "w", command: "python3 -q" });
    assert.equal(started.data.reason, "nested-prompt", started.text);
    assert.match(started.text, /^\[python is waiting at its prompt · nested-prompt · \d+ ms/m);
    const stmt = await h.call("terminal_run", { session: "w", command: "print(6*7)" });
    assert.equal(stmt.data.output, "42", stmt.text);
    assert.match(stmt.text, /^\[done, back at the python prompt · nested-prompt · \d+ ms/m);
    await h.ok("terminal_send", { session: "w", keys: ["C-d"] });
  });
});
