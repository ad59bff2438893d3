// A run right after a pager or REPL hands control back: the shell's own prompt is the shell's,
// with its exact end and exit code; a REPL's multi-line block runs to its end.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";

describe("runs after a pager quits", () => {
  let h: Harness;
  let file: string;
  before(async () => {
    h = await Harness.startField();
    file = join(h.home, "long.txt");
    writeFileSync(file, Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  });
  after(async () => h.destroy());

  // The run is typed while the pager's command line is still ending (here held a moment by the
  // sleep after it; in the trial, less had not exited yet): the prompt the shell then draws is
  // its own, not a program's.
  test("less quit with q (and its Enter): the next run ends by the shell's mark, with its exit code and without the prompt", async () => {
    await h.ok("terminal_open", { name: "pg", command: "bash", rows: 30, cols: 100 });
    for (const command of [`less '${file}'; sleep 1`, `less '${file}'`]) {
      const paged = await h.ok("terminal_run", { session: "pg", command, timeout_s: 20 });
      assert.equal(paged.reason, "fullscreen", JSON.stringify(paged));
      await h.ok("terminal_send", { session: "pg", text: "q" });
      const next = await h.ok("terminal_run", { session: "pg", command: "ls /nonexistent-after-pager", timeout_s: 20 });
      assert.equal(next.reason, "osc133", `${command}: ${JSON.stringify(next)}`);
      assert.equal(next.exit_code, 2, JSON.stringify(next));
      assert.equal(next.running, false);
      assert.match(next.output, /nonexistent-after-pager/);
      assert.doesNotMatch(next.output, /[#$] *$/, JSON.stringify(next.output));
    }
  });
});
