// Issue 21 §4: a run without session (a throwaway shell) never loses its output. A command that
// ends the shell itself (`…; exit 3`) used to come back empty or as its own command line in a
// few runs in a hundred (tmux drops a pane's last output when its program ends before tmux
// passed it on), with bash's "exit" line glued to the output, and a hint naming the session
// that was just closed. Run as a client runs termhive: bare env, another folder.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";

/** Runs `command` without session `runs` times; returns the results that were not exactly right. */
async function throwawayRuns(
  call: (args: Record<string, unknown>) => Promise<Record<string, any>>,
  runs: number,
  command: string,
  expected: { output: string; exit_code: number },
): Promise<string[]> {
  const wrong: string[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await call({ command });
    const hintToClosed = r.session_closed === true && /terminal_read|terminal_close|terminal_wait/.test(String(r.hint ?? ""));
    if (r.output !== expected.output || r.exit_code !== expected.exit_code || r.session_closed !== true || hintToClosed) {
      wrong.push(`run ${i}: ${JSON.stringify({ output: r.output, exit_code: r.exit_code, reason: r.reason, closed: r.session_closed, hint: r.hint })}`);
    }
  }
  return wrong;
}

describe("throwaway runs keep their output", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("100 runs of a command that ends its shell: output exact, no `exit` line, no hint to the closed session", async () => {
    const wrong = await throwawayRuns((a) => h.ok("terminal_run", a), 100, "printf 'a\\nb\\n'; exit 3", { output: "a\nb", exit_code: 3 });
    assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of 100 runs wrong`);
  });

  test("a fresh server process per run, with an empty HOME: 10 runs exact", async () => {
    mkdirSync(join(h.home, "empty-home"), { recursive: true });
    const empty = await Harness.startField({ HOME: join(h.home, "empty-home") });
    try {
      const wrong = await throwawayRuns((a) => empty.callOnce("terminal_run", a).then((r) => (r.isError ? { error: r.text } : r.data)), 10, "printf 'a\\nb\\n'; exit 3", {
        output: "a\nb",
        exit_code: 3,
      });
      assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of 10 runs wrong`);
    } finally {
      await empty.destroy();
    }
  });

  for (const shell of ["bash", "zsh", "fish"]) {
    test(`${shell}: a command that exits the session's shell returns its exact output and exit code, 10 times`, async () => {
      const wrong: string[] = [];
      for (let i = 0; i < 10; i++) {
        const name = `exits-${shell}-${i}`;
        await h.ok("terminal_open", { name, command: shell });
        const r = await h.ok("terminal_run", { session: name, command: "printf 'a\\nb\\n'; exit 3" });
        if (r.output !== "a\nb" || r.exit_code !== 3) wrong.push(`${i}: ${JSON.stringify({ output: r.output, exit_code: r.exit_code, reason: r.reason })}`);
        await h.ok("terminal_close", { session: name, force: true });
      }
      assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of 10 wrong`);
    });
  }
});
