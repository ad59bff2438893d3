// Issue 26 on another host: `sandbox` on a pane of a host reached over ssh (the loopback sshd
// of test/fixtures/sshd) runs it under the host's bwrap. Judged by the host's files and the
// shell's own errors, and its shell integration still reporting exit codes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
    root = mkdtempSync(join(outsideTmp(), "sbx-remote-"));
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
});
