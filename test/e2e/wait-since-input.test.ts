// A wait for a pattern looks at output since the last input sent to the session — from this
// process, another one, or a fresh one that sends it — and says where it looked; an earlier job's
// matching line is never its match. A process that adopted the pane after the input looks at
// the adopted history too (and says so).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { E2E_BACKEND, Harness } from "./harness.js";
import { until } from "../until.js";

const second = (h: Harness): Promise<Harness> => h.sibling();

describe("terminal_wait looks past the last input", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h?.destroy());

  test("an earlier unread line that matches is not the match: the one printed after the input is", async () => {
    await h.ok("terminal_open", { name: "same", command: "bash" });
    // An earlier job's line, printed after this client's last read and before the next input
    // (bash's notice that the job is done, after the input, shows its command: no READY-<digit> in it).
    await h.ok("terminal_run", { session: "same", command: "sh -c \"sleep 0.5; printf 'READY-%s\\\\n' 42\" &", timeout_s: 20 });
    await until("the job's line on the screen", async () => (/READY-42/.test((await h.ok("terminal_read", { session: "same", mode: "screen" })).output) ? true : undefined));
    await h.ok("terminal_send", { session: "same", text: "sleep 1; echo READY-$((3+4))" });
    const w = await h.call("terminal_wait", { session: "same", pattern: "READY-\\d+", timeout_s: 20 });
    assert.equal(w.data.match, "READY-7", w.text);
    assert.equal(w.data.looked_since, "input", w.text);
    assert.match(w.text, /since the last input/);
    assert.doesNotMatch(w.data.output, /READY-42/, w.text);
  });

  test("a fresh server process matches only what followed its own input, not the adopted scrollback", { skip: E2E_BACKEND === "pty" }, async () => {
    await h.ok("terminal_open", { name: "fresh", command: "bash" });
    await h.ok("terminal_run", { session: "fresh", command: "for i in $(seq 1 300); do echo READY-42 line $i; done", timeout_s: 20 });
    const other = await second(h);
    try {
      await other.ok("terminal_send", { session: "fresh", text: "sleep 1; echo READY-$((3+4))" });
      const w = await other.call("terminal_wait", { session: "fresh", pattern: "READY-\\d+", timeout_s: 20 });
      assert.equal(w.data.match, "READY-7", w.text);
      assert.equal(w.data.looked_since, "input", w.text);
      assert.doesNotMatch(w.data.output, /READY-42/, w.text);
    } finally {
      await other.close();
    }
  });

  test("input sent from another process: the wait looks from there", { skip: E2E_BACKEND === "pty" }, async () => {
    await h.ok("terminal_open", { name: "elsewhere", command: "bash" });
    const other = await second(h);
    try {
      await other.ok("terminal_read", { session: "elsewhere" });
      await h.ok("terminal_run", { session: "elsewhere", command: "echo READY-$((40+2))", timeout_s: 20 });
      await h.ok("terminal_send", { session: "elsewhere", text: "sleep 1; echo READY-$((4+4))" });
      const w = await other.call("terminal_wait", { session: "elsewhere", pattern: "READY-\\d+", timeout_s: 20 });
      assert.equal(w.data.match, "READY-8", w.text);
      assert.equal(w.data.looked_since, "input", w.text);
      // The input came before a fresh process followed the session: what followed it is in the
      // history that process adopted, and found there (a client with a fresh process per call).
      const third = await second(h);
      try {
        const late = await third.call("terminal_wait", { session: "elsewhere", pattern: "READY-8", timeout_s: 5 });
        assert.equal(late.data.matched, true, late.text);
        assert.equal(late.data.looked_since, "start", late.text);
        assert.match(late.text, /the adopted history included/);
      } finally {
        await third.close();
      }
    } finally {
      await other.close();
    }
  });
});
