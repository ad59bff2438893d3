// terminal_wait {for: "completion"} returns the command's output and stops before the shell's
// next prompt line (issue 24 §7), in bash and zsh with shell integration; it starts with the
// command's first line, not the prompt and the typed line before it (trial 15).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("terminal_wait output", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  for (const shell of ["bash", "zsh"]) {
    test(`${shell}: for completion, the output is the command's lines, from its first to its last, without the prompt or the typed line`, async () => {
      await h.ok("terminal_open", { name: shell, command: shell });
      await h.ok("terminal_send", { session: shell, text: "echo first-$((1+1)); sleep 0.3; echo last-$((2+2))" });
      const w = await h.call("terminal_wait", { session: shell, for: "completion", timeout_s: 15 });
      assert.equal(w.data.matched, true, w.text);
      const lines = (w.data.output as string).split("\n").filter((line) => line.trim() !== "");
      assert.equal(lines.at(-1), "last-4", w.text);
      assert.equal(lines[0], "first-2", w.text);
      assert.doesNotMatch(w.data.output, /echo first/, w.text);
    });
  }
});
