// Two server processes on one TERMHIVE_HOME: the status tracker keeps each pane's agents in
// memory (a screen changes far more often than who is bound to it), so an agent bound to a
// pane by another process must reach that memory. Here the second process rebinds the pane to a
// new name and exits; only the first one still watches the pane, and the new agent's status
// must come from its screen judgement.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";

describe("the status tracker sees registry changes made by another process", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("an agent bound to a pane by a second server, which then exits, gets its status from the first server's tracker", async () => {
    const signal = join(h.home, "ask");
    // A prompt, then nothing until the signal file appears; then a shell-style question
    // (the shell profile's waiting_for_input rule). No output in between: the first server
    // writes no status of its own meanwhile.
    const script = join(h.home, "pane.sh");
    writeFileSync(script, `printf 'fake $ '\nwhile [ ! -e '${signal}' ]; do sleep 0.05; done\nprintf '\\nContinue? [y/N] '\nexec sleep 600\n`);
    await h.ok("terminal_open", { name: "shared", command: `bash ${script}` });
    await h.ok("agent_register", { name: "first", session: "shared", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "first", for: "idle", timeout_s: 15 })).matched, true);

    // Another server process on the same home: "second" takes the pane, "first" goes. It exits.
    const other = new Harness(h.home, h.env);
    await other.connect();
    try {
      await other.ok("agent_register", { name: "second", session: "shared", profile: "shell" });
      await other.ok("agent_remove", { name: "first" });
    } finally {
      await other.close(); // resolves once that process has exited
    }

    // Only the first server watches the pane now: the question is judged by its tracker alone.
    writeFileSync(signal, "");
    const asked = await h.ok("hive_wait", { targets: "second", for: "waiting_for_input", timeout_s: 10 });
    assert.equal(asked.matched, true, `the first server did not judge the agent the other process bound: ${JSON.stringify(asked)}`);
    const second = (await h.ok("agent_list", {})).agents.find((a: { name: string }) => a.name === "second");
    assert.equal(second?.status, "waiting_for_input", JSON.stringify(second));
  });
});
