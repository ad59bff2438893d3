// Every termhive home the server can know of stays out of a sandboxed pane's reach, whatever its
// write paths: the server runs with a TERMHIVE_HOME of its own while the user's default homes,
// by both rules ($XDG_STATE_HOME/termhive and ~/.local/state/termhive), each hold a token, a
// database and a live tmux server. And the user's own install folders under ~/.local (code run
// later, outside) stay read-only when ~/.local is a write path. Real bubblewrap, HOME outside /tmp.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { Harness } from "./harness.js";
import { endTmuxServer } from "../tmux-server.js";
import { outsideTmp } from "../temp-folder.js";

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";

describe("a sandboxed pane reaches no termhive home", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome = "";
  const sockets: string[] = [];
  const homes: string[] = [];

  before(async () => {
    root = mkdtempSync(join(outsideTmp(), "termhive-homes-"));
    userHome = join(root, "user");
    const own = join(root, "own-home");
    homes.push(join(userHome, "xdg", "termhive"), join(userHome, ".local", "state", "termhive"));
    for (const [i, home] of homes.entries()) {
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, "token"), `default-token-${i}-${"y".repeat(40)}\n`, { mode: 0o600 });
      writeFileSync(join(home, "hive.db"), "db");
      const socket = join(home, "tmux.sock");
      assert.equal(spawnSync("tmux", ["-S", socket, "-f", "/dev/null", "new-session", "-d"]).status, 0);
      sockets.push(socket);
    }
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    mkdirSync(join(userHome, "proj"));
    // A tool pipx put in ~/.local/bin: a link into its own folder; ~/.local/lib (pip --user's site-packages) not made yet.
    mkdirSync(join(userHome, ".local", "share", "tool"), { recursive: true });
    writeFileSync(join(userHome, ".local", "share", "tool", "run"), "#!/bin/sh\necho tool\n", { mode: 0o755 });
    mkdirSync(join(userHome, ".local", "bin"));
    symlinkSync(join(userHome, ".local", "share", "tool", "run"), join(userHome, ".local", "bin", "tool"));
    mkdirSync(own);
    h = new Harness(own, { HOME: userHome, XDG_STATE_HOME: join(userHome, "xdg") });
    h.bare = true;
    h.cwd = userHome;
    await h.connect();
  });
  after(async () => {
    await h?.destroy();
    for (const socket of sockets) await endTmuxServer(socket);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = (session: string, command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });

  test("write paths above both default homes (XDG_STATE_HOME's and ~/.local/state's), unix sockets given: no token, database or tmux server of either is reachable", async () => {
    const { session } = await h.ok("terminal_open", {
      name: "above", command: "bash", cwd: join(userHome, "proj"), sandbox: { write: ["~/xdg", "~/.local"], network: "on", unix_sockets: "allow" },
    });
    for (const [i, home] of homes.entries()) {
      const escaped = join(userHome, `escaped-${i}`);
      // Counted, not printed: termhive's own output redaction would hide a printed token either way.
      const r = await run(session, `cat ${home}/token 2>/dev/null | grep -c default-token; test -e ${home}/hive.db && echo DB-SEEN; tmux -S ${home}/tmux.sock new-window -d "touch ${escaped}"; echo "rc=$?"`);
      assert.match(r.output, /^0$/m, `${home}: its token was readable\n${r.output}`);
      assert.doesNotMatch(r.output, /DB-SEEN/, `${home}: hive.db was visible`);
      assert.match(r.output, /rc=[1-9]/, `${home}: its tmux took the command\n${r.output}`);
      assert.equal(existsSync(escaped), false, `${home}: a command ran outside`);
      // The cover cannot be moved away to plant a token the user's next server would take.
      const planted = await run(session, `mv ${home} ${home}-x; echo planted-token-0123456789abcdefghij > ${home}/token`);
      assert.match(planted.output, /busy|Read-only|Permission denied|Operation not permitted/i, planted.output);
      assert.match(readFileSync(join(home, "token"), "utf8"), new RegExp(`default-token-${i}`));
    }
    // A write path inside a default home is refused, and names it.
    const refused = await h.call("terminal_open", { name: "inside", command: "bash", cwd: join(userHome, "proj"), sandbox: { write: ["~/xdg/termhive"], network: "on" } });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /inside termhive's own folder .*xdg\/termhive.*nothing was opened/);
  });

  test("write ~/.local: pip --user's ~/.local/lib (made when missing) and what ~/.local/bin's links run stay read-only; the rest of ~/.local is writable", async () => {
    const { session } = await h.ok("terminal_open", { name: "local", command: "bash", cwd: join(userHome, "proj"), sandbox: { write: ["~/.local"], network: "on" } });
    const site = await run(session, `mkdir -p ~/.local/lib/python3.12/site-packages && echo 'import os; os.system("touch ~/pwned")' > ~/.local/lib/python3.12/site-packages/evil.pth`);
    assert.notEqual(site.exit_code, 0, site.output);
    assert.match(site.output, /Read-only file system/, site.output);
    assert.equal(existsSync(join(userHome, ".local", "lib", "python3.12")), false);
    const linked = await run(session, `echo 'touch ~/pwned' >> ~/.local/share/tool/run`);
    assert.notEqual(linked.exit_code, 0, linked.output);
    assert.match(readFileSync(join(userHome, ".local", "share", "tool", "run"), "utf8"), /^#!\/bin\/sh\necho tool\n$/);
    const bin = await run(session, `echo 'touch ~/pwned' > ~/.local/bin/ls`);
    assert.notEqual(bin.exit_code, 0, bin.output);
    assert.equal(existsSync(join(userHome, ".local", "bin", "ls")), false);
    // Data folders stay the pane's to write.
    const data = await run(session, `echo kept > ~/.local/share/tool/data && cat ~/.local/share/tool/data`);
    assert.equal(data.exit_code, 0, data.output);
    assert.equal(existsSync(join(userHome, "pwned")), false);
  });

  test("the shell's files a readonly pane can write (status, secret-line and run-line marks) are kept within a status line on the disk", async () => {
    const { session } = await h.ok("terminal_open", { name: "cap", command: "bash", cwd: join(userHome, "proj"), sandbox: "readonly" });
    const marks = ["status", "secret", "run"];
    const files = marks.map((mark) => join(h.home, "shell", `${mark}.${session}`));
    // Written, then no prompt (which would rewrite the status file) while the test looks.
    const fill = marks.map((mark) => `head -c 5000000 /dev/zero >> "$TERMHIVE_HOME/shell/${mark}.$TERMHIVE_SESSION"`).join(" && ");
    // One subshell: the shell's hooks run before it, not between its commands.
    await h.ok("terminal_send", { session, text: `(${fill} && echo "writ""ten"; sleep 60)\n` });
    await h.ok("terminal_wait", { session, pattern: "written", timeout_s: 30 });
    const deadline = Date.now() + 20_000;
    const sizes = () => files.map((f) => statSync(f).size);
    while (sizes().some((n) => n > 256) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(sizes().map((n) => n <= 256), [true, true, true], `sizes: ${sizes().join(", ")}`);
    await h.ok("terminal_send", { session, keys: ["C-c"] });
  });
});
