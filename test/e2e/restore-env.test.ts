// Trial 16 §6: a restore that lacks an agent's env values must not lose its conversation. The
// fake Claude-like TUI (test/fixtures/fake-agent.mjs) reads its log (and the conversations it
// can resume, <log>.sessions) from FAKE_AGENT_LOG, so without that value it cannot resume and
// a fresh start of it dies — the shape of a real Claude whose API env is missing.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { FAKE_AGENT, writeFakeClaudeProfile } from "./fake-claude-profile.js";
import { logHas, logLines } from "./fake-agent-log.js";
import { agentNamed, projectDir } from "./real-agents.js";

describe("agent_restore without an agent's env values", () => {
  let h: Harness;
  let log = "";
  let project = "";
  const firstId = () => readFileSync(`${log}.sessions`, "utf8").split("\n")[0]!;
  const env = () => ({ FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "300" });

  before(async () => {
    h = await Harness.startField({ TERMHIVE_PROFILES: writeFakeClaudeProfile() });
    project = projectDir(h, "proj");
    log = join(h.home, "alice.log");
    await h.ok("agent_spawn", { name: "alice", profile: "fakeclaude", command: `${process.execPath} ${FAKE_AGENT}`, cwd: project, env: env() });
    await h.ok("hive_wait", { targets: "alice", for: "idle", timeout_s: 20 });
    await h.ok("hive_message", { agents: { alice: "turn one" } });
    await logHas(log, "done: turn one");
  });
  after(async () => {
    await h?.destroy();
  });

  test("asks for the missing values and starts nothing; given them, it resumes the conversation", async () => {
    const id = firstId();
    const linesBefore = logLines(log).length;
    assert.equal(h.tmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", {});
    assert.equal(r.failed, 1, JSON.stringify(r));
    const alice = r.restored.find((a: { name: string }) => a.name === "alice");
    assert.equal(alice.ok, false);
    assert.match(alice.error, new RegExp(`needs a value for env FAKE_AGENT_LOG, FAKE_AGENT_TURN_MS .*Nothing was started; its conversation ${id} is kept`));
    assert.equal(((await agentNamed(h, "alice")) as Record<string, unknown> | undefined)?.alive, false);
    const panes = () => h.tmux("list-panes", "-a", "-F", "#{pane_id}").stdout.trim().split("\n").filter(Boolean);
    const refused = panes();

    const again = await h.ok("agent_restore", { name: "alice", env: env() });
    const back = again.restored[0];
    assert.equal(back.ok, true, JSON.stringify(again));
    assert.equal(back.resumed, true);
    assert.equal(back.conversation, id);
    assert.ok(logLines(log).slice(linesBefore).includes(`resumed: ${id}`));
    // The refused call opened no pane: this one opens the agent's only.
    assert.deepEqual(panes().filter((p) => !refused.includes(p)), [back.pane]);
  });

  test("a fresh start that dies leaves the recorded conversation for the next restore", async () => {
    const id = firstId();
    assert.equal(h.tmux("kill-server").status, 0);
    // A value that is wrong: the resume is refused and the fresh start cannot write its log.
    const wrong = { ...env(), FAKE_AGENT_LOG: join(h.home, "no-such-folder", "alice.log") };
    const r = await h.ok("agent_restore", { name: "alice", env: wrong });
    const alice = r.restored[0];
    assert.equal(alice.resumed, false, JSON.stringify(r));
    assert.equal(alice.ready, "exited", JSON.stringify(r));
    assert.match(alice.note, new RegExp(`could not resume conversation ${id} .*the fresh start exited too: conversation ${id} is kept`));

    const again = await h.ok("agent_restore", { name: "alice", env: env() });
    assert.equal(again.restored[0].resumed, true, JSON.stringify(again));
    assert.equal(again.restored[0].conversation, id);
    await h.ok("hive_wait", { targets: "alice", for: "idle", timeout_s: 20 });
    await h.ok("hive_message", { agents: { alice: "turn two" } });
    await logHas(log, "done: turn two");
  });
});
