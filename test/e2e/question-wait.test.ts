// A command that asks a question and waits (`read -p 'Continue? [y/N] '`) ends the run at once
// with reason waiting_for_input, the question and how to answer, instead of waiting out its
// timeout; output that mentions a question and moves on, or merely pauses, is no question.
// Run as a client runs termhive (bare env, another folder).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("a run whose command asks a question", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    await h.ok("terminal_open", { name: "q", command: "bash" });
  });
  after(async () => h.destroy());

  test("read -p '… [y/N] ' returns waiting_for_input with the question; terminal_send answers it", async () => {
    const asked = await h.ok("terminal_run", { session: "q", command: "read -p 'Continue? [y/N] ' ans; echo \"got=$ans\"", timeout_s: 30 });
    assert.equal(asked.reason, "waiting_for_input", JSON.stringify(asked));
    assert.equal(asked.prompt, "Continue? [y/N]");
    assert.equal(asked.running, true);
    // The default (N) first: a model copying the first answer does not say yes.
    assert.match(asked.hint, /terminal_send \{"session":"q","text":"n\\n"\} \(no, the default\) or \{"session":"q","text":"y\\n"\} \(yes\)/, asked.hint);
    await h.ok("terminal_send", { session: "q", text: "y\n" });
    const done = await h.ok("terminal_wait", { session: "q", for: "completion", timeout_s: 20 });
    assert.match(JSON.stringify(done), /got=y/, JSON.stringify(done));
  });

  test("a plain question (read -p 'Your name? ') returns waiting_for_input too, and the hint's answer is no 'y'", async () => {
    const asked = await h.ok("terminal_run", { session: "q", command: "read -p 'Your name? ' who; echo \"hello=$who\"", timeout_s: 30 });
    assert.equal(asked.reason, "waiting_for_input", JSON.stringify(asked));
    assert.equal(asked.prompt, "Your name?");
    assert.match(asked.hint, /"text":"<answer>\\n"/, asked.hint);
    await h.ok("terminal_send", { session: "q", text: "ann\n" });
    const done = await h.ok("terminal_wait", { session: "q", for: "completion", timeout_s: 20 });
    assert.match(JSON.stringify(done), /hello=ann/, JSON.stringify(done));
  });

  test("a question mentioned on a line that goes on, and output that pauses, end by the shell's mark", async () => {
    for (const command of ["printf 'Continue? [y/N] maybe later\\n'; sleep 1.5; echo done-1", "printf 'step 1 of 2 ... '; sleep 1.5; echo done-2", "printf 'Continue? [y/N] y'; sleep 1.5; echo; echo done-3"]) {
      const r = await h.ok("terminal_run", { session: "q", command, timeout_s: 30 });
      assert.equal(r.reason, "osc133", `${command}: ${JSON.stringify(r)}`);
      assert.match(r.output, /done-\d$/);
    }
  });
});
