// Completion inside a REPL started from the shell (python3 -q), judged as terminal_run judges
// it: the REPL's prompt back. terminal_wait {for:"completion"} after a run that outlived its
// timeout, after terminal_send of a line, and after answering input(); and a run of input()
// ends at once as waiting_for_input with the question (it ran its whole timeout before).
// Before, these waits ran to their own timeout with the output and ">>>" already on screen.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("completion in a REPL", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    await h.ok("terminal_open", { name: "py", command: "bash" });
    const started = await h.ok("terminal_run", { session: "py", command: "python3 -q", timeout_s: 20 });
    assert.equal(started.reason, "nested-prompt", JSON.stringify(started));
  });
  after(async () => h.destroy());

  test("a run that outlived its timeout: terminal_wait completion ends when >>> is back", async () => {
    const run = await h.ok("terminal_run", { session: "py", command: "import time; time.sleep(3); print('slept')", timeout_s: 1 });
    assert.equal(run.reason, "timeout", JSON.stringify(run));
    const waited = await h.ok("terminal_wait", { session: "py", for: "completion", timeout_s: 25 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    assert.equal(waited.reason, "completion");
    assert.match(waited.output, /slept/);
  });

  test("terminal_send of a line, then terminal_wait completion", async () => {
    await h.ok("terminal_send", { session: "py", text: "print(6*7)\n" });
    const waited = await h.ok("terminal_wait", { session: "py", for: "completion", timeout_s: 25 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    assert.match(waited.output, /^42$/m);
  });

  test("input() is waiting_for_input with its question; the answer's completion is the prompt back", async () => {
    const asked = await h.ok("terminal_run", { session: "py", command: "n = input('name? '); print('hello', n)", timeout_s: 30 });
    assert.equal(asked.reason, "waiting_for_input", JSON.stringify(asked));
    assert.equal(asked.prompt, "name?");
    assert.ok(asked.duration_ms < 15_000, JSON.stringify(asked));
    assert.match(asked.hint, /asks "name\?"/, asked.hint);
    await h.ok("terminal_send", { session: "py", text: "bob\n" });
    const waited = await h.ok("terminal_wait", { session: "py", for: "completion", timeout_s: 25 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    assert.match(waited.output, /hello bob/);
  });

  test("a block still open at the continuation prompt is not complete", async () => {
    await h.ok("terminal_send", { session: "py", text: "for i in range(2):\n" });
    const waited = await h.ok("terminal_wait", { session: "py", for: "completion", timeout_s: 2 });
    assert.equal(waited.matched, false, JSON.stringify(waited));
    await h.ok("terminal_send", { session: "py", text: "    print('row', i)\n\n" });
    const done = await h.ok("terminal_wait", { session: "py", for: "completion", timeout_s: 25 });
    assert.equal(done.matched, true, JSON.stringify(done));
    assert.match(done.output, /row 1/);
  });
});
