// The shared e2e cases against the node-pty backend (what runs where tmux is missing), plus
// what only differs on pty: no attach command, no restart survival.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { CLI, Harness } from "./harness.js";
import { programCases } from "./cases/programs.js";
import { shellCases } from "./cases/shells.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";

shellCases("pty");
programCases("pty");

describe("pty backend specifics", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start({ TERMHIVE_BACKEND: "pty" });
  });
  after(async () => h.destroy());

  test("open reports the pty backend and no attach command", async () => {
    const r = await h.call("terminal_open", { name: "p1", command: "bash" });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.data.backend, "pty");
    assert.match(r.data.pane, /^pty-\d+$/);
    assert.equal(r.data.attach, null);
    assert.match(r.text, /not attachable/);
    const list = await h.ok("terminal_list");
    assert.equal(list.sessions.find((x: { name: string }) => x.name === "p1").backend, "pty");
  });

  test("a pane whose program exited stays readable until closed", async () => {
    await h.ok("terminal_open", { name: "short", command: "sh -c 'echo bye-now; exit 5'" });
    const w = await h.ok("terminal_wait", { session: "short", for: "exit", timeout_s: 10 });
    assert.equal(w.exit_code, 5);
    const read = await h.ok("terminal_read", { session: "short", mode: "all" });
    assert.match(read.output, /bye-now/);
    assert.equal(read.alive, false);
    const closed = await h.ok("terminal_close", { session: "short" });
    assert.equal(closed.exit_code, 5);
    const gone = await h.call("terminal_read", { session: "short" });
    assert.equal(gone.isError, true);
  });

  test("sessions do not survive a restart of the server (pty panes die with it)", async () => {
    await h.ok("terminal_open", { name: "ephemeral", command: "bash" });
    await h.close();
    await h.connect();
    const list = await h.ok("terminal_list");
    assert.deepEqual(list.sessions, []);
    const r = await h.call("terminal_read", { session: "ephemeral" });
    assert.equal(r.isError, true);
    assert.match(r.text, /unknown session/);
  });
});

describe("without tmux", () => {
  const NO_TMUX = "/nonexistent/tmux";

  test("TERMHIVE_BACKEND=auto falls back to pty and works", async () => {
    const h = await Harness.start({ TERMHIVE_BACKEND: "auto", TERMHIVE_TMUX: NO_TMUX });
    try {
      const opened = await h.ok("terminal_open", { name: "fallback", command: "bash" });
      assert.equal(opened.backend, "pty");
      assert.equal(opened.attach, null);
      // Not silently: the result says what is lost and how to get tmux.
      assert.match(opened.warning, /tmux was not found .*\/nonexistent\/tmux.*install it/);
      assert.match(opened.warning, /sessions end when this termhive process ends/);
      const r = await h.ok("terminal_run", { session: "fallback", command: "echo works-$((2+3))" });
      assert.equal(r.output, "works-5");
      assert.equal(r.exit_code, 0);
    } finally {
      await h.destroy();
    }
  });

  test("TERMHIVE_BACKEND=tmux refuses to start and says how to install tmux", () => {
    const home = tempFolder("termhive-e2e-");
    try {
      const r = spawnSync(process.execPath, [CLI, "mcp"], {
        env: { ...process.env, TERMHIVE_HOME: home, TERMHIVE_BACKEND: "tmux", TERMHIVE_TMUX: NO_TMUX },
        input: "",
        encoding: "utf8",
        timeout: 20_000,
      });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /apt-get install -y tmux/);
      assert.match(r.stderr, /TERMHIVE_BACKEND=pty/);
      assert.doesNotMatch(r.stderr, /\n\s+at /); // a message, not a stack trace
    } finally {
      removeTempFolder(home);
    }
  });
});

describe("hive on the pty backend", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start({ TERMHIVE_BACKEND: "pty" });
  });
  after(async () => h.destroy());

  test("a layout's panes share one window id and work; there is no attach command", async () => {
    const r = await h.ok("hive_layout", { layout: "horizontal", count: 2 });
    assert.equal(r.panes.length, 2);
    assert.equal(r.attach, null);
    assert.match(r.window, /^ptyw-\d+$/);
    for (const p of r.panes) {
      assert.ok(p.rows > 0 && p.cols > 0, `${p.name} is ${p.cols}x${p.rows}`);
      const run = await h.ok("terminal_run", { session: p.session, command: "echo pane-ok" });
      assert.equal(run.output, "pane-ok");
    }
  });

  test("focus is refused with a clear 'not supported by the pty backend'", async () => {
    await h.ok("terminal_open", { name: "f1", command: "bash" });
    const r = await h.call("hive_focus", { session: "f1" });
    assert.equal(r.isError, true);
    assert.match(r.text, /not supported by the pty backend/);
  });
});
