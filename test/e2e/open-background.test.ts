// Issue 21 §3: terminal_open returns while the shell still reads its rc files (here a 0.5 s
// one that also reads the terminal), and whatever types into it waits for its first prompt itself: a run typed at once gets
// the rc's environment and its exit code, a send is not lost, in bash, zsh and fish; also when
// open and run come from two fresh server processes (the second one adopts a shell that is
// still starting). Order and state are asserted, not wall time (figures: `npm run bench open`).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Harness } from "./harness.js";

const SHELLS = ["bash", "zsh", "fish"] as const;

describe("open returns before a slow rc has run; runs and sends wait for the shell", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    const home = join(h.home, "user");
    // Slow, and reading the terminal as rc files that ask something do (an update prompt): a
    // line typed before the first prompt would be eaten here instead of run.
    // RC_GATE: a fifo the rc waits on, so a test sees the shell starting for as long as it needs.
    writeFileSync(join(home, ".bashrc"), "[ -n \"$RC_GATE\" ] && read -r _ < \"$RC_GATE\"\nsleep ${RC_SLEEP:-0.5}\nread -t 0.3 -r rcline\nexport SLOW_RC=done\n");
    writeFileSync(join(home, ".zshrc"), "sleep ${RC_SLEEP:-0.5}\nread -t 0.3 rcline\nexport SLOW_RC=done\n");
    mkdirSync(join(home, ".config", "fish"), { recursive: true });
    writeFileSync(join(home, ".config", "fish", "config.fish"), "set -q RC_SLEEP; or set RC_SLEEP 0.5\nsleep $RC_SLEEP\ntimeout --foreground 0.3 head -n 1 >/dev/null\nset -gx SLOW_RC done\n");
  });
  after(async () => h.destroy());

  test("terminal_list shows a shell still starting as starting (not running: bash), with its pane", async () => {
    const gate = join(h.home, "rc-gate");
    execFileSync("mkfifo", [gate]);
    const opened = await h.ok("terminal_open", { name: "listed", command: "bash", env: { RC_GATE: gate } });
    assert.equal(opened.ready, false, JSON.stringify(opened));
    const starting = await h.call("terminal_list");
    const entry = starting.data.sessions.find((s: { name: string }) => s.name === "listed");
    assert.deepEqual([entry.starting, entry.running], [true, null], JSON.stringify(entry));
    const line = starting.text.split("\n").find((l) => l.startsWith("listed "))!;
    assert.match(line, new RegExp(`^listed \\(${opened.session}, pane ${opened.pane}\\) alive · bash · starting · idle`));
    assert.doesNotMatch(line, /running:/);
    await writeFile(gate, "go\n");
    assert.equal((await h.ok("terminal_run", { session: "listed", command: "echo up", timeout_s: 20 })).output, "up");
    const after = await h.call("terminal_list");
    const done = after.text.split("\n").find((l) => l.startsWith("listed "))!;
    assert.doesNotMatch(done, /starting|running:/);
    assert.equal(after.data.sessions.find((s: { name: string }) => s.name === "listed").starting, undefined);
  });

  for (const shell of SHELLS) {
    test(`${shell}: open says it is still starting; a run typed at once gets the rc's environment and its exit code`, async () => {
      const opened = await h.ok("terminal_open", { name: `slow-${shell}`, command: shell });
      assert.equal(opened.ready, false, JSON.stringify(opened));
      assert.match(String(opened.hint), /starting/);
      const r = await h.ok("terminal_run", { session: `slow-${shell}`, command: "echo rc-$SLOW_RC; sh -c 'exit 5'", timeout_s: 20 });
      assert.deepEqual([r.reason, r.output, r.exit_code], ["osc133", "rc-done", 5], JSON.stringify(r));
    });

    test(`${shell}: a send typed at once is not lost`, async () => {
      const opened = await h.ok("terminal_open", { name: `send-${shell}`, command: shell });
      assert.equal(opened.ready, false, JSON.stringify(opened));
      await h.ok("terminal_send", { session: `send-${shell}`, text: "echo sent-$SLOW_RC\n" });
      const seen = await h.ok("terminal_wait", { session: `send-${shell}`, pattern: "sent-done", timeout_s: 20 });
      assert.equal(seen.matched, true, JSON.stringify(seen));
      const r = await h.ok("terminal_run", { session: `send-${shell}`, command: "echo after", timeout_s: 20 });
      assert.deepEqual([r.reason, r.output, r.exit_code], ["osc133", "after", 0], JSON.stringify(r));
    });

    test(`${shell}: opened by one fresh process, run at once by another (which adopts the shell still starting)`, async () => {
      // Longer than a fresh server process takes to start, so the second one meets the shell still starting.
      const opened = await h.callOnce("terminal_open", { name: `cross-${shell}`, command: shell, env: { RC_SLEEP: "4" } });
      assert.equal(opened.data.ready, false, opened.text);
      const r = await h.callOnce("terminal_run", { session: `cross-${shell}`, command: "echo cross-$SLOW_RC; sh -c 'exit 6'", timeout_s: 20 });
      assert.deepEqual([r.data.reason, r.data.output, r.data.exit_code], ["osc133", "cross-done", 6], r.text);
    });
  }
});
