// Hostile input must not freeze the server for every client: catastrophic regexes (with any
// flag, counted repeats, stored watchers that come back after a restart), one 100 KB word,
// 1 MB typed into a pane that echoes it. Each case runs while a second client's `echo` must
// still be answered: before the fixes these calls never returned (the test's timeout).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("hostile input", () => {
  let h: Harness;
  let other: Harness;
  before(async () => {
    h = await Harness.start();
    other = new Harness(h.home, h.env);
    await other.connect();
    await h.ok("terminal_open", { name: "victim", command: "bash" });
    await other.ok("terminal_open", { name: "bystander", command: "bash" });
  });
  after(async () => {
    await other.close();
    await h.destroy();
  });

  const bystanderEcho = async (tag: string) => {
    const r = await other.ok("terminal_run", { session: "bystander", command: `echo ${tag}` });
    assert.equal(r.output, tag);
  };

  test("a stored watcher (a+)+$ with the i flag, over a line it cannot match, stalls nobody — also after a restart", async () => {
    const w = await h.ok("hive_watch", { targets: "victim", pattern: "(a+)+$", flags: "i", label: "evil" });
    assert.ok(w.added, JSON.stringify(w));
    // 40 a's then "!": a backtracking engine tries 2^40 ways before giving up on the line.
    await h.ok("terminal_run", { session: "victim", command: "python3 -c \"print('a'*40 + '!')\"" });
    await bystanderEcho("after-watch-1");
    // A fresh server process loads the stored watcher again.
    await h.close();
    await h.connect();
    await h.ok("terminal_run", { session: "victim", command: "python3 -c \"print('A'*40 + '!')\"" });
    await bystanderEcho("after-watch-2");
    const hits = await h.ok("hive_events", { since: 0, kinds: ["watch"] });
    assert.equal(hits.events.filter((e: { data: { label: string } }) => e.data.label === "evil").length, 0, "nothing matched");
  });

  test("counted repeats and flags in wait, read and until run in linear time", async () => {
    await h.ok("terminal_send", { session: "victim", text: "python3 -c \"print('a'*5000 + '!')\"" });
    const wait = h.call("terminal_wait", { session: "victim", pattern: "(.*a){20}x", timeout_s: 2 });
    await bystanderEcho("during-wait");
    const waited = await wait;
    assert.equal(waited.isError, false, waited.text);
    assert.equal(waited.data.matched, false, JSON.stringify(waited.data).slice(0, 600));
    const read = await h.ok("terminal_read", { session: "victim", mode: "all", filter: "(?i)(A+)+$" });
    assert.match(read.output, /no line matches/);
    const until = await h.ok("terminal_run", { session: "victim", command: "python3 -c \"print('a'*3000 + '!'); print('end')\"", until: "(a|aa)+b|end" });
    assert.equal(until.complete, true);
    await bystanderEcho("after-until");
    const hive = await h.ok("hive_wait", { targets: "victim", for: "pattern", pattern: "^(a*)*b$", timeout_s: 1 });
    assert.equal(hive.matched, false);
  });

  test("one 100 KB word is counted and folded while another client is answered", async () => {
    const long = h.call("terminal_run", { session: "victim", command: "python3 -c \"print('x'*100000)\"" });
    await bystanderEcho("during-long-word");
    const r = await long;
    assert.equal(r.isError, false, r.text);
    assert.equal(r.data.exit_code, 0);
    assert.ok(r.data.raw_tokens > 1000, `raw_tokens ${r.data.raw_tokens}`);
    assert.ok(r.data.tokens < 2000, `tokens ${r.data.tokens}`);
    assert.match(r.data.output, /^x+ …\[\d+ chars cut\]… x+$/);
  });

  test("1 MB typed into a program that echoes it does not stall the server", async () => {
    await h.ok("terminal_run", { session: "victim", command: "clear" });
    await h.ok("terminal_send", { session: "victim", text: "cat", enter: true });
    const sent = h.call("terminal_send", { session: "victim", text: "q".repeat(1_000_000), enter: false });
    await bystanderEcho("during-paste");
    const r = await sent;
    assert.equal(r.isError, false, r.text);
    assert.equal(r.data.sent_bytes, 1_000_000);
    await bystanderEcho("after-paste");
    await h.ok("terminal_send", { session: "victim", keys: ["C-c"] });
    await h.ok("terminal_wait", { session: "victim", for: "completion", timeout_s: 10 });
  });
});
