// The ways out of a sandboxed pane that the fourth security trial found (issue 30 items 1, 3 and
// TIOCSTI of 7), run from inside real bubblewrap panes. The termhive home is the default one
// under the user's HOME (outside /tmp, whose sandbox copy is private), the server started in that
// HOME. Judged by what the programs inside manage to do and what is left on disk outside.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { Harness } from "./harness.js";
import { endTmuxServer } from "../tmux-server.js";
import { outsideTmp } from "../temp-folder.js";

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";
const TOKEN = "serve-token-" + "x".repeat(40);

describe("no way out of a sandboxed pane", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome = "";
  let thHome = "";
  let project = "";
  let otherSocket = "";
  let unixServer: Server;
  let unixHits = 0;

  before(async () => {
    root = mkdtempSync(join(outsideTmp(), "termhive-escape-"));
    userHome = join(root, "user");
    thHome = join(userHome, ".local", "state", "termhive");
    project = join(userHome, "proj");
    mkdirSync(thHome, { recursive: true });
    mkdirSync(join(userHome, ".claude"), { recursive: true });
    for (const dir of [".config/tool", ".local/share"]) mkdirSync(join(userHome, dir), { recursive: true });
    mkdirSync(project);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    writeFileSync(join(userHome, ".claude", "settings.json"), "{}\n");
    // The README's HTTP registration put the serve token where Claude Code keeps its servers.
    writeFileSync(join(thHome, "token"), TOKEN + "\n", { mode: 0o600 });
    const registered = JSON.stringify({ mcpServers: { termhive: { type: "http", url: "http://127.0.0.1:7777/mcp", headers: { Authorization: `Bearer ${TOKEN}` } } } });
    writeFileSync(join(userHome, ".claude.json"), registered);
    writeFileSync(join(project, ".mcp.json"), registered);
    const git = spawnSync("git", ["init", "-q", project], { encoding: "utf8" });
    assert.equal(git.status, 0, git.stderr);
    // A linked worktree's .git file names its git folder: rewritten, a later git outside follows it.
    mkdirSync(join(userHome, "linked"));
    writeFileSync(join(userHome, "linked", ".git"), `gitdir: ${join(project, ".git")}\n`);
    // Another termhive home's tmux server, and some other unix socket service of the user's.
    mkdirSync(join(root, "other-home"));
    otherSocket = join(root, "other-home", "tmux.sock");
    assert.equal(spawnSync("tmux", ["-S", otherSocket, "-f", "/dev/null", "new-session", "-d"]).status, 0);
    unixServer = createServer((c) => {
      unixHits++;
      c.end("hello");
    });
    await new Promise<void>((resolve) => unixServer.listen(join(root, "service.sock"), resolve));
    h = new Harness(thHome, { HOME: userHome });
    h.bare = true;
    h.cwd = userHome;
    await h.connect();
  });
  after(async () => {
    unixServer?.close();
    await h?.destroy();
    if (otherSocket) await endTmuxServer(otherSocket);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = (session: string, command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });

  /** From inside: ask the server's tmux for a window that leaves a file outside; look for hive.db. */
  async function triesTheHome(session: string, mark: string): Promise<void> {
    const escaped = join(userHome, mark);
    const r = await run(session, `tmux -S "$TERMHIVE_HOME/tmux.sock" new-window -d "touch ${escaped}"; echo "rc=$?"; test -e "$TERMHIVE_HOME/hive.db" && echo DB-SEEN; echo junk >> "$TERMHIVE_HOME/hive.db"; true`);
    assert.match(r.output, /rc=[1-9]/, `${session}: the server's tmux took the command\n${r.output}`);
    assert.doesNotMatch(r.output, /DB-SEEN/, `${session}: hive.db was visible`);
    assert.equal(existsSync(escaped), false);
    // The server's own database and tmux still answer.
    const listed = await h.ok("terminal_list");
    assert.ok(listed.sessions.some((s: { name: string; session: string }) => s.name === session || s.session === session), JSON.stringify(listed));
  }

  test("no write path exposes termhive's home: one that holds the home folder is refused (cwd ~ with worktree, write:[~], agent_spawn worktree from ~); one above termhive's home keeps it covered and pinned", async () => {
    const refused = /^sandbox refused, nothing was opened: .* (is|holds) your home folder.*, and files there run code outside the sandbox .*; (open the pane in a project folder|name folders inside it)/;
    const a = await h.call("terminal_open", { name: "home-wt", command: "bash", cwd: userHome, sandbox: "worktree" });
    assert.equal(a.isError, true, a.text);
    assert.match(a.text, refused);
    // "~" is the home folder, as in a shell; the refusal is one sentence: the path, why, what to do.
    const tilde = await h.call("terminal_open", { name: "home-tilde", command: "bash", cwd: "~", sandbox: "worktree" });
    assert.equal(
      tilde.text,
      `sandbox refused, nothing was opened: the "worktree" sandbox would let the pane write its folder ${userHome}, which is your home folder, and files there run code outside the sandbox (shell rc files, tool and agent settings, site folders); open the pane in a project folder (cwd; without one it opens in the folder termhive was started in), or name the folders it may write (sandbox {"write": […]}).`,
    );
    const b = await h.call("terminal_open", { name: "home-w", command: "bash", cwd: project, sandbox: { write: ["~"], network: "on" } });
    assert.match(b.text, refused);
    const c = await h.call("agent_spawn", { name: "spawned", command: "bash", sandbox: "worktree" });
    assert.match(c.text, refused);
    // ~/.local holds termhive's home: covered after it, and the folder between them cannot be
    // moved away to make a fresh home with a token of the pane's choosing.
    const { session } = await h.ok("terminal_open", { name: "home-local", command: "bash", cwd: project, sandbox: { write: [join(userHome, ".local")], network: "on" } });
    await triesTheHome(session, "escaped-a");
    const planted = await run(session, `mv ~/.local/state ~/.local/state-x; mkdir -p ~/.local/state/termhive && echo planted-token-0123456789abcdefghij > ~/.local/state/termhive/token; echo done`);
    assert.match(planted.output, /busy|Read-only|Permission denied|Operation not permitted/i, planted.output);
    assert.doesNotMatch(readFileSync(join(thHome, "token"), "utf8"), /planted/);
    assert.equal(existsSync(join(userHome, ".local", "state-x")), false);
    // A write path inside termhive's home is refused, and names why.
    const refusedIn = await h.call("terminal_open", { name: "home-in", command: "bash", cwd: project, sandbox: { write: [thHome], network: "on" } });
    assert.equal(refusedIn.isError, true, refusedIn.text);
    assert.match(refusedIn.text, /inside termhive's own folder.*nothing was opened/);
  });

  test("a root server's pane keeps no capability: it cannot unmount the cover over termhive's home or remount / writable", async () => {
    const { session } = await h.ok("terminal_open", { name: "caps", command: "bash", cwd: project, sandbox: "readonly" });
    const caps = await run(session, "grep CapEff /proc/self/status");
    assert.match(caps.output, /CapEff:\s+0+\b/, caps.output);
    const r = await run(session, `umount -l "$TERMHIVE_HOME"; mount -o remount,bind,rw /; touch ~/remounted; ls "$TERMHIVE_HOME"`);
    assert.doesNotMatch(r.output, /tmux\.sock|hive\.db|audit/, r.output);
    assert.equal(existsSync(join(userHome, "remounted")), false);
  });

  test("no unix socket it was not given: another termhive home's tmux, a service's socket", async () => {
    const { session } = await h.ok("terminal_open", { name: "sock", command: "bash", cwd: project, sandbox: "readonly" });
    const escaped = join(userHome, "escaped-other");
    const t = await run(session, `tmux -S ${otherSocket} new-window -d "touch ${escaped}"; echo "rc=$?"`);
    assert.match(t.output, /rc=[1-9]/, t.output);
    assert.equal(existsSync(escaped), false);
    const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${join(root, "service.sock")}'); print(s.recv(5))"`;
    const boxed = await run(session, connect);
    assert.notEqual(boxed.exit_code, 0, boxed.output);
    assert.match(boxed.output, /PermissionError|Operation not permitted/);
    assert.equal(unixHits, 0);
    // A plain pane reaches it (so the test can fail), and TCP still works inside (python's own socket).
    const { session: plain } = await h.ok("terminal_open", { name: "sock-plain", command: "bash", cwd: project });
    const reached = await run(plain, connect);
    assert.equal(reached.exit_code, 0, reached.output);
    assert.equal(unixHits, 1);
    const tcp = await run(session, `python3 -c "import socket; socket.socket(socket.AF_INET); socket.socketpair(); print('tcp-ok')"`);
    assert.match(tcp.output, /tcp-ok/);
    // A policy that gives unix sockets (chromium makes its own) reaches the service; TIOCSTI stays refused.
    const { session: given, sandbox } = await h.ok("terminal_open", { name: "sock-given", command: "bash", cwd: project, sandbox: { write: [], network: "on", unix_sockets: "allow" } });
    assert.match(String(sandbox), /unix sockets allowed/);
    const allowed = await run(given, connect);
    assert.equal(allowed.exit_code, 0, allowed.output);
    assert.equal(unixHits, 2);
    const sti = await run(given, `python3 -c "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b':')"`);
    assert.match(sti.output, /Operation not permitted/);
  });

  test("the serve token is not in the MCP registrations a sandboxed pane reads", async () => {
    const { session } = await h.ok("terminal_open", { name: "tok", command: "bash", cwd: project, sandbox: "readonly" });
    // Counted, not printed: termhive's own output redaction would hide a printed token either way.
    const r = await run(session, `grep -c serve-token- ~/.claude.json .mcp.json; grep -c token-hidden-in-sandbox ~/.claude.json .mcp.json`);
    assert.match(r.output, /claude\.json:0\n.*mcp\.json:0\n.*claude\.json:1\n.*mcp\.json:1/s, r.output);
    assert.match(readFileSync(join(project, ".mcp.json"), "utf8"), /serve-token-x/, "the file outside is unchanged");
  });

  test("files that run code outside stay read-only in a writable project and agent folder, and cannot be moved away; git still commits", async () => {
    const linked = join(userHome, "linked");
    const { session } = await h.ok("terminal_open", { name: "files", command: "bash", cwd: userHome, sandbox: { write: [project, linked, "~/.claude"], network: "on" } });
    // Claude Code's settings file is the pane's own copy: its writes stay in the sandbox.
    const settings = await run(session, `echo '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"touch ~/pwned"}]}]}}' > ~/.claude/settings.json && echo kept-inside`);
    assert.equal(settings.output, "kept-inside", settings.output);
    assert.equal(readFileSync(join(userHome, ".claude", "settings.json"), "utf8"), "{}\n", "the user's settings file is unchanged");
    for (const file of ["~/.bashrc", "proj/.git/config", "linked/.git", "proj/.mcp.json"]) {
      const r = await run(session, `echo '[core] fsmonitor = touch ~/pwned' >> ${file}`);
      assert.notEqual(r.exit_code, 0, `${file} was writable: ${r.output}`);
      assert.match(r.output, /Read-only file system|Device or resource busy/, r.output);
    }
    // The folder that holds a protected file cannot be renamed to make a fresh one in its place.
    for (const dir of ["proj/.git", "~/.claude"]) {
      const r = await run(session, `mv ${dir} ${dir}-old`);
      assert.notEqual(r.exit_code, 0, `${dir} was moved: ${r.output}`);
    }
    assert.equal(existsSync(join(project, ".git", "config")), true);
    // The home folder itself is not writable: a missing rc file cannot be made.
    const rc = await run(session, `echo 'touch ~/pwned' > ~/.bash_profile`);
    assert.notEqual(rc.exit_code, 0, rc.output);
    assert.equal(existsSync(join(userHome, ".bash_profile")), false);
    const hook = await run(session, `printf '#!/bin/sh\\ntouch ~/pwned\\n' > proj/.git/hooks/post-checkout`);
    assert.notEqual(hook.exit_code, 0, hook.output);
    assert.equal(existsSync(join(project, ".git", "hooks", "post-checkout")), false);
    // Its own work in the project still goes on, git's objects and refs included.
    const commit = await run(session, `cd proj && echo work > work.txt && git add work.txt && git -c user.name=t -c user.email=t@t commit -qm work && git log --oneline | wc -l`);
    assert.equal(commit.exit_code, 0, commit.output);
    // Claude Code's state file, not given here, stays as it was (real-sandbox.test.ts: the claude preset's private copy).
    const state = await run(session, `echo '{"mcpServers":{"evil":{"command":"touch"}}}' > ~/.claude.json`);
    assert.notEqual(state.exit_code, 0, state.output);
    assert.doesNotMatch(readFileSync(join(userHome, ".claude.json"), "utf8"), /evil/);
    assert.match(readFileSync(join(userHome, ".bashrc"), "utf8"), /^export TERMHIVE_E2E_RC=1\n$/);
  });

  test("termhive's own install stays read-only where a write path holds it (a worktree sandbox in its own clone); a write path inside it is refused", async () => {
    // The server runs from this checkout: its dist, shell rc files, packages and proto run
    // outside the sandbox (every other pane's `termhive`, the agents' hooks, the next server).
    const install = resolve(".");
    // A checkout whose node_modules is a link (a git worktree sharing one): the link itself could
    // be pointed elsewhere and no mount keeps it, so the open is refused, saying so, and nothing runs.
    if (lstatSync(join(install, "node_modules")).isSymbolicLink()) {
      const before = (await h.ok("terminal_list")).sessions.length;
      const linked = await h.call("terminal_open", { name: "own-code", command: "bash", cwd: install, sandbox: "worktree" });
      assert.equal(linked.isError, true, linked.text);
      assert.match(linked.text, /^sandbox write path ".*" holds ".*node_modules", a symlink to ".*", which is termhive's own code, run outside the sandbox: .*nothing was opened$/);
      assert.equal((await h.ok("terminal_list")).sessions.length, before);
      return;
    }
    const { session } = await h.ok("terminal_open", { name: "own-code", command: "bash", cwd: install, sandbox: "worktree" });
    const code = ["dist", "dist/bundle/cli.js", "src/shell", "src/shell/bash/termhive.bash", "package.json", ".npmrc", "node_modules", "proto"];
    const probe = await run(session, `${code.map((p) => `test -w ${p} && echo "writable: ${p}"`).join("; ")}; test -w src/index.ts && echo sources-writable`);
    assert.equal(probe.output, "sources-writable", probe.output);
    const inside = await h.call("terminal_open", { name: "own-code-in", command: "bash", cwd: install, sandbox: { write: [join(install, "dist")], network: "on" } });
    assert.equal(inside.isError, true, inside.text);
    assert.match(inside.text, /sandbox write path ".*dist" is inside termhive's own install .*nothing was opened/);
  });

  test("a sandboxed program cannot type into its own pane (TIOCSTI); job control still works", async () => {
    const inject = (text: string) => `python3 -c "import fcntl, termios; [fcntl.ioctl(0, termios.TIOCSTI, bytes([c])) for c in b'${text}\\n']"`;
    const { session } = await h.ok("terminal_open", { name: "sti", command: "bash", cwd: project, sandbox: "readonly" });
    const boxed = await run(session, inject("touch ~/injected"));
    assert.notEqual(boxed.exit_code, 0, boxed.output);
    assert.match(boxed.output, /Operation not permitted/);
    assert.equal(existsSync(join(userHome, "injected")), false, "the sandboxed pane's injection ran");
    const jobs = await run(session, "sleep 0.3 & fg; echo fg=$?; set -o | grep monitor");
    assert.match(jobs.output, /fg=0/);
    assert.match(jobs.output, /monitor\s+on/);
    // Ctrl-Z stops the foreground job through the pane's own terminal, as outside.
    await h.ok("terminal_send", { session, text: 'echo "sleep""ing now"; sleep 60\n' });
    await h.ok("terminal_wait", { session, pattern: "sleeping now", timeout_s: 30 });
    await h.ok("terminal_send", { session, keys: ["C-z"] });
    const stopped = await h.ok("terminal_wait", { session, for: "completion", timeout_s: 30 });
    assert.match(stopped.output, /Stopped/, JSON.stringify(stopped));
    const listed = await run(session, "jobs; kill -9 %1");
    assert.match(listed.output, /Stopped\s+sleep 60/);
    // The same injection from a plain pane is taken: this kernel allows TIOCSTI (it is a real hole here).
    const legacy = existsSync("/proc/sys/dev/tty/legacy_tiocsti") ? readFileSync("/proc/sys/dev/tty/legacy_tiocsti", "utf8").trim() : "1";
    if (legacy === "1") {
      const { session: plain } = await h.ok("terminal_open", { name: "sti-plain", command: "bash", cwd: project });
      const typed = await run(plain, inject(":"));
      assert.equal(typed.exit_code, 0, typed.output);
    }
  });
});
