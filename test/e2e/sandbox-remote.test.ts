// Issue 26 on another host: `sandbox` on a pane of a host reached over ssh (the loopback sshd
// of test/fixtures/sshd) runs it under the host's bwrap. Judged by the host's files and the
// shell's own errors, and its shell integration still reporting exit codes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { Harness } from "./harness.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";
import { outsideTmp } from "../temp-folder.js";

const skip = !sshdAvailable() ? "sshd (openssh-server) is not installed: apt-get install -y openssh-server" : !findBwrap() ? "bubblewrap (bwrap) is not installed" : false;

describe("sandboxed panes on a remote host", { skip }, () => {
  let host: LoopbackHost;
  let h: Harness;
  let root = "";
  const savedTmp = process.env.TMPDIR;

  before(async () => {
    // The remote HOME outside /tmp (the sandbox's /tmp is its own, and a user's HOME is not there).
    // A short name: the host's tmux socket path below it must stay within 107 bytes (the mutants runner's folder is long).
    root = mkdtempSync(join(outsideTmp(), "sr-"));
    process.env.TMPDIR = root;
    host = await startLoopbackHost();
    h = await Harness.start({ TERMHIVE_SSH: host.sshCommand });
  });
  after(async () => {
    await h?.destroy();
    await host?.stop();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("worktree on the host: the shell writes its cwd there, not the host user's HOME; exit codes still come from its integration", async () => {
    const project = join(host.remoteHome, "proj");
    mkdirSync(project);
    const opened = await h.ok("terminal_open", { name: "far-box", host: host.alias, cwd: project, sandbox: "worktree" });
    assert.equal(opened.integrated, true);
    assert.match(String(opened.sandbox), /^worktree: write .*\/proj; network on$/);
    const inside = await h.ok("terminal_run", { session: "far-box", command: "echo kept > inside.txt && cat inside.txt" });
    assert.equal(inside.exit_code, 0, inside.output);
    assert.ok(existsSync(join(project, "inside.txt")));
    const home = await h.ok("terminal_run", { session: "far-box", command: 'echo leaked > "$HOME/leak.txt"' });
    assert.notEqual(home.exit_code, 0, home.output);
    assert.match(home.output, /Read-only file system/);
    assert.equal(existsSync(join(host.remoteHome, "leak.txt")), false);
    const three = await h.ok("terminal_run", { session: "far-box", command: "(exit 3)" });
    assert.equal(three.exit_code, 3);
    assert.equal(three.reason, "osc133");
    // The host's termhive folder (its tmux socket) is out of reach from inside.
    const sock = await h.ok("terminal_run", { session: "far-box", command: 'ls "$TERMHIVE_HOME"' });
    assert.doesNotMatch(sock.output, /tmux\.sock/);
    // The seccomp filter holds there too: no unix socket (the host's tmux, its D-Bus), no TIOCSTI.
    const unix = await h.ok("terminal_run", { session: "far-box", command: `python3 -c "import socket; socket.socket(socket.AF_UNIX)"` });
    assert.notEqual(unix.exit_code, 0, unix.output);
    assert.match(unix.output, /Operation not permitted/);
    const sti = await h.ok("terminal_run", { session: "far-box", command: `python3 -c "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b':')"` });
    assert.match(sti.output, /Operation not permitted/);
  });

  test("the host user's home is refused as a write path; the read-only list, the pins and the token masking hold there as here", async () => {
    const refused = /^sandbox refused, nothing was opened: .* (is|holds) \S+'s user's home folder.*, and files there run code outside the sandbox .*; (open the pane in a project folder|name folders inside it)/;
    const a = await h.call("terminal_open", { name: "far-home", host: host.alias, cwd: host.remoteHome, sandbox: "worktree" });
    assert.equal(a.isError, true, a.text);
    assert.match(a.text, refused);
    const project = join(host.remoteHome, "proj2");
    mkdirSync(project);
    const b = await h.call("terminal_open", { name: "far-tilde", host: host.alias, cwd: project, sandbox: { write: ["~"], network: "on" } });
    assert.match(b.text, refused);
    const stateDir = join(host.remoteHome, ".local", "state", "termhive");
    const c = await h.call("terminal_open", { name: "far-in", host: host.alias, cwd: project, sandbox: { write: [join(stateDir, "shell")], network: "on" } });
    assert.match(c.text, /inside termhive's own folder on .*nothing was opened/);
    // A project with a nested repository, the host's serve token in its MCP registration, ~/.local writable.
    for (const repo of [project, join(project, "sub")]) assert.equal(spawnSync("git", ["init", "-q", repo]).status, 0);
    const token = "remote-serve-token-" + "z".repeat(40);
    writeFileSync(join(stateDir, "token"), token + "\n", { mode: 0o600 });
    writeFileSync(join(host.remoteHome, ".claude.json"), JSON.stringify({ mcpServers: { termhive: { headers: { Authorization: `Bearer ${token}` } } } }));
    const { session } = await h.ok("terminal_open", { name: "far-list", host: host.alias, cwd: project, sandbox: { write: [project, "~/.local"], network: "on" } });
    const run = (command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });
    for (const file of ["proj2/.git/config", "proj2/sub/.git/config"]) {
      const r = await run(`echo '[core] fsmonitor = touch ~/pwned' >> ~/${file}`);
      assert.notEqual(r.exit_code, 0, `${file} was writable: ${r.output}`);
      assert.match(r.output, /Read-only file system/, r.output);
    }
    const moved = await run("mv ~/proj2/sub ~/proj2/sub-old");
    assert.notEqual(moved.exit_code, 0, moved.output);
    const site = await run("mkdir -p ~/.local/lib/python3.12/site-packages");
    assert.notEqual(site.exit_code, 0, site.output);
    assert.equal(existsSync(join(host.remoteHome, ".local", "lib", "python3.12")), false);
    // Counted, not printed: termhive's own output redaction would hide a printed token either way.
    const masked = await run("grep -c remote-serve-token- ~/.claude.json; grep -c token-hidden-in-sandbox ~/.claude.json");
    assert.match(masked.output, /^0\n1$/m, masked.output);
    assert.match(readFileSync(join(host.remoteHome, ".claude.json"), "utf8"), /remote-serve-token-z/, "the file on the host is unchanged");
    // The pane's own work goes on.
    const work = await run("echo work > ~/proj2/work.txt && cat ~/proj2/work.txt");
    assert.equal(work.exit_code, 0, work.output);
  });

  test("what the host's ~/.local/bin links run stays read-only under a write path, and the folders on the way to it are pinned (not renamed away and made again)", async () => {
    // A tool pipx put in ~/.local/bin: a link into a folder of its own under ~/.local/share.
    const tool = join(host.remoteHome, ".local", "share", "rtool");
    mkdirSync(join(tool, "venv", "bin"), { recursive: true });
    mkdirSync(join(host.remoteHome, ".local", "bin"), { recursive: true });
    writeFileSync(join(tool, "venv", "bin", "run"), "#!/bin/sh\necho tool\n", { mode: 0o755 });
    symlinkSync(join(tool, "venv", "bin", "run"), join(host.remoteHome, ".local", "bin", "rtool"));
    const project = join(host.remoteHome, "proj4");
    mkdirSync(project);
    const { session } = await h.ok("terminal_open", { name: "far-links", host: host.alias, cwd: project, sandbox: { write: [project, "~/.local"], network: "on" } });
    const run = (command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });
    const linked = await run(`echo 'touch ~/pwned' >> ~/.local/share/rtool/venv/bin/run`);
    assert.notEqual(linked.exit_code, 0, linked.output);
    assert.match(linked.output, /Read-only file system/, linked.output);
    // Renamed away and made again, each folder between the write path and the target would put a writable copy where the link points.
    for (const dir of ["~/.local/share", "~/.local/share/rtool", "~/.local/share/rtool/venv", "~/.local/share/rtool/venv/bin"]) {
      const moved = await run(`mv ${dir} ${dir}-old && mkdir -p ${dir} && echo moved`);
      assert.doesNotMatch(moved.output, /moved/, `${dir} was renamed: ${moved.output}`);
    }
    assert.equal(readFileSync(join(tool, "venv", "bin", "run"), "utf8"), "#!/bin/sh\necho tool\n");
    assert.equal(existsSync(join(host.remoteHome, "pwned")), false);
    // The rest of ~/.local/share is the pane's to write.
    const data = await run("echo kept > ~/.local/share/rtool/data && cat ~/.local/share/rtool/data");
    assert.equal(data.exit_code, 0, data.output);
  });

  test("the shell's files a sandboxed pane writes on the host are kept within a status line on its disk", async () => {
    const project = join(host.remoteHome, "proj3");
    mkdirSync(project);
    const { session } = await h.ok("terminal_open", { name: "far-cap", host: host.alias, cwd: project, sandbox: "readonly" });
    const shellDir = join(host.remoteHome, ".local", "state", "termhive", "shell");
    const files = ["status", "secret", "run"].map((mark) => join(shellDir, `${mark}.${session}`));
    // Written, then no prompt (which would rewrite the status file) while the test looks.
    const fill = ["status", "secret", "run"].map((mark) => `head -c 5000000 /dev/zero >> "$TERMHIVE_HOME/shell/${mark}.$TERMHIVE_SESSION"`).join(" && ");
    // One subshell: the shell's hooks run before it, not between its commands.
    await h.ok("terminal_send", { session, text: `(${fill} && echo "writ""ten"; sleep 60)\n` });
    await h.ok("terminal_wait", { session, pattern: "written", timeout_s: 30 });
    const deadline = Date.now() + 20_000;
    const sizes = () => files.map((f) => statSync(f).size);
    while (sizes().some((n) => n > 256) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(sizes().map((n) => n <= 256), [true, true, true], `sizes on the host: ${sizes().join(", ")}`);
    await h.ok("terminal_send", { session, keys: ["C-c"] });
  });
});
