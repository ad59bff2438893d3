// The screen parses only the tail of a plain flood: what it shows (visible lines, scrollback,
// cursor, modes) must be exactly what xterm shows when fed every byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { Screen } from "../../../src/terminal/model/screen.js";

const require = createRequire(import.meta.url);
const { Terminal } = require("@xterm/headless") as typeof import("@xterm/headless");

type Term = InstanceType<typeof Terminal>;

/** Every line xterm holds (scrollback and screen), the cursor and the buffer in use. */
function state(term: Term) {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? "");
  return { lines, cursor: [buffer.cursorX, buffer.cursorY], type: buffer.type, viewport: buffer.viewportY, bracketed: term.modes.bracketedPasteMode };
}

function termOf(screen: Screen): Term {
  return (screen as unknown as { term: Term }).term;
}

/** Between chunks: wait until both have parsed everything so far (the next flood meets a parsed state). */
const SETTLE = Symbol("settle");

async function compare(rows: number, cols: number, scrollback: number, chunks: (string | typeof SETTLE)[]): Promise<void> {
  const screen = new Screen(rows, cols, scrollback);
  const reference = new Terminal({ rows, cols, scrollback, allowProposedApi: true, convertEol: false, logLevel: "off" });
  for (const chunk of chunks) {
    if (chunk === SETTLE) {
      await screen.settled();
      await new Promise<void>((resolve) => reference.write("", resolve));
      continue;
    }
    void screen.write(chunk);
    reference.write(chunk);
  }
  await screen.settled();
  await new Promise<void>((resolve) => reference.write("", resolve));
  assert.deepEqual(state(termOf(screen)), state(reference));
  screen.dispose();
  reference.dispose();
}

const lines = (from: number, count: number, width = 30) =>
  Array.from({ length: count }, (_, i) => `${from + i} ${"x".repeat((from + i) % width)}\r\n`).join("");

test("a plain flood shows the same screen and scrollback as when every line is parsed", async () => {
  await compare(10, 40, 20, ["$ seq\r\n", lines(0, 5000), "$ "]);
});

test("a flood in many chunks, with long lines that wrap, tabs and a prompt left mid-line", async () => {
  const chunks: string[] = [];
  for (let i = 0; i < 300; i++) chunks.push(lines(i * 17, 17, 90) + (i % 7 === 0 ? "a\tb\tc\r\n" : ""));
  chunks.push("half a line");
  await compare(8, 40, 5, chunks);
});

test("escape sequences between floods keep their effect (colours, cursor moves, bracketed paste)", async () => {
  await compare(6, 30, 10, [lines(0, 400), "\x1b[31mred\x1b[0m\r\n\x1b[?2004h", SETTLE, lines(400, 400), "\x1b[2;3Hmoved", SETTLE, lines(800, 3)]);
});

test("a scroll region keeps lines outside it: nothing is dropped while one is set", async () => {
  await compare(8, 30, 10, ["top line\r\n", "\x1b[3;6r\x1b[3;1H", SETTLE, lines(0, 600), SETTLE, "\x1b[8;1Hbottom\x1b[r", SETTLE, lines(600, 300)]);
  // Below the region a line feed does not scroll: every line lands on the last row, and a
  // longer line written before a shorter one shows through after it.
  await compare(8, 30, 10, ["\x1b[2;4r\x1b[8;1H", SETTLE, "a long line written first\r\n" + lines(0, 600, 5), "end"]);
});

test("the alternate screen (no scrollback) after a flood, and back", async () => {
  await compare(6, 30, 10, [lines(0, 300), "\x1b[?1049h\x1b[H", SETTLE, lines(300, 500), "\x1b[?1049l", SETTLE, lines(800, 2)]);
});

test("a flood without carriage returns (LF only) keeps the cursor's column exactly", async () => {
  await compare(6, 30, 4, ["abc", Array.from({ length: 500 }, (_, i) => `${i}\n`).join(""), "\r\n", lines(0, 200, 10)]);
});

test("a write's promise resolves once its text is on the screen", async () => {
  const screen = new Screen(4, 20, 0);
  await screen.write(lines(0, 100));
  assert.equal(screen.snapshot().lines[2], "99 " + "x".repeat(99 % 30));
  await screen.write("\x1b[?1049h");
  assert.equal(screen.snapshot().alternate, true);
  screen.dispose();
});

test("a resize right after a flood reflows the same lines as when every line is parsed", async () => {
  const screen = new Screen(5, 20, 10);
  const reference = new Terminal({ rows: 5, cols: 20, scrollback: 10, allowProposedApi: true, convertEol: false, logLevel: "off" });
  const flood = lines(0, 2000, 35);
  void screen.write(flood);
  reference.write(flood);
  screen.resize(12, 30);
  reference.resize(30, 12);
  await screen.settled();
  await new Promise<void>((resolve) => reference.write("", resolve));
  assert.deepEqual(state(termOf(screen)), state(reference));
});
