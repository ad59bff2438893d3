// A wait for a pattern looks at output since the last input sent to the session — from this
// process, another one, or a fresh one that sends it — and says where it looked; an earlier job's
// matching line is never its match. A process that adopted the pane after the input looks at
// the adopted history too (and says so).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { E2E_BACKEND, Harness } from "./harness.js";
import { until } from "../until.js";
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

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
  test("a line sent after a command ended, before the next prompt: the terminal's echo of it is not the match", async () => {
    // The shell's prompt hook waits on a FIFO after D: the line sent then is echoed by the
    // terminal (cooked mode) while nothing can run it, which the trial hit as a race.
    const gate = join(h.home, "prompt-gate");
    execFileSync("mkfifo", [gate]);
    const open = (): Promise<void> => writeFile(gate, "\n");
    await h.ok("terminal_open", { name: "typeahead", command: "bash" });
    await Promise.all([h.ok("terminal_run", { session: "typeahead", command: `PROMPT_COMMAND+=('read -r _ < ${gate}')`, timeout_s: 20 }), open()]);
    await h.ok("terminal_send", { session: "typeahead", text: "true" });
    const ended = await h.call("terminal_wait", { session: "typeahead", for: "completion", timeout_s: 20 });
    assert.equal(ended.data.exit_code, 0, ended.text);
    await h.ok("terminal_send", { session: "typeahead", text: "echo TYPEAHEAD_MARK" });
    await until("the terminal's echo of the line", async () => (/echo TYPEAHEAD_MARK/.test((await h.ok("terminal_read", { session: "typeahead", mode: "screen" })).output) ? true : undefined));
    const early = await h.call("terminal_wait", { session: "typeahead", pattern: "TYPEAHEAD_MARK", timeout_s: 1 });
    assert.equal(early.data.matched, false, `the line cannot have run (its prompt is held): ${early.text}`);
    await open();
    const w = await h.call("terminal_wait", { session: "typeahead", pattern: "^TYPEAHEAD_MARK$", timeout_s: 20 });
    assert.equal(w.data.matched, true, w.text);
  });
});
