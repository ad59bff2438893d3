import { test } from "node:test";
import assert from "node:assert/strict";
import { EchoRanges } from "../../../src/terminal/model/echo-ranges.js";
import { TypedEcho } from "../../../src/terminal/model/typed-echo.js";

/** Feeds chunks through a TypedEcho into EchoRanges and returns what a pattern would read. */
function printed(typed: string, chunks: string[]): string {
  const ranges = new EchoRanges();
  const echo = new TypedEcho();
  echo.typed(typed, 0);
  let all = "";
  for (const chunk of chunks) {
    echo.scan(chunk, all.length, (start, end) => ranges.add(start, end), 10);
    all += chunk;
  }
  return ranges.cut(all, 0);
}

test("a REPL's echo of the typed line is taken out; its output stays", () => {
  assert.equal(printed("print('FATAL')\r", [">>> print('FATAL')\r\n", "FATAL\r\n>>> "]), ">>> \r\nFATAL\r\n>>> ");
});

test("the echo ends with the typed text: the same characters printed after it are output", () => {
  // A program that echoed the answer and then printed a line holding it.
  assert.equal(printed("y\r", ["y\r\ngot-y\r\n"]), "\r\ngot-y\r\n");
});

test("a redraw's escapes and box edges between echoed characters do not end the echo", () => {
  assert.equal(printed("hi there", ["│ > h\x1b[1mi\x1b[0m there │\r\n", "answer\r\n"]), "│ > \x1b[1m\x1b[0m │\r\nanswer\r\n");
});

test("text that is not echoed (a password read) is given up, not found later in the output", () => {
  const long = "x".repeat(40);
  assert.equal(printed("secret\r", [`${long}\r\n`, "s e c r e t\r\n"]), `${long}\r\ns e c r e t\r\n`);
});

test("an input line's range keeps its line breaks; an open line is cut to the end", () => {
  const ranges = new EchoRanges();
  const text = "$ echo GO\r\nGO\r\n$ ech";
  ranges.open(2);
  ranges.close(text.indexOf("\nGO") + 1);
  ranges.open(text.lastIndexOf("ech"));
  assert.equal(ranges.cut(text, 0), "$ \nGO\r\n$ ");
  assert.equal(ranges.cut(text.slice(4), 4), "\nGO\r\n$ ");
});
