// TERMHIVE_BACKEND=iterm2 end to end: the built server, through the MCP client, with its
// sessions in the protocol-level iTerm2 simulator (test/fixtures/iterm2-sim).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";
import { Iterm2Simulator } from "../fixtures/iterm2-sim/server.js";

describe("iterm2 backend (simulated iTerm2)", () => {
  let sim: Iterm2Simulator;
  let h: Harness;
  before(async () => {
    sim = await Iterm2Simulator.start();
    h = await Harness.start({ TERMHIVE_BACKEND: "iterm2", ...sim.env() });
  });
  after(async () => {
    await h?.destroy();
    await sim?.stop();
  });

  test("open and run in bash: exact completion and exit codes through iTerm2's prompt marks", async () => {
    const opened = await h.ok("terminal_open", { name: "it", command: "bash" });
    assert.equal(opened.backend, "iterm2");
    assert.equal(opened.attach, null);
    assert.match(opened.warning, /screen contents/);
    const r = await h.ok("terminal_run", { session: "it", command: "echo hello-$((6*7))" });
    assert.equal(r.reason, "osc133");
    assert.equal(r.exit_code, 0);
    assert.equal(r.output, "hello-42");
    const f = await h.ok("terminal_run", { session: "it", command: "(exit 3)" });
    assert.equal(f.exit_code, 3);
    assert.equal(f.output, "");
  });

  test("a restarted server adopts the iTerm2 sessions by name and goes on", async () => {
    await h.close();
    await h.connect();
    const list = await h.ok("terminal_list");
    const it = list.sessions.find((s: { name: string }) => s.name === "it");
    assert.equal(it?.backend, "iterm2");
    const read = await h.ok("terminal_read", { session: "it", mode: "all" });
    assert.match(read.output, /hello-42/, "the adopted session's history comes from iTerm2's buffer");
    const r = await h.ok("terminal_run", { session: "it", command: "echo after-$((2+2))" });
    assert.equal(r.output, "after-4", JSON.stringify(r));
    assert.equal(r.exit_code, 0);
    await h.ok("terminal_close", { session: "it" });
    assert.equal(sim.sessions.size, 0, "closing the session closed its iTerm2 tab");
  });

  // Issue 21 §7.
  test("a finished program's output ends with its own last line, not iTerm2's \" Session Ended \"", async () => {
    await h.ok("terminal_open", { name: "ends", command: "sh -c 'echo first; echo last-line; exit 4'" });
    const waited = await h.ok("terminal_wait", { session: "ends", for: "exit", timeout_s: 15 });
    assert.equal(waited.exit_code, 4);
    const all = await h.ok("terminal_read", { session: "ends", mode: "all" });
    assert.match(all.output, /first\nlast-line/);
    assert.doesNotMatch(all.output, /Session Ended/, JSON.stringify(all.output));
    assert.doesNotMatch(waited.output, /Session Ended/, JSON.stringify(waited.output));
    // A restarted server adopts the finished tab from iTerm2's buffer, which has the line by then.
    await h.close();
    await h.connect();
    const adopted = await h.ok("terminal_read", { session: "ends", mode: "all" });
    assert.match(adopted.output, /first\nlast-line/);
    assert.doesNotMatch(adopted.output, /Session Ended/, JSON.stringify(adopted.output));
  });
});

// Issue 21 §7: what a real iTerm2 does that the first simulator did not.
describe("iterm2 backend: a full-screen window", () => {
  let sim: Iterm2Simulator;
  let h: Harness;
  before(async () => {
    sim = await Iterm2Simulator.start({ fullScreen: true });
    h = await Harness.start({ TERMHIVE_BACKEND: "iterm2", ...sim.env() });
  });
  after(async () => {
    await h?.destroy();
    await sim?.stop();
  });

  test("opening in a full-screen window (resize refused as IMPOSSIBLE) works at the window's size, and leaves no stray tab", async () => {
    const opened = await h.ok("terminal_open", { name: "full", command: "bash", rows: 30, cols: 100 });
    assert.equal(opened.backend, "iterm2");
    assert.equal(sim.sessions.size, 1, "one tab: the session's");
    const r = await h.ok("terminal_run", { session: "full", command: "echo full-$((6*7))" });
    assert.equal(r.output, "full-42");
  });

});

// iTerm2 is one app for every TERMHIVE_HOME: each session records its home, and a termhive
// adopts only its own home's (another home's shells report to that home's status files).
describe("iterm2 backend: two homes on one iTerm2", () => {
  let sim: Iterm2Simulator;
  let a: Harness;
  let b: Harness;
  before(async () => {
    sim = await Iterm2Simulator.start();
    a = await Harness.start({ TERMHIVE_BACKEND: "iterm2", ...sim.env() });
    b = await Harness.start({ TERMHIVE_BACKEND: "iterm2", ...sim.env() });
  });
  after(async () => {
    await a?.destroy();
    await b?.destroy();
    await sim?.stop();
  });

  test("each home lists and adopts only its own sessions, also after a restart, and runs there end with their exit codes", async () => {
    await a.ok("terminal_open", { name: "of-a", command: "bash" });
    await b.ok("terminal_open", { name: "of-b", command: "bash" });
    assert.equal(sim.sessions.size, 2);
    for (const h of [a, b]) {
      await h.close();
      await h.connect();
    }
    const names = async (h: Harness) => (await h.ok("terminal_list")).sessions.map((s: { name: string }) => s.name).sort();
    assert.deepEqual(await names(a), ["of-a"]);
    assert.deepEqual(await names(b), ["of-b"]);
    const r = await b.ok("terminal_run", { session: "of-b", command: "(exit 5)" });
    assert.equal(r.reason, "osc133", JSON.stringify(r));
    assert.equal(r.exit_code, 5);
    await a.ok("terminal_close", { session: "of-a" });
    assert.equal(sim.sessions.size, 1, "closing a's session left b's tab alone");
  });
});
