// The iTerm2 parts of the built CLI: `attach --iterm2` (tmux control mode, the command iTerm2's
// tmux integration runs) against a real termhive tmux session, and what `doctor` says.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import type * as nodePty from "@lydell/node-pty";
import { findTmux } from "../../src/backends/find-tmux.js";
import { cliIn } from "./cli-field.js";
import { CLI, Harness } from "./harness.js";
import { Iterm2Simulator } from "../fixtures/iterm2-sim/server.js";

const pty = createRequire(import.meta.url)("@lydell/node-pty") as typeof nodePty;

describe("termhive attach --iterm2", () => {
  let h: Harness;
  let pane: string;
  before(async () => {
    h = await Harness.start();
    const opened = await h.ok("terminal_open", { name: "cc1", command: "bash" });
    pane = opened.pane;
  });
  after(async () => h?.destroy());

  test("--print: the tmux -CC command for the session's pane, shell-quoted", () => {
    const r = cliIn(h, {}, ["attach", "--iterm2", "--print", "cc1"]);
    assert.equal(r.status, 0, r.stderr);
    const tmux = findTmux("tmux")!;
    assert.equal(r.stdout.trim(), `${tmux} -S ${h.home}/tmux.sock -CC attach -t ${pane}`);
    const json = cliIn(h, {}, ["attach", "--iterm2", "--json", "cc1"]).json;
    assert.deepEqual(json.argv, [tmux, "-S", `${h.home}/tmux.sock`, "-CC", "attach", "-t", pane]);
    assert.equal(json.iterm2, true);
    assert.equal(json.name, "cc1");
  });

  test("without a session: every termhive window; a tmux window id is taken as is", () => {
    assert.match(cliIn(h, {}, ["attach", "--iterm2", "--print"]).stdout, / -CC attach -t termhive\n$/);
    assert.match(cliIn(h, {}, ["attach", "--iterm2", "--print", "@3"]).stdout, / -CC attach -t @3\n$/);
    const noRef = cliIn(h, {}, ["attach", "--print"]);
    assert.equal(noRef.status, 1);
    assert.match(noRef.stderr, /name the session to attach to/);
  });

  test("an unknown session: exit 1, one line naming the sessions there are", () => {
    const r = cliIn(h, {}, ["attach", "--iterm2", "--print", "ghost"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /unknown session "ghost"; sessions: cc1/);
  });

  test("the printed command really attaches in control mode (what iTerm2 runs)", async () => {
    const json = cliIn(h, {}, ["attach", "--iterm2", "--json", "cc1"]).json;
    const [file, ...args] = json.argv as string[];
    // Control mode wants a terminal on stdin, as iTerm2 gives it.
    const client = pty.spawn(file!, args, { name: "xterm-256color", rows: 24, cols: 80, env: { ...process.env, TMUX: "" } as Record<string, string> });
    let seen = "";
    client.onData((d) => (seen += d));
    const exited = new Promise<void>((resolve) => client.onExit(() => resolve()));
    try {
      const deadline = Date.now() + 10_000;
      // -CC starts with the DCS iTerm2 recognises, then control-mode notifications.
      while (!(seen.includes("\x1bP1000p") && seen.includes("%begin")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      assert.ok(seen.includes("\x1bP1000p"), `no control-mode DCS in ${JSON.stringify(seen.slice(0, 200))}`);
      client.write("display-message -p '#{pane_id}'\n");
      while (!seen.includes(`\n${pane}\r\n`) && !seen.includes(`\n${pane}\n`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      assert.ok(seen.includes(pane), `attached to ${pane}: ${JSON.stringify(seen.slice(-300))}`);
      client.write("detach-client\n");
      await exited;
    } finally {
      try {
        client.kill();
      } catch {
        // already gone
      }
    }
  });
});

describe("termhive doctor: iTerm2", () => {
  let h: Harness;
  let sim: Iterm2Simulator;
  before(async () => {
    h = await Harness.start();
    sim = await Iterm2Simulator.start();
  });
  after(async () => {
    await h?.destroy();
    await sim?.stop();
  });

  test("on Linux: one line, not macOS, not a failure", () => {
    const r = cliIn(h, {}, ["doctor", "--json"]);
    const check = r.json.checks.find((c: { check: string }) => c.check === "iTerm2");
    assert.equal(check.ok, true);
    assert.equal(check.required, false);
    assert.match(check.detail, /^not macOS: tab status and TERMHIVE_BACKEND=iterm2 are off/);
    assert.match(cliIn(h, {}, ["doctor"]).stdout, /^ok +iTerm2 +not macOS/m);
  });

  /** The CLI in a child process, without blocking this one: the simulator answers from here. */
  function doctorAsync(env: Record<string, string>): Promise<Record<string, any>> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, "doctor", "--json"], { cwd: h.cwd, env: { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home, ...env } });
      let stdout = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.on("error", reject);
      child.on("close", () => resolve(JSON.parse(stdout).checks.find((c: { check: string }) => c.check === "iTerm2")));
    });
  }

  test("with a (simulated) iTerm2: reachable, status on; with a bad cookie: why not and the fix", async () => {
    const good = await doctorAsync(sim.env());
    assert.equal(good.ok, true);
    assert.match(good.detail, /^API at .*Application Support\/socket \(\d+ sessions open\): agent status on tabs is on/);
    // A key iTerm2 does not accept, and no AppleScript to ask for a fresh cookie (no osascript on PATH).
    const bad = await doctorAsync({ ...sim.env(), ITERM2_KEY: "wrong", PATH: process.env.PATH! });
    assert.equal(bad.ok, false);
    assert.match(bad.detail, /refused the connection \(HTTP 401\)/);
    assert.match(bad.fix, /Enable Python API/);
    // iTerm2 never asks (termhive sends x-iterm2-disable-auth-ui): what the person must allow is macOS's Automation.
    assert.match(bad.fix, /Privacy & Security > Automation > iTerm2/);
    assert.doesNotMatch(bad.fix, /when iTerm2 asks/);
  });
});
