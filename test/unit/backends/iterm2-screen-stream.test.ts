// The iTerm2 backend's screen-to-stream conversion: successive buffer reads become one stream
// with every line once and the prompt marks where they belong.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { BufferContents } from "../../../src/iterm2/client.js";
import { ScreenStream } from "../../../src/backends/iterm2/screen-stream.js";

/** A buffer from its lines (starting at absolute line `first`), the cursor at the end of line `cursorLine`. */
function screen(lines: string[], cursorLine = lines.length - 1, first = 0): BufferContents {
  return {
    lines: lines.map((text) => ({ text, soft: false })),
    firstLine: first,
    linesAboveScreen: first,
    cursor: { x: lines[cursorLine - first]?.length ?? 0, y: cursorLine },
  };
}

const A = "\x1b]133;A\x07";
const B = "\x1b]133;B\x07";
const C = "\x1b]133;C\x07";
const D = (n: number) => `\x1b]133;D;${n}\x07`;

test("lines go out once, the cursor line as it grows", () => {
  const s = new ScreenStream();
  assert.equal(s.update(screen(["hel"])), "hel");
  assert.equal(s.update(screen(["hello", "wor"])), "lo\r\nwor");
  assert.equal(s.update(screen(["hello", "world", ""])), "ld\r\n");
  assert.equal(s.update(screen(["hello", "world", ""])), "");
});

test("a cursor line that changed other than by growing is rewritten", () => {
  const s = new ScreenStream();
  s.update(screen(["50%"]));
  assert.equal(s.update(screen(["100%"])), "\r\x1b[K100%");
});

test("a command's marks: prompt, its line held until it runs, output, end", () => {
  const s = new ScreenStream();
  assert.equal(s.prompt(screen(["$ "])), `${A}$ ${B}`);
  assert.equal(s.update(screen(["$ ls"])), "ls");
  // Output already on screen when the command's start is handled: the command line ends first.
  assert.equal(s.commandStart(screen(["$ ls", "a b", ""])), `\r\n${C}a b\r\n`);
  assert.equal(s.commandEnd(screen(["$ ls", "a b", "$ "]), 0), D(0));
  assert.equal(s.prompt(screen(["$ ls", "a b", "$ "])), `${A}$ ${B}`);
});

test("the next prompt already on screen at the command's end is taken back, then re-sent after its mark", () => {
  const s = new ScreenStream();
  s.prompt(screen(["$ "]));
  s.update(screen(["$ true"]));
  assert.equal(s.commandStart(screen(["$ true", ""])), `\r\n${C}`);
  // A read while the end notification was pending would have sent "$ "; this one did.
  assert.equal(s.update(screen(["$ true", "$ "])), "$ ");
  assert.equal(s.commandEnd(screen(["$ true", "$ "]), 1), `\r\x1b[K${D(1)}`);
  assert.equal(s.prompt(screen(["$ true", "$ "])), `${A}$ ${B}`);
});

test("with a mark pending, the cursor line waits", () => {
  const s = new ScreenStream();
  s.prompt(screen(["$ "]));
  assert.equal(s.commandStart(screen(["$ x", ""])), `x\r\n${C}`);
  assert.equal(s.update(screen(["$ x", "out", "$ "]), true), "out\r\n");
  assert.equal(s.commandEnd(screen(["$ x", "out", "$ "]), 0), D(0));
});

test("lines dropped from history before they were read are counted, and the stream goes on", () => {
  const s = new ScreenStream();
  s.update(screen(["one", ""]));
  assert.equal(s.update(screen(["five", "six", ""], 12, 10)), "five\r\nsix\r\n");
  assert.equal(s.lostLines, 9);
});

test("an adopted pane's stream starts where its snapshot ends; its line in progress is the command line", () => {
  const s = new ScreenStream();
  s.prime(screen(["old", "$ "], 1));
  assert.equal(s.update(screen(["old", "$ ls"], 1)), "ls");
  assert.equal(s.commandStart(screen(["old", "$ ls", "a", ""])), `\r\n${C}a\r\n`);
});

test("at the end, everything left on screen goes out, below the cursor too", () => {
  const s = new ScreenStream();
  s.update(screen(["a", ""]));
  assert.equal(s.finish({ ...screen(["a", "", "b"]), cursor: { x: 0, y: 1 } }), "\r\nb");
});
