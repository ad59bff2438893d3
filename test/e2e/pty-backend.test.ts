// The shared e2e cases against the node-pty backend (what runs where tmux is missing), plus
// what only differs on pty: no attach command, no restart survival.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";
import { programCases } from "./cases/programs.js";
import { shellCases } from "./cases/shells.js";

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
