// What a program prints while an integrated shell reads its line is output; only what stands
// on the line once someone typed there is echo (see session.ts, echo-ranges.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fakeSession, osc } from "./fake-session.js";
import { inputLineHasText } from "../../../src/terminal/typing/prompt-line.js";
import { TYPED_ELSEWHERE_SETTLE_MS } from "../../../src/terminal/session/input-echo.js";

const printed = (f: ReturnType<typeof fakeSession>) => f.session.printedText(f.session.transcript.start).replace(/\x1b\][^\x07]*\x07/g, "");

test("whole lines printed at the prompt before anyone typed are output; a partial line is not yet", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print("BG-OK-2\r\n");
  f.print("half");
  assert.equal(printed(f), "$ BG-OK-2\r\n");
  f.print(" line\r\n");
  // Not yet: it may be a line typed elsewhere whose C is on its way (its break kept, as echo's are).
  assert.equal(printed(f), "$ BG-OK-2\r\n\n");
  t.mock.timers.tick(TYPED_ELSEWHERE_SETTLE_MS);
  assert.equal(printed(f), "$ BG-OK-2\r\nhalf line\r\n");
});

test("a line typed elsewhere whose C comes in the next chunk (bash under load) stays echo", () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print("sleep 1.5; echo CROSS-GO\r\n");
  assert.equal(printed(f), "$ \n");
  f.print(`${osc.output}CROSS-GO\r\n`);
  assert.equal(printed(f), "$ \nCROSS-GO\r\n");
});

test("zsh's command line report (E) before C in the next chunk keeps the line echo", () => {
  const f = fakeSession("zsh");
  f.print(osc.prompt);
  f.print("echo GO\r\n");
  f.print(`\x1b]633;E;echo GO\x07${osc.output}GO\r\n`);
  assert.equal(printed(f), "$ \nGO\r\n");
});

test("a line typed elsewhere and submitted in the same chunk as its C stays echo", () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print("echo GO");
  f.print(`\r\n${osc.output}GO\r\n`);
  assert.equal(printed(f), "$ \nGO\r\n");
});

test("once this process typed on the line, its line breaks before C are echo", async () => {
  const f = fakeSession("zsh");
  f.print(osc.prompt);
  await f.session.write(Buffer.from("echo a\necho GO"));
  // zsh draws a multi-line buffer; its C comes only with Enter.
  f.print("echo a\r\necho GO");
  assert.equal(printed(f), "$ \n");
  f.print(`\r\n${osc.output}GO\r\n`);
  assert.equal(printed(f), "$ \n\nGO\r\n");
});

test("a redrawn prompt after a job's lines (zsh's job notice) leaves them output", () => {
  const f = fakeSession("zsh");
  f.print(osc.prompt);
  f.print(`BG-OK-2\r\n[1]  + done\r\n${osc.prompt}`);
  assert.equal(printed(f), "$ BG-OK-2\r\n[1]  + done\r\n$ ");
});

test("lines a job printed at the prompt are not text on the input line (no Ctrl-C before a run)", async () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print("BG-OK-2\r\n");
  assert.equal(await inputLineHasText(f.session), false);
  f.print("typed");
  assert.equal(await inputLineHasText(f.session), true);
});

test("the screen profile rules read shows a job's lines; the line typed after them stays hidden", async () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print("Continue? [y/N] \r\n");
  await f.session.write(Buffer.from("read -p x"));
  f.print("read -p x");
  await f.session.screen.settled();
  const rows = f.session.screen.printedLines().filter((row) => row !== "");
  assert.deepEqual(rows, ["$ Continue? [y/N]", "░░░░ ░░ ░"]);
});

test("a job's line printed after a person's partial typing stays output when the Enter comes with its own line break", () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print("echo typed");
  f.print("BGQ2K1\r\n");
  f.print(`\r\n\x1b[?2004l\r${osc.output}typed\r\n`);
  assert.match(printed(f), /echo typedBGQ2K1\r\n/);
});
