// agent_restore brings an agent back with the bindings it had when its pane went, not the ones
// it was started with: a team joined (team_assign) or left after the start, as the user trial
// did it (spawn, team_create, team_assign, kill the pane or let the program exit, restore),
// in the same server and in a fresh server process; its name, folder and profile with it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";
import { agentIs, projectDir } from "./real-agents.js";

describe("agent_restore keeps an agent's team and other bindings", () => {
  let h: Harness;
  const folders: Record<string, string> = {};

  before(async () => {
    h = await Harness.startField();
    for (const name of ["alice", "bob", "carol"]) folders[name] = projectDir(h, `proj-${name}`);
  });
  after(async () => {
    await h?.destroy();
  });

  const agent = async (name: string): Promise<Record<string, any>> =>
    (await h.ok("agent_list", {})).agents.find((a: { name: string }) => a.name === name);
  const teamLines = async () => (await h.call("team_list", {})).text.split("\n").sort();
  const killPane = async (name: string) => assert.equal(h.tmux("kill-pane", "-t", (await agent(name)).pane).status, 0);

  /** Back in its own folder, under its own name and profile, in `team`. */
  const backAsBefore = async (name: string, team: string | null) => {
    const a = await agent(name);
    assert.equal(a.alive, true, JSON.stringify(a));
    assert.equal(a.team, team, JSON.stringify(a));
    assert.equal(a.profile, "shell");
    assert.equal(a.session_name, name);
    const pwd = await h.ok("terminal_run", { session: name, command: "pwd", timeout_s: 30 });
    assert.equal(pwd.output.trim(), folders[name]);
  };

  test("an agent whose team changed after its start comes back in the team it was in", async () => {
    // alice: no team at spawn, put in one after (the trial); bob: moved from the team he was
    // spawned in; carol: taken out of hers.
    await h.ok("agent_spawn", { name: "alice", command: "bash", cwd: folders.alice });
    await h.ok("team_create", { name: "backend" });
    await h.ok("team_assign", { agent: "alice", team: "backend" });
    await h.ok("agent_spawn", { name: "bob", command: "bash", cwd: folders.bob, team: "frontend" });
    await h.ok("team_assign", { agent: "bob", team: "backend" });
    await h.ok("agent_spawn", { name: "carol", command: "bash", cwd: folders.carol, team: "frontend" });
    await h.ok("team_assign", { agent: "carol", team: null });
    assert.deepEqual(await teamLines(), ["backend: alice, bob", "frontend: (no agents)"]);

    // Gone both ways: a pane killed, a program that exited.
    await killPane("alice");
    await h.ok("terminal_send", { session: "bob", text: "exit" });
    await killPane("carol");
    for (const name of ["alice", "bob", "carol"]) await agentIs(h, name, "exited");

    const r = await h.ok("agent_restore", {});
    assert.deepEqual(r.restored.map((a: { name: string; ok: boolean }) => `${a.name}:${a.ok}`), ["alice:true", "bob:true", "carol:true"], JSON.stringify(r));
    assert.deepEqual(await teamLines(), ["backend: alice, bob", "frontend: (no agents)"]);
    await backAsBefore("alice", "backend");
    await backAsBefore("bob", "backend");
    await backAsBefore("carol", null);
  });

  test("a fresh server process restores the agent into the team it was in, and again after that", async () => {
    const pane = (await agent("alice")).pane;
    process.kill(h.pid, "SIGKILL");
    assert.equal(h.tmux("kill-pane", "-t", pane).status, 0);
    await h.connect();
    const r = await h.ok("agent_restore", {});
    assert.deepEqual(r.restored.map((a: { name: string; ok: boolean }) => `${a.name}:${a.ok}`), ["alice:true"], JSON.stringify(r));
    assert.deepEqual(await teamLines(), ["backend: alice, bob", "frontend: (no agents)"]);
    await backAsBefore("alice", "backend");

    // Moved once more, then restored a second time: the newest team, not the one of the first restore.
    await h.ok("team_assign", { agent: "alice", team: "frontend" });
    await killPane("alice");
    await agentIs(h, "alice", "exited");
    await h.ok("agent_restore", { name: "alice" });
    assert.deepEqual(await teamLines(), ["backend: bob", "frontend: alice"]);
    await backAsBefore("alice", "frontend");
  });
});
