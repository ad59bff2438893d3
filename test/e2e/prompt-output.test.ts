// Output a program prints while the shell sits at its prompt (a background job: the usual way
// to start a server and wait for "listening") is output, not the echo of a typed line: a
// pattern matches it, in bash, zsh and fish, in the process that ran the job and in another
// one following the session; and termhive does not take those lines for typed text.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { E2E_BACKEND, Harness } from "./harness.js";

const lines = (text: string) => text.split("\n").map((l) => l.trim());
// The typed line holds `$0`, so only the printed line matches `BG-OK-\d`.
const JOB = "sh -c 'sleep 1; echo BG-OK-$0; echo SERVER listening on 99$0' 2 &";

describe("output printed at the prompt", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h?.destroy());

  for (const shell of ["bash", "zsh", "fish"]) {
    test(`${shell}: terminal_wait matches what a background job prints at the prompt`, async () => {
      const name = `bg-${shell}`;
      await h.ok("terminal_open", { name, command: shell });
      const run = await h.ok("terminal_run", { session: name, command: JOB, timeout_s: 20 });
      // (fish keeps the status it had for a line that starts a job: not checked.)
      assert.equal(run.complete, true, JSON.stringify(run));
      // The job's first line: zsh and fish redraw their prompt after the job (its notice).
      const w = await h.call("terminal_wait", { session: name, pattern: "BG-OK-\\d", timeout_s: 15 });
      assert.equal(w.data.matched, true, w.text);
      assert.equal(w.data.match, "BG-OK-2", w.text);
      // The printed lines are not text on the input line: the next run needs no Ctrl-C first.
      const next = await h.ok("terminal_run", { session: name, command: "printf 'after-%s\\n' 4", timeout_s: 20 });
      assert.ok(lines(next.output).includes("after-4"), JSON.stringify(next));
      const screen = await h.ok("terminal_read", { session: name, mode: "screen" });
      assert.doesNotMatch(screen.output, /\^C/, screen.output);
      // And a typed line is still not output: its echo holds the pattern's words.
      await h.ok("terminal_send", { session: name, text: "sleep 1.5; echo TYPED-GO" });
      const typed = await h.ok("terminal_wait", { session: name, pattern: "TYPED-GO", timeout_s: 20 });
      assert.ok(lines(typed.output).includes("TYPED-GO"), JSON.stringify(typed.output));
    });
  }

  // The pty backend's sessions belong to the process that opened them.
  test("a second server process following the session matches the job's line too", { skip: E2E_BACKEND === "pty" }, async () => {
    await h.ok("terminal_open", { name: "bg-shared", command: "bash" });
    const other = await h.sibling();
    try {
      await other.ok("terminal_read", { session: "bg-shared" });
      const waiting = other.call("terminal_wait", { session: "bg-shared", pattern: "BG-OK-\\d", timeout_s: 20 });
      await h.ok("terminal_run", { session: "bg-shared", command: JOB, timeout_s: 20 });
      const w = await waiting;
      assert.equal(w.data.matched, true, JSON.stringify(w.data));
      assert.equal(w.data.match, "BG-OK-2", JSON.stringify(w.data));
    } finally {
      await other.close();
    }
  });
});
