// The size limit of typed text (TERMHIVE_MAX_INPUT_BYTES, 1 MiB by default): a terminal_send
// text or terminal_run command over it is refused at once, before anything is typed. Before, a
// 10 MB text typed for 163 s, and the line it left made the next run refuse.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("typed text size limit", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    await h.ok("terminal_open", { name: "sz", command: "bash" });
  });
  after(async () => h.destroy());

  test("a terminal_send text over 1 MiB is refused before anything is typed", async () => {
    const r = await h.call("terminal_send", { session: "sz", text: "x".repeat(1024 * 1024 + 1), enter: false });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^text is 1048577 bytes; the limit is 1048576 \(TERMHIVE_MAX_INPUT_BYTES\)\. Nothing was sent\./);
    // Nothing was left on the line: the next run is neither refused nor glued onto x's.
    const run = await h.ok("terminal_run", { session: "sz", command: "echo after-$((1+1))" });
    assert.equal(run.exit_code, 0, JSON.stringify(run));
    assert.equal(run.output, "after-2");
  });

  test("a terminal_run command over the limit is refused in the same words", async () => {
    // 600k characters pass the schema; as UTF-8 they are 1.2 MB.
    const r = await h.call("terminal_run", { session: "sz", command: `echo ${"é".repeat(600_000)}` });
    assert.equal(r.isError, true, r.text.slice(0, 200));
    assert.match(r.text, /^command is 1200005 bytes; the limit is 1048576 \(TERMHIVE_MAX_INPUT_BYTES\)\. Nothing was sent\./);
    assert.equal((await h.ok("terminal_run", { session: "sz", command: "echo still-$((2+2))" })).output, "still-4");
  });

  test("over 8192 characters typed without Enter: a run is refused until the line is cleared, as the README says", async () => {
    await h.ok("terminal_send", { session: "sz", text: `echo ${"y".repeat(9000)}`, enter: false });
    const r = await h.call("terminal_run", { session: "sz", command: "echo ok" });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /more than 8192 characters were typed on this line.*keys \["C-c"\]/);
    await h.ok("terminal_send", { session: "sz", keys: ["C-c"] });
    assert.equal((await h.ok("terminal_run", { session: "sz", command: "echo ok-$((3+3))" })).output, "ok-6");
  });
});
