// A host that freezes (connected, silent: its link's processes stopped, its tmux and the agent
// going on) is out of reach as a dropped one is: a cascade queues its agent's part instead of
// typing into a link that does not answer, and types it once when the host answers again.
// Judged by the fake agent's own log on the host (test/fixtures/fake-agent.mjs).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { writeFakeClaudeProfile } from "./fake-claude-profile.js";
import { logHas, logLines } from "./fake-agent-log.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";
import { connectionTree, signalAll } from "../fixtures/sshd/freeze.js";

const skip = sshdAvailable() ? false : "sshd (openssh-server) is not installed: apt-get install -y openssh-server";

describe("a cascade to an agent on a frozen host", { skip }, () => {
  let host: LoopbackHost;
  let h: Harness;
  let frozen: number[] = [];
  before(async () => {
    host = await startLoopbackHost();
    h = await Harness.start({ TERMHIVE_SSH: host.sshCommand, TERMHIVE_PROFILES: writeFakeClaudeProfile() });
  });
  after(async () => {
    signalAll(frozen, "SIGCONT");
    await h?.destroy();
    await host?.stop();
  });

  test("its part is queued (its host is down), nothing typed while frozen, typed once when it answers again", async () => {
    const log = join(host.remoteHome, "fz.log");
    const { installed } = host;
    await h.ok("agent_spawn", { name: "fz", profile: "fakeclaude", host: host.alias, cwd: host.remoteHome, command: `${process.execPath} ${installed.fakeAgent} ${log} 300` });
    await h.ok("agent_spawn", { name: "near", profile: "shell", command: "bash" });
    await h.ok("hive_wait", { targets: ["fz", "near"], for: "idle", mode: "all", timeout_s: 30 });
    frozen = host.connectionPids().flatMap(connectionTree);
    assert.ok(frozen.length > 0);
    signalAll(frozen, "SIGSTOP");

    const r = await h.ok("hive_message", { agents: { fz: "while frozen", near: "echo near-got-it" } });
    const d = r.deliveries.find((x: { agents: string[] }) => x.agents.includes("fz"));
    assert.equal(typeof d?.queued, "number", JSON.stringify(r));
    assert.match(d.note, /host is down/);
    // The rest of the cascade is not held by the frozen host.
    assert.equal(r.deliveries.find((x: { agents: string[] }) => x.agents.includes("near"))?.delivered, true, JSON.stringify(r));
    const queue = (await h.ok("hive_queue", {})).queued as { agents: string[] }[];
    assert.ok(queue.some((q) => q.agents.includes("fz")), JSON.stringify(queue));
    assert.ok(!logLines(log).includes("accepted: while frozen"), logLines(log).join(" | "));

    signalAll(frozen, "SIGCONT");
    frozen = [];
    await logHas(log, "done: while frozen", 60_000);
    assert.equal((await h.ok("hive_wait", { targets: "fz", for: "idle", timeout_s: 30 })).matched, true);
    assert.deepEqual((await h.ok("hive_queue", {})).queued, []);
    assert.equal(logLines(log).filter((l) => l === "accepted: while frozen").length, 1, logLines(log).join(" | "));
  });
});
