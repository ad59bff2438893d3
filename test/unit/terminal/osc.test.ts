import { test } from "node:test";
import assert from "node:assert/strict";
import { OscScanner, parseOsc, type LocatedOscEvent } from "../../../src/terminal/model/osc.js";

function scanAll(chunks: string[]): LocatedOscEvent[] {
  const scanner = new OscScanner();
  return chunks.flatMap((chunk) => scanner.feed(chunk));
}

test("each sequence termhive understands, with BEL or ST as terminator", () => {
  assert.deepEqual(parseOsc("133;A"), { type: "prompt-start" });
  assert.deepEqual(parseOsc("133;B"), { type: "command-input" });
  assert.deepEqual(parseOsc("133;C"), { type: "command-output" });
  assert.deepEqual(parseOsc("133;D;0"), { type: "command-end", exitCode: 0 });
  assert.deepEqual(parseOsc("133;D;130"), { type: "command-end", exitCode: 130 });
  assert.deepEqual(parseOsc("133;D"), { type: "command-end", exitCode: null });
  assert.deepEqual(parseOsc("133;D;x"), { type: "command-end", exitCode: null });
  assert.deepEqual(parseOsc("7;file://host/home/me/my%20dir"), { type: "cwd", path: "/home/me/my dir" });
  assert.deepEqual(parseOsc("7;file://host/bad%zz"), { type: "cwd", path: "/bad%zz" });
  assert.deepEqual(parseOsc("633;E;echo a\\x3bb\\\\c"), { type: "command-line", command: "echo a;b\\c" });
  assert.deepEqual(parseOsc("633;E;ls;0123abcd-ef"), { type: "command-line", command: "ls" }, "a trailing nonce is dropped");
  assert.deepEqual(parseOsc("1337;Custom=id=termhive:status=idle"), { type: "custom", id: "termhive", payload: "status=idle" });
  assert.equal(parseOsc("133;Z"), undefined);
  assert.equal(parseOsc("0;window title"), undefined);

  const bel = scanAll(["a\x1b]133;D;2\x07b"]);
  const st = scanAll(["a\x1b]133;D;2\x1b\\b"]);
  assert.deepEqual(bel, [{ event: { type: "command-end", exitCode: 2 }, start: 1, end: 11 }]);
  assert.deepEqual(st, [{ event: { type: "command-end", exitCode: 2 }, start: 1, end: 12 }]);
});

test("a prompt's marks split at every character give the same events at the same offsets", () => {
  const text = "out\r\n\x1b]133;D;1\x07\x1b]7;file://h/tmp\x07\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x07";
  const whole = scanAll([text]);
  assert.deepEqual(
    whole.map((e) => e.event.type),
    ["command-end", "cwd", "prompt-start", "command-input", "command-output"],
  );
  for (let cut = 0; cut <= text.length; cut++) {
    assert.deepEqual(scanAll([text.slice(0, cut), text.slice(cut)]), whole, `cut at ${cut}`);
  }
  // One character at a time.
  assert.deepEqual(scanAll([...text]), whole);
  // Offsets are absolute: each event's text is the sequence itself.
  for (const e of whole) assert.equal(text.slice(e.start, e.start + 2), "\x1b]");
});

test("an OSC aborted by another escape is dropped, and scanning goes on from that escape", () => {
  const events = scanAll(["\x1b]133;D;5\x1b[31mred\x1b]133;A\x07"]);
  assert.deepEqual(events.map((e) => e.event), [{ type: "prompt-start" }]);
});

test("an unterminated sequence longer than any of ours is not buffered for ever", () => {
  const scanner = new OscScanner();
  assert.deepEqual(scanner.feed("\x1b]1337;File=" + "x".repeat(70_000)), []);
  // The next sequence is found normally (the oversized one was given up).
  const after = scanner.feed("more\x07\x1b]133;B\x07");
  assert.deepEqual(after.map((e) => e.event), [{ type: "command-input" }]);
});

test("other OSCs (titles, hyperlinks) are skipped without events", () => {
  assert.deepEqual(scanAll(["\x1b]0;title\x07\x1b]8;;http://x\x07link\x1b]8;;\x07"]), []);
});

test("the shell's exit hook tags its D; a continuation prompt is 133;P;k=c", () => {
  assert.deepEqual(parseOsc("133;D;3;exiting"), { type: "command-end", exitCode: 3, exiting: { saidExit: false } });
  assert.deepEqual(parseOsc("133;D;3;said-exit"), { type: "command-end", exitCode: 3, exiting: { saidExit: true } });
  assert.deepEqual(parseOsc("133;D;3;other"), { type: "command-end", exitCode: 3 });
  assert.deepEqual(parseOsc("133;P;k=c"), { type: "continuation" });
  assert.equal(parseOsc("133;P;k=i"), undefined);
});
