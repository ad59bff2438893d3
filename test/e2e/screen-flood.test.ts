// After a flood the screen is parsed from its tail only (terminal/model/screen.ts): what a read in
// screen mode shows must still be the pane's real last screen, as tmux itself has it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

let h: Harness;
before(async () => {
  h = await Harness.start();
});
after(async () => h.destroy());

test("terminal_read mode screen after a flood shows the pane's last screen, line for line", async () => {
  const opened = await h.ok("terminal_open", { name: "flood", command: "bash" });
  const run = await h.ok("terminal_run", { session: "flood", command: "seq 1 300000 | awk '{ print $1, ($1 % 7 == 0 ? \"seven\" : \"\") }'", timeout_s: 120 });
  assert.equal(run.exit_code, 0);
  const read = await h.ok("terminal_read", { session: "flood", mode: "screen" });
  const lines = String(read.output).split("\n").map((l) => l.trimEnd()).filter(Boolean);
  assert.ok(lines.some((l) => l === "300000"), read.output);
  assert.ok(lines.some((l) => l === "299999 seven"), read.output);
  // tmux's own view of the pane: the same visible lines.
  const captured = h.tmux("capture-pane", "-p", "-t", opened.pane);
  const tmuxLines = captured.stdout.split("\n").map((l) => l.trimEnd()).filter(Boolean);
  assert.deepEqual(lines.slice(-10), tmuxLines.slice(-10));
});
