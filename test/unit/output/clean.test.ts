import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanLines, drawnText } from "../../../src/output/clean.js";

const texts = (raw: string): string[] => cleanLines(raw).map((line) => line.text);

test("strips SGR, OSC (BEL and ST terminated), charset and DCS sequences", () => {
  const raw = "\x1b[1;31mred\x1b[0m \x1b]133;D;0\x07\x1b]7;file://h/x\x1b\\ok\x1b(B\x1bP1$r\x1b\\!";
  assert.deepEqual(texts(raw), ["red ok!"]);
});

test("a progress bar redrawn with \\r leaves only its final state", () => {
  assert.deepEqual(texts("10%\r50%\r100% done\r\nnext"), ["100% done", "next"]);
});

test("\\r overwrites per column like a terminal, keeping the longer tail", () => {
  assert.deepEqual(texts("abcdef\rXY\r\n"), ["XYcdef"]);
});

test("erase-in-line after \\r and cursor-column moves apply (npm spinner)", () => {
  assert.deepEqual(texts("⠙\x1b[1G\x1b[0K⠹\x1b[1G\x1b[0Kadded 3 packages"), ["added 3 packages"]);
  assert.deepEqual(texts("abc\x1b[2D\x1b[K!"), ["a!"]);
});

test("backspaces move left and the next character overwrites", () => {
  assert.deepEqual(texts("-\b \bdone"), ["done"]);
  assert.deepEqual(texts("ab\bc"), ["ac"]);
});

test("cursor up rewrites an earlier row (multi-line progress)", () => {
  const raw = "layer1: 10%\nlayer2: 10%\n\x1b[2A\x1b[2Klayer1: done\n\x1b[2Klayer2: done";
  assert.deepEqual(texts(raw), ["layer1: done", "layer2: done"]);
});

test("other control characters are dropped, tabs kept", () => {
  assert.deepEqual(texts("a\x07b\x00c\td\x7f"), ["abc\td"]);
});

test("identical runs collapse to one line with ×N and keep their source span", () => {
  const lines = cleanLines("start\nsame\nsame\nsame\nend");
  assert.deepEqual(lines, [
    { text: "start", from: 0, to: 0 },
    { text: "same ×3", from: 1, to: 3 },
    { text: "end", from: 4, to: 4 },
  ]);
});

// Trial 15: `cmd1 | tail -1; cmd2 | tail -1` printed the same error line once each; "×2" read
// as one line repeated and hid that two commands failed. Two lines cost one line more than "×2".
test("two identical lines stay two lines: only a run of three or more is written once with ×N", () => {
  const error = "PermissionError: [Errno 1] Operation not permitted";
  assert.deepEqual(texts(`${error}\n${error}\nend`), [error, error, "end"]);
  assert.deepEqual(texts("y\ny\ny\n"), ["y ×3"]);
});

test("blank runs collapse to one, trailing blanks and leading/trailing blank lines go", () => {
  assert.deepEqual(texts("\n\na   \n\n\n\nb\t \n\n"), ["a", "", "b"]);
});

test("source line numbers survive cleaning (index into the input split on \\n)", () => {
  const lines = cleanLines("\x1b[32mok\x1b[0m\r\n\r\n\r\nfail\r\n");
  assert.deepEqual(lines.map((line) => [line.text, line.from]), [["ok", 0], ["", 1], ["fail", 3]]);
});

test("characters beyond Latin-1 survive cleaning, runs of them included", () => {
  const lines = cleanLines("✓ ok\r\n✓ ok\r\n✓ ok\r\n日本語 \r\né\r\n😀 done");
  assert.deepEqual(lines, [
    { text: "✓ ok ×3", from: 0, to: 2 },
    { text: "日本語", from: 3, to: 3 },
    { text: "é", from: 4, to: 4 },
    { text: "😀 done", from: 5, to: 5 },
  ]);
});

test("cursor down past the last row makes rows; a rewrite after cursor up keeps later source lines", () => {
  assert.deepEqual(texts("top\x1b[2Bbelow"), ["top", "", "   below"]); // the column stays
  const lines = cleanLines("a1\nb1\n\x1b[2Aa2 longer\nb2");
  assert.deepEqual(lines, [
    { text: "a2 longer", from: 0, to: 2 },
    { text: "b2", from: 1, to: 3 },
  ]);
});

test("a plain line printed over a longer row keeps that row's tail", () => {
  assert.deepEqual(texts("abcdef\n\x1b[1Axy"), ["xycdef"]);
});

test("drawnText: a match carried as a terminal draws it (no \\r, no \\b, no escapes)", () => {
  assert.equal(drawnText("\rFATAL-2"), "FATAL-2");
  assert.equal(drawnText("ab\b\bxy\x1b[1m!\x1b[0m"), "xy!");
  assert.equal(drawnText("one\r\ntwo"), "one\ntwo");
});
