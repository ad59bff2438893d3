// Issue 25 §1 with the fake Claude-like TUI (test/fixtures/fake-agent.mjs) and plain shells:
// agent_restore and `termhive restore` after `tmux kill-server` (and after termhive is killed
// too) bring agents back in new panes — resuming the conversation the program itself started
// (judged by the fake's own log: it was given `--resume <the id it started with>`), in their
// folder and shared window — and an agent that cannot resume starts fresh and says so. The
// real Claude Code and Codex: real-restore.test.ts.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { TermhiveClient } from "../../src/grpc/client.js";
import { serve, type Served } from "./serve-process.js";
import { join } from "node:path";
import { CLI, Harness } from "./harness.js";
import { FAKE_AGENT, writeFakeClaudeProfile } from "./fake-claude-profile.js";
import { logHas, logLines } from "./fake-agent-log.js";
import { agentNamed as named, projectDir, until } from "./real-agents.js";
import { outsideTmp } from "../temp-folder.js";

/** The agent as agent_list shows it (all its fields). */
const agentNamed = async (h: Harness, name: string): Promise<Record<string, any>> => (await named(h, name)) as Record<string, any>;

const SECRET = "probe-secret-4711";
const FAKE = `${process.execPath} ${FAKE_AGENT}`;

describe("agent_restore / termhive restore", () => {
  let h: Harness;
  let project: string;
  const logs = { la: "", lb: "" };

  before(async () => {
    h = await Harness.startField({ TERMHIVE_PROFILES: writeFakeClaudeProfile() });
    project = projectDir(h, "proj");
    logs.la = join(h.home, "la.log");
    logs.lb = join(h.home, "lb.log");
  });
  after(async () => {
    await h?.destroy();
  });

  const firstId = (log: string) => readFileSync(`${log}.sessions`, "utf8").split("\n")[0]!;
  const windowOf = (pane: string) => h.tmux("display-message", "-p", "-t", pane, "#{window_id}").stdout.trim();
  const restoredNamed = (r: Record<string, any>, name: string) => r.restored.find((a: { name: string }) => a.name === name);

  test("after tmux kill-server: agents come back resuming their own conversations, in their shared window; a shell starts fresh and says so", async () => {
    await h.ok("hive_layout", {
      layout: "horizontal",
      panes: (["la", "lb"] as const).map((name) => ({ name, profile: "fakeclaude", team: "crew", command: `${FAKE} ${logs[name]} 300`, cwd: project })),
    });
    await h.ok("agent_spawn", { name: "sh", command: "bash", cwd: project, env: { RESTORE_PROBE: SECRET } });
    for (const name of ["la", "lb"] as const) {
      await h.ok("hive_wait", { targets: name, for: "idle", timeout_s: 20 });
      await h.ok("hive_message", { agents: { [name]: `turn one of ${name}` } });
      await logHas(logs[name], `done: turn one of ${name}`);
    }
    const ids = { la: firstId(logs.la), lb: firstId(logs.lb) };
    assert.match(ids.la, /^[0-9a-f-]{36}$/);

    // Env values are never stored, only their names.
    const db = ["hive.db", "hive.db-wal"].map((f) => (existsSync(join(h.home, f)) ? readFileSync(join(h.home, f), "latin1") : "")).join("");
    assert.ok(db.includes("RESTORE_PROBE") && !db.includes(SECRET), "the env value is in the hive database");

    assert.equal(h.tmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { env: { RESTORE_PROBE: "given-again" } });
    assert.deepEqual(r.restored.map((a: { name: string }) => a.name), ["la", "lb", "sh"], JSON.stringify(r));
    assert.equal(r.failed, 0, JSON.stringify(r));
    for (const name of ["la", "lb"] as const) {
      const a = restoredNamed(r, name);
      assert.equal(a.resumed, true, JSON.stringify(a));
      assert.equal(a.conversation, ids[name]);
      // The program itself was given its conversation back.
      await logHas(logs[name], `resumed: ${ids[name]}`);
    }
    const sh = restoredNamed(r, "sh");
    assert.equal(sh.resumed, false);
    assert.match(sh.note, /cannot resume: profile 'shell' has no resume command; started fresh/);
    // Once all are back, nothing is left to restore.
    assert.match((await h.call("agent_restore", {})).text, /no agent's pane is gone: nothing to restore/);

    // Same window as before (the two were one layout), same team, same folder.
    assert.equal(windowOf(restoredNamed(r, "la").pane), windowOf(restoredNamed(r, "lb").pane));
    assert.equal((await agentNamed(h, "la")).team, "crew");
    const pwd = await h.ok("terminal_run", { session: "sh", command: 'pwd; echo "probe=$RESTORE_PROBE"' });
    assert.equal(pwd.output.trim(), `${project}\nprobe=given-again`);

    // And it works: a message reaches the resumed program.
    await h.ok("hive_wait", { targets: "la", for: "idle", timeout_s: 20 });
    await h.ok("hive_message", { agents: { la: "turn two of la" } });
    await logHas(logs.la, "done: turn two of la");
  });

  test("a name that is unknown, or whose pane is alive, is a clear error and changes nothing", async () => {
    const before = await agentNamed(h, "la");
    const unknown = await h.call("agent_restore", { name: "nope" });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /unknown agent 'nope'; valid agents: la, lb, sh/);
    const alive = await h.call("agent_restore", { name: "la" });
    assert.equal(alive.isError, true);
    assert.match(alive.text, /agent 'la' is running .*nothing to restore/);
    const now = await agentNamed(h, "la");
    assert.equal(now.session, before.session);
    assert.equal(now.alive, true);
    assert.ok(!logLines(logs.la).includes("exit: ctrl-c"));
  });

  test("a program that refuses the conversation id starts fresh, and the answer says why", async () => {
    const id = firstId(logs.lb);
    rmSync(`${logs.lb}.sessions`); // the fake no longer has the conversation
    assert.equal(h.tmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { name: "lb" });
    const lb = restoredNamed(r, "lb");
    assert.equal(lb.ok, true, JSON.stringify(lb));
    assert.equal(lb.resumed, false);
    assert.match(lb.note, new RegExp(`could not resume conversation ${id} \\(the program exited: No conversation found with session ID: ${id}\\); started fresh`));
    assert.notEqual(lb.conversation, id);
    assert.equal((await agentNamed(h, "lb")).alive, true);
    // The fresh start has a conversation of its own, which a later restore resumes.
    assert.equal(firstId(logs.lb), lb.conversation);
  });

  test("after tmux and termhive are both killed, `termhive restore` brings the hive back and the next server drives it", async () => {
    // (la and sh are gone since the last kill-server; lb was restored alone.)
    assert.equal((await agentNamed(h, "lb")).alive, true);
    process.kill(h.pid, "SIGKILL");
    assert.equal(h.tmux("kill-server").status, 0);
    const cli = spawnSync(process.execPath, [CLI, "restore", "--json"], { cwd: h.cwd, env: h.serverEnv(), encoding: "utf8", timeout: 90_000 });
    // The shell's env value was not given this time: it is asked for, not invented, and only
    // that agent waits for it (exit 1: one was not restored).
    assert.equal(cli.status, 1, cli.stderr);
    const r = JSON.parse(cli.stdout);
    assert.deepEqual(r.restored.map((a: { name: string; ok: boolean }) => `${a.name}:${a.ok}`), ["la:true", "lb:true", "sh:false"]);
    assert.equal(restoredNamed(r, "la").resumed, true);
    assert.match(restoredNamed(r, "sh").error, /needs a value for env RESTORE_PROBE .*Nothing was started/);
    const sh = spawnSync(process.execPath, [CLI, "restore", "sh", "--env", "RESTORE_PROBE=third", "--json"], { cwd: h.cwd, env: h.serverEnv(), encoding: "utf8", timeout: 90_000 });
    assert.equal(sh.status, 0, sh.stderr);
    assert.deepEqual(JSON.parse(sh.stdout).restored.map((a: { name: string; ok: boolean }) => `${a.name}:${a.ok}`), ["sh:true"]);
    assert.equal(restoredNamed(r, "la").conversation, firstId(logs.la));
    assert.equal(logLines(logs.la).filter((l) => l === `resumed: ${firstId(logs.la)}`).length, 2);
    await h.connect();
    const la = await until("la alive in the new server", async () => {
      const a = await agentNamed(h, "la");
      return a?.alive ? a : undefined;
    });
    assert.equal(la.team, "crew");
    await h.ok("hive_wait", { targets: "la", for: "idle", timeout_s: 20 });
    await h.ok("hive_message", { agents: { la: "turn three of la" } });
    await logHas(logs.la, "done: turn three of la");
  });
});

const bwrap = process.platform === "linux" ? findBwrap() : null;

describe("agent_restore keeps a pane's sandbox", { skip: bwrap ? false : "bubblewrap (bwrap) is not installed" }, () => {
  let h: Harness;
  let root = "";
  let project = "";
  let userHome = "";

  before(async () => {
    // Outside /tmp: the sandbox's /tmp is its own, and a user's HOME and projects are not there.
    root = mkdtempSync(join(outsideTmp(), "termhive-restore-"));
    userHome = join(root, "user");
    project = join(root, "project");
    for (const dir of [userHome, project]) mkdirSync(dir);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    h = new Harness(join(root, "termhive"), { HOME: userHome });
    h.bare = true;
    h.cwd = root;
    await h.connect();
  });
  after(async () => {
    await h?.destroy();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("an agent registered on a sandboxed pane comes back under the same policy", async () => {
    await h.ok("terminal_open", { name: "boxed", command: "bash", cwd: project, sandbox: "worktree" });
    await h.ok("agent_register", { name: "boxed", session: "boxed" });
    assert.equal(h.tmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { name: "boxed" });
    assert.equal(r.restored[0].ok, true, JSON.stringify(r));
    const listed = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "boxed");
    assert.match(String(listed.sandbox), /^worktree: write .*project; network outside$/);
    // Judged by the shell inside: its folder is writable, HOME is not.
    const inside = await h.ok("terminal_run", { session: "boxed", command: "touch kept.txt && pwd", timeout_s: 30 });
    assert.equal(inside.exit_code, 0, inside.output);
    assert.ok(existsSync(join(project, "kept.txt")));
    const home = await h.ok("terminal_run", { session: "boxed", command: 'echo leaked > "$HOME/outside.txt"', timeout_s: 30 });
    assert.notEqual(home.exit_code, 0);
    assert.match(home.output, /Read-only file system/);
    assert.equal(existsSync(join(userHome, "outside.txt")), false);
  });

  test("the policy granted comes back, not one resolved again from the folder the pane cd'd to", async () => {
    await h.ok("terminal_open", { name: "wander", command: "bash", cwd: project, sandbox: "worktree" });
    // In its HOME (readable, not writable) when it becomes an agent: its launch record's folder.
    await h.ok("terminal_run", { session: "wander", command: 'cd "$HOME"', timeout_s: 30 });
    await h.ok("agent_register", { name: "wander", session: "wander" });
    assert.equal(h.tmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { name: "wander" });
    assert.equal(r.restored[0].ok, true, JSON.stringify(r));
    const listed = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "wander");
    assert.match(String(listed.sandbox), /^worktree: write .*project; network outside$/);
    const home = await h.ok("terminal_run", { session: "wander", command: 'echo leaked > "$HOME/wandered.txt"', timeout_s: 30 });
    assert.notEqual(home.exit_code, 0, home.output);
    assert.equal(existsSync(join(userHome, "wandered.txt")), false);
  });
});

describe("termhive restore through a running termhive serve (gRPC AgentRestore)", () => {
  let served: Served | undefined;
  after(async () => {
    await served?.stop();
  });

  test("the CLI asks the server, which restores with its own environment's values", async () => {
    // The server has a value for the agent's env name; the CLI's environment has none.
    served = await serve(["--grpc-port", "0"], undefined, { G1_TOKEN: "from-the-server" });
    const cliEnv = Object.fromEntries(Object.entries(served.env).filter(([k]) => k !== "G1_TOKEN"));
    const client = new TermhiveClient({ socketPath: served.grpcSocket });
    try {
      await client.agentSpawn({ name: "g1", command: "bash", env: { G1_TOKEN: "x" } });
      spawnSync("tmux", ["-S", join(served.home, "tmux.sock"), "kill-server"]);
      const r = spawnSync(process.execPath, [CLI, "restore"], { env: cliEnv, encoding: "utf8", timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^g1: cannot resume: profile 'shell' has no resume command; started fresh · pane %\d+ ready\n$/);
      const echoed = spawnSync(process.execPath, [CLI, "run", "g1", 'echo "token=$G1_TOKEN"'], { env: cliEnv, encoding: "utf8", timeout: 60_000 });
      assert.match(echoed.stdout, /^token=from-the-server\n/);
      // The server itself holds the new pane (it did the restore).
      const agents = (await client.agentList({})) as { agents: { name: string; alive: boolean }[] };
      assert.deepEqual(agents.agents.map((a) => `${a.name}:${a.alive}`), ["g1:true"]);
      const missing = spawnSync(process.execPath, [CLI, "restore", "nope"], { env: cliEnv, encoding: "utf8" });
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /^termhive: unknown agent 'nope'; valid agents: g1\n$/);
    } finally {
      client.closeConnection();
    }
  });
});
