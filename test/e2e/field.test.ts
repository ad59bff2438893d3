// First contact: termhive started the way real clients start it — a bare environment (HOME and
// PATH only: no LANG, no SHELL), a working folder that is not the repo, a fresh server process
// per call (the MCP Inspector CLI), several processes on one home at once.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, Harness } from "./harness.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";
import { endTmuxServer } from "../tmux-server.js";

function windowCount(h: Harness): number {
  const r = h.tmux("list-windows", "-a", "-F", "#{window_id}");
  return r.stdout.split("\n").filter(Boolean).length;
}

/** Keeps one core busy for at most `ms` (it stops by itself), as a loaded machine does. */
function burnCpu(ms: number): { stop(): void } {
  const child = spawn(process.execPath, ["-e", `const end = Date.now() + ${ms}; while (Date.now() < end) {}`], { stdio: "ignore" });
  return { stop: () => child.kill("SIGKILL") };
}

describe("first contact: bare environment, another folder", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("terminal_open works without LANG, starts in the caller's folder, and every process sees the session", async () => {
    const opened = await h.ok("terminal_open", { name: "first" });
    assert.equal(opened.backend, "tmux");
    assert.equal(opened.integrated, true);
    assert.equal(opened.cwd, h.cwd);
    const r = await h.ok("terminal_run", { session: "first", command: "pwd; printf '%s\\n' 'h\u00e9llo'" });
    assert.equal(r.exit_code, 0);
    assert.equal(r.output, `${h.cwd}\nh\u00e9llo`);
    // A fresh process per call (the Inspector's way) finds it, with its state.
    const listed = await h.callOnce("terminal_list");
    assert.equal(listed.isError, false, listed.text);
    const names = listed.data.sessions.map((s: { name: string }) => s.name);
    assert.deepEqual(names, ["first"]);
    const again = await h.callOnce("terminal_run", { session: "first", command: "echo again-$((1+1))" });
    assert.equal(again.data.output, "again-2", again.text);
  });

  test("the CLI in a bare env from another folder lists the session and passes doctor", () => {
    const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home };
    const ls = spawnSync(process.execPath, [CLI, "ls", "--json"], { cwd: tmpdir(), env, encoding: "utf8", timeout: 30_000 });
    assert.equal(ls.status, 0, ls.stderr);
    assert.ok(JSON.parse(ls.stdout).sessions.some((s: { name: string }) => s.name === "first"), ls.stdout);
    const doctor = spawnSync(process.execPath, [CLI, "doctor"], { cwd: tmpdir(), env, encoding: "utf8", timeout: 60_000 });
    assert.equal(doctor.status, 0, doctor.stdout + doctor.stderr);
    assert.match(doctor.stdout, /round trip .*ok/);
  });

  test("a relative cwd is taken from the caller's folder; a missing one is a clear error and leaves nothing", async () => {
    mkdirSync(join(h.cwd!, "sub dir"));
    const opened = await h.ok("terminal_open", { name: "rel", cwd: "sub dir" });
    assert.equal(opened.cwd, join(h.cwd!, "sub dir"));
    const before = windowCount(h);
    const missing = await h.call("terminal_open", { name: "nowhere", cwd: "no-such-folder" });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /no-such-folder.*does not exist.*nothing was opened/);
    assert.equal(windowCount(h), before, "no window may be left behind");
    const list = await h.ok("terminal_list");
    assert.ok(!list.sessions.some((s: { name: string }) => s.name === "nowhere"));
    const notDir = await h.call("terminal_open", { cwd: "/etc/hostname" });
    assert.equal(notDir.isError, true);
    assert.match(notDir.text, /not a folder/);
  });

  for (const shell of ["bash", "zsh"]) {
    test(`${shell}: a multi-line command run by a fresh process runs whole, as one paste, with the last line's exit code`, async () => {
      await h.ok("terminal_open", { name: `multi-${shell}`, command: shell });
      // The process that opened the session saw the shell ask for bracketed paste; this one did not.
      const r = await h.callOnce("terminal_run", { session: `multi-${shell}`, command: "echo one\nsleep 0.2; echo two\n(exit 3)" });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.data.output, "one\ntwo");
      assert.equal(r.data.exit_code, 3);
    });
  }

  test("20 fresh processes in a row under CPU load all succeed on their first call", async () => {
    const burner = burnCpu(120_000);
    try {
      for (let i = 0; i < 20; i++) {
        const r = await h.callOnce(i % 2 ? "terminal_list" : "terminal_run", i % 2 ? {} : { session: "first", command: `echo round-${i}` });
        assert.equal(r.isError, false, `call ${i}: ${r.text}`);
        if (i % 2 === 0) assert.equal(r.data.output, `round-${i}`);
      }
    } finally {
      burner.stop();
    }
  });
});

describe("first contact: several processes start together on a fresh home", () => {
  test("three servers whose first call is at the same moment all open their session", async () => {
    const field = await Harness.startField();
    // The harness's own connection made no call yet: the tmux server does not exist.
    const home = tempFolder("termhive-together-");
    const fresh = new Harness(home, field.env);
    fresh.bare = true;
    fresh.cwd = field.cwd;
    try {
      const results = await Promise.all([0, 1, 2].map((i) => fresh.callOnce("terminal_open", { name: `together-${i}` })));
      for (const r of results) assert.equal(r.isError, false, r.text);
      const list = await fresh.callOnce("terminal_list");
      assert.deepEqual(list.data.sessions.map((s: { name: string }) => s.name).sort(), ["together-0", "together-1", "together-2"]);
    } finally {
      // fresh never connected (only its callOnce servers did): its tmux server and home go by hand.
      await endTmuxServer(join(home, "tmux.sock"));
      removeTempFolder(home);
      await field.destroy();
    }
  });
});
