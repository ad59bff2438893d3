// Issue 20 §6: a linear but costly user regex ((.*a){20} over a 100 KB line: ~1.3 s of re2js)
// must not hold the server's event loop: another session's command on the same server is
// answered while the match runs (it used to queue behind it).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("user regexes off the event loop", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
    await h.ok("terminal_open", { name: "victim", command: "bash" });
    await h.ok("terminal_open", { name: "bystander", command: "bash" });
  });
  after(async () => h.destroy());

  test("terminal_wait (.*a){20}b over a 100 KB line: another session's echo is answered before the wait returns", async () => {
    // The b comes last, so only the whole line matches.
    await h.ok("terminal_run", { session: "victim", command: "python3 -c \"print('a'*100000 + 'b')\"" });
    // A fresh server process has read nothing yet: its first check scans the pane's whole
    // history at once, 100 KB line included (no partial lines streaming in).
    await h.close();
    await h.connect();
    const order: string[] = [];
    const wait = h.call("terminal_wait", { session: "victim", pattern: "(.*a){20}b", timeout_s: 60 }).then((r) => (order.push("wait"), r));
    const echo = h.ok("terminal_run", { session: "bystander", command: "echo bystander-ok" }).then((r) => (order.push("echo"), r));
    const [waited, echoed] = await Promise.all([wait, echo]);
    assert.equal(waited.isError, false, waited.text);
    assert.equal(waited.data.matched, true, JSON.stringify(waited.data).slice(0, 400));
    assert.equal(echoed.output, "bystander-ok");
    assert.deepEqual(order, ["echo", "wait"], "the echo waited for the regex");
  });

  test("terminal_read filter (.*a){20}b over the same line: another session's echo is answered before the read returns", async () => {
    const order: string[] = [];
    const read = h.call("terminal_read", { session: "victim", mode: "all", filter: "(.*a){20}b" }).then((r) => (order.push("read"), r));
    const echo = h.ok("terminal_run", { session: "bystander", command: "echo bystander-read" }).then((r) => (order.push("echo"), r));
    const [got, echoed] = await Promise.all([read, echo]);
    assert.equal(got.isError, false, got.text);
    // The matching line is kept (folded to the budget), not reported as "no line matches".
    assert.doesNotMatch(got.data.output, /no line matches/);
    assert.match(got.data.output, /aaaa.*b$/m);
    assert.equal(echoed.output, "bystander-read");
    assert.deepEqual(order, ["echo", "read"], "the echo waited for the filter");
  });
});
