// An agent on an ssh host comes back like a local one: after the host's tmux server dies
// (`tmux kill-server` there, or a reboot), agent_restore starts it again on that host, in its
// folder, resuming the conversation the program started (judged by the fake agent's own log).
// The host is a real OpenSSH server on loopback (test/fixtures/sshd) with a HOME of its own.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { writeFakeClaudeProfile } from "./fake-claude-profile.js";
import { logHas } from "./fake-agent-log.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";

const skip = sshdAvailable() ? false : "sshd (openssh-server) is not installed: apt-get install -y openssh-server";

describe("agent_restore of an agent on an ssh host", { skip }, () => {
  let host: LoopbackHost;
  let h: Harness;
  const remoteTmux = (...args: string[]) =>
    spawnSync("tmux", ["-S", join(host.remoteHome, ".local/state/termhive/tmux.sock"), ...args], { encoding: "utf8" });

  before(async () => {
    host = await startLoopbackHost();
    h = await Harness.start({ TERMHIVE_SSH: host.sshCommand, TERMHIVE_PROFILES: writeFakeClaudeProfile() });
  });
  after(async () => {
    await h?.destroy();
    await host?.stop();
  });

  test("after the host's tmux kill-server: the agent comes back on the host, in its folder, resuming its conversation", async () => {
    const project = join(host.remoteHome, "proj");
    mkdirSync(project);
    const log = join(host.remoteHome, "ra.log");
    await h.ok("agent_spawn", { name: "ra", profile: "fakeclaude", host: host.alias, cwd: project, command: `${process.execPath} ${host.installed.fakeAgent} ${log} 300` });
    await h.ok("hive_wait", { targets: "ra", for: "idle", timeout_s: 20 });
    await h.ok("hive_message", { agents: { ra: "turn one" } });
    await logHas(log, "done: turn one");
    const conversation = readFileSync(`${log}.sessions`, "utf8").split("\n")[0]!;
    assert.match(conversation, /^[0-9a-f-]{36}$/);

    assert.equal(remoteTmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", {});
    assert.equal(r.failed, 0, JSON.stringify(r));
    const ra = r.restored.find((a: { name: string }) => a.name === "ra");
    assert.equal(ra?.resumed, true, JSON.stringify(r));
    assert.equal(ra.conversation, conversation);
    await logHas(log, `resumed: ${conversation}`);
    // On the host, in the host's new tmux server, in its folder.
    const panes = remoteTmux("list-panes", "-a", "-F", "#{pane_id} #{pane_current_path}");
    assert.equal(panes.status, 0, panes.stderr);
    assert.ok(panes.stdout.includes(` ${project}`), panes.stdout);
    const listed = await h.ok("agent_list", {});
    // agent_list says where it runs.
    assert.equal(listed.agents.find((a: { name: string }) => a.name === "ra")?.host, host.alias, JSON.stringify(listed));

    await h.ok("hive_wait", { targets: "ra", for: "idle", timeout_s: 20 });
    await h.ok("hive_message", { agents: { ra: "turn two" } });
    await logHas(log, "done: turn two");
  });
});
