// Issue 20 §6: a terminal's answers to a program's questions never land in front of the next
// command, and two processes closing one session both get a clean answer.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("issue 20 §6 smaller holes", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("a program that asks for the cursor position or device attributes and exits leaves nothing in the next command", async () => {
    const { session } = await h.ok("terminal_open", { name: "asker", command: "bash" });
    // tmux answers each question into the pane's input; printf exits without reading it.
    assert.equal((await h.ok("terminal_run", { session, command: "printf '\\033[6n'" })).exit_code, 0);
    const da = await h.ok("terminal_run", { session, command: "printf '\\033[c'" });
    assert.equal(da.exit_code, 0, JSON.stringify(da));
    assert.doesNotMatch(da.output, /command not found/);
    const next = await h.ok("terminal_run", { session, command: "echo next" });
    assert.equal(next.exit_code, 0, JSON.stringify(next));
    assert.match(next.output, /^next$/m);
    assert.doesNotMatch(next.output, /command not found/);
  });

  test("two processes closing one session: one closes it, the other is told it is already closed", async () => {
    for (let round = 0; round < 4; round++) {
      const other = new Harness(h.home, h.env);
      other.bare = true;
      other.cwd = h.cwd;
      await other.connect();
      try {
        const { session } = await h.ok("terminal_open", { name: `shared${round}`, command: "bash" });
        // Both processes know the session before either closes it.
        assert.ok((await other.ok("terminal_list", {})).sessions.some((s: { session: string }) => s.session === session));
        const results = await Promise.all([h.call("terminal_close", { session }), other.call("terminal_close", { session })]);
        assert.ok(results.some((r) => !r.isError), JSON.stringify(results));
        for (const r of results.filter((r) => r.isError)) {
          assert.doesNotMatch(r.text, /internal error|can't find pane/i);
          assert.match(r.text, /unknown session/);
        }
      } finally {
        await other.close();
      }
    }
  });
});
