// Trial 16 §4: an agent that agent_spawn reports ready sits at its prompt: its status is idle
// in that answer, and a message sent at once is typed, not queued as busy (judged by the fake
// agent's own log).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { FAKE_AGENT, writeFakeClaudeProfile } from "./fake-claude-profile.js";
import { logHas } from "./fake-agent-log.js";

describe("agent_spawn ready means idle", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField({ TERMHIVE_PROFILES: writeFakeClaudeProfile() });
  });
  after(async () => {
    await h?.destroy();
  });

  test("the spawn's answer says idle and the first message is typed at once", async () => {
    const log = join(h.home, "bob.log");
    const r = await h.ok("agent_spawn", { name: "bob", profile: "fakeclaude", command: `${process.execPath} ${FAKE_AGENT} ${log} 300` });
    assert.equal(r.ready, "ready");
    assert.equal(r.agent.status, "idle", JSON.stringify(r.agent));
    const m = await h.call("hive_message", { agents: { bob: "first words" } });
    assert.match(m.text, /^delivered 1, queued 0/, m.text);
    await logHas(log, "accepted: first words");
  });
});
