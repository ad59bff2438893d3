// Issue 20 §6: a linear but costly user regex ((.*a){20} over a 100 KB line: ~1.3 s of re2js)
// must not hold the server's event loop: another session's command on the same server is
// answered while the match runs (it used to queue behind it).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";

describe("user regexes off the event loop", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
    await h.ok("terminal_open", { name: "victim", command: "bash" });
    await h.ok("terminal_open", { name: "bystander", command: "bash" });
    await h.ok("terminal_open", { name: "waited", command: "bash" });
    await h.ok("terminal_open", { name: "watched", command: "bash" });
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

  test("hive_wait pattern (.*a){20}b over a 100 KB line printed while it waits: another session's echo is answered before the wait returns", async () => {
    const order: string[] = [];
    const wait = h.call("hive_wait", { targets: "waited", for: "pattern", pattern: "(.*a){20}b", timeout_s: 60 }).then((r) => (order.push("wait"), r));
    // Sent after the wait: the line is output since the wait began.
    const printed = await h.ok("terminal_run", { session: "waited", command: "python3 -c \"print('a'*100000 + 'b')\"" });
    assert.equal(printed.exit_code, 0);
    const echo = h.ok("terminal_run", { session: "bystander", command: "echo bystander-wait" }).then((r) => (order.push("echo"), r));
    const [waited, echoed] = await Promise.all([wait, echo]);
    assert.equal(waited.isError, false, waited.text);
    assert.equal(waited.data.matched, true, JSON.stringify(waited.data).slice(0, 400));
    assert.match(waited.data.targets[0].detail, /^matched "a{20}/);
    assert.equal(echoed.output, "bystander-wait");
    assert.deepEqual(order, ["echo", "wait"], "the echo waited for the hive_wait pattern");
  });

  test("a hive_watch (.*a){20}b over 20 long lines: another session's echo is answered before the watcher's last hit, and every line is a hit", async () => {
    await h.ok("hive_watch", { targets: "watched", pattern: "(.*a){20}b", label: "costly" });
    const hits = async () => ((await h.ok("hive_events", { targets: "watched", kinds: ["watch"], limit: 500 })).events as unknown[]).length;
    const order: string[] = [];
    // 20 lines of 3,999 a's and a b: each ~400,000 steps of re2js, over the in-place bound.
    const printed = await h.ok("terminal_run", { session: "watched", command: "python3 -c \"[print('a'*3999 + 'b') for _ in range(20)]\"" });
    assert.equal(printed.exit_code, 0);
    const echo = h.ok("terminal_run", { session: "bystander", command: "echo bystander-watch" }).then((r) => (order.push("echo"), r));
    const allHits = (async () => {
      // Polled through the MCP door, each answer an event: the count is the hits recorded so far.
      while ((await hits()) < 20) await new Promise((r) => setTimeout(r, 100));
      order.push("hits");
    })();
    const [echoed] = await Promise.all([echo, allHits]);
    assert.equal(echoed.output, "bystander-watch");
    assert.deepEqual(order, ["echo", "hits"], "the echo waited for the watcher");
    assert.equal(await hits(), 20, "one hit per line, none twice");
  });

  test("a custom safety rule (.*a ){20}b over 100 KB of arguments: another session's echo is answered before the refusal", async () => {
    const rules = join(h.home, "rules.json");
    writeFileSync(rules, JSON.stringify({ rules: [{ name: "costly-args", reason: "a test rule with a costly pattern", program: "echo", args: "(.*a ){20}b" }] }));
    const gated = await Harness.start({ TERMHIVE_SAFETY_RULES: rules });
    try {
      await gated.ok("terminal_open", { name: "gated", command: "bash" });
      await gated.ok("terminal_open", { name: "bystander", command: "bash" });
      const order: string[] = [];
      // Many one-letter words: the custom rule's pattern is what costs here, not the parse of one long word.
      const refused = gated.call("terminal_run", { session: "gated", command: `echo ${"a ".repeat(50_000)}b` }).then((r) => (order.push("refused"), r));
      const echo = gated.ok("terminal_run", { session: "bystander", command: "echo bystander-gate" }).then((r) => (order.push("echo"), r));
      const [judged, echoed] = await Promise.all([refused, echo]);
      assert.equal(judged.isError, true, judged.text.slice(0, 300));
      assert.match(judged.text, /refused by the safety gate: costly-args \(a test rule with a costly pattern/);
      assert.equal(echoed.output, "bystander-gate");
      assert.deepEqual(order, ["echo", "refused"], "the echo waited for the safety rule");
    } finally {
      await gated.destroy();
    }
  });
});
