// Issue 26: terminal_open's `sandbox` runs the pane's program under bubblewrap. Judged by what
// the programs in the panes do (the shell's own error, the file that is or is not there, a
// loopback HTTP request the test's server does or does not receive), never by what termhive says.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { spawnSync } from "node:child_process";
import { CLI, Harness } from "./harness.js";
import { endTmuxServer } from "../tmux-server.js";
import { outsideTmp } from "../temp-folder.js";

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";

describe("sandboxed panes (bubblewrap)", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome: string;
  let project: string;
  let sibling: string;
  let server: Server;
  let port = 0;
  let hits = 0;

  before(async () => {
    // Outside /tmp: the sandbox's /tmp is its own, and a user's HOME and projects are not there.
    root = mkdtempSync(join(outsideTmp(), "termhive-sandbox-"));
    userHome = join(root, "user");
    project = join(root, "project");
    sibling = join(root, "sibling");
    for (const dir of [userHome, project, sibling]) mkdirSync(dir);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    h = new Harness(join(root, "termhive"), { HOME: userHome });
    h.bare = true;
    h.cwd = sibling;
    await h.connect();
    server = createServer((_req, res) => {
      hits++;
      res.end("hello from the host");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server?.close();
    await h?.destroy();
    // termhive doctor's round trip starts the doctor home's tmux server (as any CLI command does).
    if (root) await endTmuxServer(join(root, "doctor-home", "tmux.sock"));
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = (session: string, command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });

  test("worktree: the shell writes its cwd, not $HOME nor the folder next door; commands still report exit codes", async () => {
    const { session, sandbox } = await h.ok("terminal_open", { name: "box", command: "bash", cwd: project, sandbox: "worktree" });
    assert.match(String(sandbox), /worktree: write .*project; network outside/);
    const inside = await run(session, "echo kept > inside.txt && cat inside.txt");
    assert.equal(inside.exit_code, 0, inside.output);
    assert.match(inside.output, /kept/);
    assert.ok(existsSync(join(project, "inside.txt")));

    const home = await run(session, 'echo leaked > "$HOME/outside.txt"');
    assert.notEqual(home.exit_code, 0);
    assert.match(home.output, /Read-only file system/);
    assert.equal(existsSync(join(userHome, "outside.txt")), false);

    const next = await run(session, "touch ../sibling/outside.txt");
    assert.notEqual(next.exit_code, 0);
    assert.match(next.output, /Read-only file system/);
    assert.equal(existsSync(join(sibling, "outside.txt")), false);

    const code = await run(session, "(exit 7)");
    assert.equal(code.exit_code, 7);
  });

  test("termhive's sockets and token are out of reach: the tmux server cannot be asked for a new pane", async () => {
    const { session } = await h.ok("terminal_open", { name: "box-tmux", command: "bash", cwd: project, sandbox: "readonly" });
    const r = await run(session, 'tmux -S "$TERMHIVE_HOME/tmux.sock" new-window -d "touch $HOME/escaped"');
    assert.notEqual(r.exit_code, 0, r.output);
    assert.match(r.output, /error connecting .*tmux\.sock/i);
    assert.equal(existsSync(join(userHome, "escaped")), false);
    // The same command from a plain pane reaches the server (so the test can fail).
    assert.ok(existsSync(join(h.home, "tmux.sock")));
  });

  test('network "off" stops a loopback HTTP request that a plain pane opened after it makes', async () => {
    const fetch = `python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:${port}/', timeout=10).read().decode())"`;
    const { session: boxed } = await h.ok("terminal_open", { name: "box-net", command: "bash", cwd: project, sandbox: { write: [project], network: "off" } });
    const before = hits;
    const refused = await run(boxed, fetch);
    assert.notEqual(refused.exit_code, 0, refused.output);
    assert.match(refused.output, /Connection refused|URLError/);
    assert.equal(hits, before);

    // Nothing leaks into panes opened after: a plain one reaches the server and writes $HOME.
    const { session: plain, sandbox } = await h.ok("terminal_open", { name: "plain", command: "bash", cwd: project });
    assert.equal(sandbox, undefined);
    const reached = await run(plain, fetch);
    assert.equal(reached.exit_code, 0, reached.output);
    assert.match(reached.output, /hello from the host/);
    assert.equal(hits, before + 1);
    const wrote = await run(plain, 'echo mine > "$HOME/plain.txt"');
    assert.equal(wrote.exit_code, 0, wrote.output);
    assert.ok(existsSync(join(userHome, "plain.txt")));
  });

  test("another server process lists each pane's policy", async () => {
    const listed = await h.callOnce("terminal_list");
    assert.equal(listed.isError, false, listed.text);
    const byName = new Map((listed.data.sessions as { name: string; sandbox?: string }[]).map((s) => [s.name, s.sandbox]));
    assert.match(String(byName.get("box")), /^worktree: write .*project; network outside$/);
    assert.match(String(byName.get("box-net")), /write .*project; network off$/);
    assert.equal(byName.get("plain"), undefined);
    assert.match(listed.text, /box .*sandbox worktree/);
  });

  test("a write path that does not exist is a clear error and opens nothing", async () => {
    const before = (await h.ok("terminal_list")).sessions.length;
    const r = await h.call("terminal_open", { name: "typo", command: "bash", cwd: project, sandbox: { write: [join(root, "nope")], network: "on" } });
    assert.equal(r.isError, true);
    assert.match(r.text, /sandbox write path .*nope.* does not exist.*nothing was opened/);
    assert.equal((await h.ok("terminal_list")).sessions.length, before);
  });

  test("a sandboxed program that dies while it is opened: the open's result says so, with its last lines", async () => {
    const opened = await h.call("terminal_open", { name: "box-dies", command: "sh -c 'echo cannot set up: the reason >&2; exit 3'", cwd: project, sandbox: "readonly" });
    // Not called "opened": its program is gone.
    assert.match(opened.text, /^not running \(its program exited as it opened\) box-dies /, opened.text);
    const r = opened.data;
    assert.match(String(r.warning), /exited while it was being opened \(exit status 3\); its last lines:\ncannot set up: the reason/, JSON.stringify(r));
  });

  test("an unknown preset is named back with the presets there are", async () => {
    const r = await h.call("terminal_open", { name: "badpreset", command: "bash", cwd: project, sandbox: "no-such-preset" });
    assert.equal(r.isError, true);
    assert.match(r.text, /"no-such-preset".*worktree, readonly/);
  });

  test("readonly in a folder under /tmp (which the sandbox's private /tmp hides) starts there, read-only", async () => {
    const tmpFolder = mkdtempSync("/tmp/termhive-sandbox-cwd-");
    try {
      writeFileSync(join(tmpFolder, "seen.txt"), "seen\n");
      const { session } = await h.ok("terminal_open", { name: "box-tmpcwd", command: "bash", cwd: tmpFolder, sandbox: "readonly" });
      const r = await run(session, "pwd && cat seen.txt && touch made.txt");
      assert.match(r.output, new RegExp(`${tmpFolder}\\n(.|\\n)*seen`), r.output);
      assert.notEqual(r.exit_code, 0, r.output);
      assert.match(r.output, /Read-only file system/);
      assert.equal(existsSync(join(tmpFolder, "made.txt")), false);
      await h.ok("terminal_close", { session });
    } finally {
      rmSync(tmpFolder, { recursive: true, force: true });
    }
  });

  test("termhive doctor says sandboxing is available", () => {
    const r = spawnSync(process.execPath, [CLI, "doctor"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: userHome, TERMHIVE_HOME: join(root, "doctor-home") }, cwd: sibling, timeout: 60_000 });
    assert.match(r.stdout, /ok +sandbox +bubblewrap .*sandbox option is available/);
  });
});
