// Cancelling the shell's input line with Ctrl-C (terminal_send keys ["C-c"], a run into a line
// with text): done only when the shell started a new prompt. bash's readline, when the SIGINT
// comes while it is not reading, redraws the old prompt and line and leaves the interrupt
// pending until the next key, which it then drops; only a second Ctrl-C ends that.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cancelInputLine } from "../../../src/terminal/typing/prompt-line.js";
import { fakeSession, osc } from "./fake-session.js";

const cwd = "\x1b]7;file://host/home/me\x07";

async function pressedCount(pressed: string[][], n: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (pressed.length < n) {
    assert.ok(Date.now() < deadline, `${n} presses expected, saw ${pressed.length}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test("bash: a redraw of the old prompt and line after Ctrl-C is not the new prompt; a second Ctrl-C is sent and its prompt ends the wait", async () => {
  const { session, pressed, print } = fakeSession("bash");
  print(cwd + osc.prompt + "half typed");
  const cancelled = cancelInputLine(session);
  await pressedCount(pressed, 1);
  // readline's clean-up and re-prep after the signal, then its redisplay: marks, no folder report.
  print("^C\x1b[?2004l\r\x1b[?2004h" + osc.prompt + "half typed");
  await pressedCount(pressed, 2);
  print("^C\x1b[?2004l\r\r\n" + cwd + "\x1b[?2004h" + osc.prompt);
  assert.equal(await cancelled, true);
  assert.deepEqual(pressed, [["C-c"], ["C-c"]]);
});

test("bash: a new prompt cycle (its folder report, then the prompt) after one Ctrl-C ends the wait at once", async () => {
  const { session, pressed, print } = fakeSession("bash");
  print(cwd + osc.prompt + "half typed");
  const cancelled = cancelInputLine(session);
  await pressedCount(pressed, 1);
  print("^C\x1b[?2004l\r\x1b[?2004h\x1b[?2004l\r\r\n" + cwd + "\x1b[?2004h" + osc.prompt);
  assert.equal(await cancelled, true);
  assert.deepEqual(pressed, [["C-c"]]);
});

test("zsh: its new prompt is enough (only bash leaves an interrupt pending), folder report or not", async () => {
  const { session, pressed, print } = fakeSession("zsh");
  print(cwd + osc.prompt + "half typed");
  const cancelled = cancelInputLine(session);
  await pressedCount(pressed, 1);
  print("^C\r\n" + osc.prompt);
  assert.equal(await cancelled, true);
  assert.deepEqual(pressed, [["C-c"]]);
});
