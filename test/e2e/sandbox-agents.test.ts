// Issue 26, the hive's side of sandboxes: agent_spawn / hive_layout / profiles / TERMHIVE_SANDBOX,
// the refusal of an agent whose own permission checks are off and that has no sandbox, the
// in-pane `termhive` (msg, status) from inside, zsh and fish inside, the audit line and the
// CLI's --sandbox. Judged by what the programs in the panes do (the shell's own error, the
// file that is or is not there) and by what reached the other agent's mailbox.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { CLI, Harness } from "./harness.js";
import { until } from "../until.js";
import { outsideTmp } from "../temp-folder.js";

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";

describe("sandboxed agents (bubblewrap)", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome = "";
  let project = "";
  let profiles = "";

  before(async () => {
    // Outside /tmp: the sandbox's /tmp is its own, and a user's HOME and projects are not there.
    root = mkdtempSync(join(outsideTmp(), "termhive-sandbox-agents-"));
    userHome = join(root, "user");
    project = join(root, "project");
    for (const dir of [userHome, project]) mkdirSync(dir);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    writeFileSync(join(userHome, ".zshrc"), "export TERMHIVE_E2E_RC=1\n");
    profiles = join(root, "profiles.json");
    writeFileSync(profiles, JSON.stringify({
      profiles: {
        // A program whose --norc stands for "its own permission checks off".
        risky: { extends: "shell", command: "bash", dangerousFlags: ["--norc", "--mode unchecked"] },
        boxed: { extends: "shell", command: "bash", sandbox: "worktree" },
      },
    }));
    h = new Harness(join(root, "termhive"), { HOME: userHome, TERMHIVE_PROFILES: profiles });
    h.bare = true;
    h.cwd = root;
    await h.connect();
  });
  after(async () => {
    await h?.destroy();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = (session: string, command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });
  const agent = async (name: string) => (await h.ok("agent_list")).agents.find((a: { name: string }) => a.name === name);

  test("agent_spawn sandbox: the agent writes its cwd, not $HOME; agent_list shows the policy; the open's audit line carries it", async () => {
    const spawned = await h.ok("agent_spawn", { name: "boxa", command: "bash", cwd: project, sandbox: "worktree" });
    assert.match(String(spawned.agent.sandbox), /^worktree: write .*project; network outside$/);
    assert.match(String((await agent("boxa")).sandbox), /^worktree: write .*project; network outside$/);
    const inside = await run("boxa", "echo kept > from-agent.txt");
    assert.equal(inside.exit_code, 0, inside.output);
    assert.ok(existsSync(join(project, "from-agent.txt")));
    const home = await run("boxa", 'echo leaked > "$HOME/agent-leak.txt"');
    assert.notEqual(home.exit_code, 0);
    assert.match(home.output, /Read-only file system/);
    assert.equal(existsSync(join(userHome, "agent-leak.txt")), false);
    const audit = readFileSync(join(h.home, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
    const open = audit.find((e) => e.event === "open" && e.name === "boxa");
    assert.ok(open, "no open line for boxa");
    assert.deepEqual(open.sandbox.write, [project]);
    assert.equal(open.sandbox.network, "outside");
  });

  test("an agent given a HOME of its own (env.HOME) writes its program's folders there; its ~/.claude.json is a private copy", async () => {
    // A program named claude (a shell here): the worktree preset adds the folders Claude Code keeps its login and sessions in.
    const bin = join(root, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "claude"), "#!/bin/bash\nexec bash --norc \"$@\"\n", { mode: 0o755 });
    const own = join(root, "agent-home");
    mkdirSync(join(own, ".claude"), { recursive: true });
    writeFileSync(join(own, ".claude.json"), '{"original":true}\n');
    const spawned = await h.ok("agent_spawn", { name: "ownhome", command: join(bin, "claude"), profile: "shell", cwd: project, sandbox: "worktree", env: { HOME: own } });
    assert.match(String(spawned.agent.sandbox), /agent-home\/\.claude/, String(spawned.agent.sandbox));
    const wrote = await run("ownhome", 'echo kept > "$HOME/.claude/probe" && echo "{}" > "$HOME/.claude.json" && echo done');
    // (A program termhive does not integrate: no exit code, its output tells.)
    assert.match(wrote.output, /^done$/m, wrote.output);
    assert.equal(readFileSync(join(own, ".claude", "probe"), "utf8"), "kept\n");
    // What the pane wrote to ~/.claude.json (where MCP servers are registered) stayed in its own copy.
    assert.equal(readFileSync(join(own, ".claude.json"), "utf8"), '{"original":true}\n');
  });

  test("the in-pane termhive works from inside: msg reaches another agent's mailbox as this agent (no --from), status sets its status", async () => {
    await h.ok("agent_spawn", { name: "peer", command: "bash", cwd: project });
    const sent = await run("boxa", "termhive msg peer hello from the box && termhive msg --from boss peer second");
    assert.equal(sent.exit_code, 0, sent.output);
    const mail = await until("the messages in peer's mailbox", async () => {
      const r = await h.ok("hive_inbox", { agent: "peer", peek: true });
      return r.messages.length >= 2 ? r.messages : undefined;
    });
    assert.deepEqual(mail.map((m: { from: string; text: string }) => [m.from, m.text]), [["boxa", "hello from the box"], ["boxa", "second"]]);
    const status = await run("boxa", "termhive status waiting reviewing in the box");
    assert.equal(status.exit_code, 0, status.output);
    const a = await until("boxa's self-reported status", async () => {
      const found = await agent("boxa");
      return found?.detail === "reviewing in the box" ? found : undefined;
    });
    assert.equal(a.status, "waiting_for_input");
    assert.equal(a.source, "self");
    // The inbox cannot be read from inside: a clear error, not an empty store of the sandbox's own.
    const inbox = await run("boxa", "termhive inbox");
    assert.notEqual(inbox.exit_code, 0);
    assert.match(inbox.output, /cannot read the hive from inside a sandbox/);
  });

  test("a profile's sandbox applies to its agents; TERMHIVE_SANDBOX to every agent of another server process", async () => {
    await h.ok("agent_spawn", { name: "byprofile", profile: "boxed", cwd: project });
    assert.match(String((await agent("byprofile")).sandbox), /^worktree: /);
    const other = new Harness(h.home, { ...h.env, TERMHIVE_SANDBOX: "worktree" });
    other.bare = true;
    other.cwd = root;
    await other.connect();
    try {
      const spawned = await other.ok("agent_spawn", { name: "bydefault", command: "bash", cwd: project });
      assert.match(String(spawned.agent.sandbox), /^worktree: write .*project/);
      const r = await other.ok("terminal_run", { session: "bydefault", command: 'touch "$HOME/default-leak"', timeout_s: 30 });
      assert.notEqual(r.exit_code, 0);
      assert.equal(existsSync(join(userHome, "default-leak")), false);
      // A terminal is not an agent: TERMHIVE_SANDBOX leaves terminal_open alone.
      const plain = await other.ok("terminal_open", { name: "plain-term", command: "bash", cwd: project });
      assert.equal(plain.sandbox, undefined);
    } finally {
      await other.close();
    }
    const bad = spawnSync(process.execPath, [CLI, "ls"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: userHome, TERMHIVE_HOME: h.home, TERMHIVE_SANDBOX: "sometimes" }, cwd: root, timeout: 60_000 });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /TERMHIVE_SANDBOX="sometimes" is invalid: use worktree, readonly or off/);
  });

  test("an agent whose command turns off its own permission checks is refused without a sandbox; confirm or a sandbox lets it start", async () => {
    const before = (await h.ok("terminal_list")).sessions.length;
    for (const [name, args] of [
      ["risky1", { profile: "risky", command: "bash --norc" }],
      ["risky2", { profile: "risky", command: "bash --mode=unchecked" }],
      ["cc", { profile: "claude", command: "claude --dangerously-skip-permissions" }],
      ["cx", { command: "codex --yolo" }],
      ["cx2", { command: "codex --sandbox danger-full-access" }],
    ] as const) {
      const r = await h.call("agent_spawn", { name, cwd: project, ...args });
      assert.equal(r.isError, true, `${name}: ${r.text}`);
      assert.match(r.text, /own permission checks off\) and no sandbox.*confirm: true.*nothing was started/, r.text);
    }
    const layout = await h.call("hive_layout", { layout: "horizontal", panes: [{ name: "lay-ok", command: "bash" }, { name: "lay-risky", agent: "lay-risky", profile: "risky", command: "bash --norc" }] });
    assert.equal(layout.isError, true, layout.text);
    assert.match(layout.text, /--norc.*pass confirm: true on its pane/);
    assert.equal((await h.ok("terminal_list")).sessions.length, before, "a refusal opened a pane");

    const confirmed = await h.ok("agent_spawn", { name: "risky-ok", profile: "risky", command: "bash --norc", cwd: project, confirm: true });
    assert.equal(confirmed.agent.sandbox, undefined);
    const boxed = await h.ok("agent_spawn", { name: "risky-boxed", profile: "risky", command: "bash --norc", cwd: project, sandbox: "readonly" });
    assert.match(String(boxed.agent.sandbox), /^readonly: read-only; network outside$/);
    const r = await run("risky-boxed", "touch inside-readonly");
    assert.notEqual(r.exit_code, 0);
    assert.equal(existsSync(join(project, "inside-readonly")), false);
  });

  test("hive_layout: a pane's own sandbox, an agent pane's profile sandbox, and a plain pane beside them unaffected", async () => {
    const side = join(root, "side");
    mkdirSync(side);
    const r = await h.ok("hive_layout", { layout: "horizontal", panes: [
      { name: "lay-box", command: "bash", cwd: side, sandbox: { write: [side], network: "off" } },
      { name: "lay-agent", agent: "lay-agent", profile: "boxed", command: "bash", cwd: side },
      { name: "lay-plain", command: "bash", cwd: side },
    ] });
    assert.equal(r.panes.length, 3);
    const listed = new Map(((await h.ok("terminal_list")).sessions as { name: string; sandbox?: string }[]).map((s) => [s.name, s.sandbox]));
    assert.match(String(listed.get("lay-box")), /write .*side; network off$/);
    assert.match(String(listed.get("lay-agent")), /^worktree: write .*side/);
    assert.equal(listed.get("lay-plain"), undefined);
    for (const pane of ["lay-box", "lay-agent"]) {
      const w = await run(pane, `echo ${pane} > ${pane}.txt && touch "$HOME/${pane}-leak"`);
      assert.notEqual(w.exit_code, 0, w.output);
      assert.ok(existsSync(join(side, `${pane}.txt`)));
      assert.equal(existsSync(join(userHome, `${pane}-leak`)), false);
    }
    const plain = await run("lay-plain", 'touch "$HOME/lay-plain-ok"');
    assert.equal(plain.exit_code, 0, plain.output);
    assert.ok(existsSync(join(userHome, "lay-plain-ok")));
  });

  for (const shell of ["zsh", "fish"]) {
    test(`${shell} inside a sandbox keeps its shell integration: exit codes, cwd; $HOME stays unwritten`, async () => {
      const opened = await h.ok("terminal_open", { name: `box-${shell}`, command: shell, cwd: project, sandbox: "worktree" });
      assert.equal(opened.integrated, true, JSON.stringify(opened));
      const code = await run(opened.session, "sh -c 'exit 3'");
      assert.equal(code.exit_code, 3, code.output);
      const cd = await run(opened.session, `mkdir -p sub-${shell} && cd sub-${shell} && echo in > f`);
      assert.equal(cd.exit_code, 0, cd.output);
      assert.ok(existsSync(join(project, `sub-${shell}`, "f")));
      const listed = ((await h.ok("terminal_list")).sessions as { name: string; cwd?: string }[]).find((s) => s.name === `box-${shell}`);
      assert.equal(listed?.cwd, join(project, `sub-${shell}`));
      const home = await run(opened.session, `echo no > "$HOME/${shell}-leak"`);
      assert.notEqual(home.exit_code, 0);
      assert.equal(existsSync(join(userHome, `${shell}-leak`)), false);
    });
  }

  test("termhive open --sandbox <preset> from the command line; a bad preset is a usage error", () => {
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: userHome, TERMHIVE_HOME: h.home };
    const ok = spawnSync(process.execPath, [CLI, "open", "--name", "cli-box", "--cwd", project, "--sandbox", "readonly", "bash"], { encoding: "utf8", env, cwd: root, timeout: 60_000 });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /opened cli-box .*sandbox readonly: read-only; network outside/);
    const bad = spawnSync(process.execPath, [CLI, "open", "--sandbox", "loose", "bash"], { encoding: "utf8", env, cwd: root, timeout: 60_000 });
    assert.equal(bad.status, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /a sandbox preset: worktree or readonly/);
  });
});
