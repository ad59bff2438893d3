// Text sent after a command's end (its D) but before the shell draws its next prompt is echoed
// twice: by the terminal at once (bash runs PROMPT_COMMAND with the terminal still echoing),
// and again by readline after B. Neither is output: a wait for a pattern in that text must not
// match the typed line (trial 15: 5 of 16 send→wait→send→wait rounds matched it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fakeSession, osc } from "./fake-session.js";

const printed = (f: ReturnType<typeof fakeSession>, from: number) => f.session.printedText(from).replace(/\x1b\][^\x07]*\x07/g, "");

test("a line typed between D and the next prompt: the terminal's echo of it is not output", async () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  await f.session.write(Buffer.from("sleep 1; echo A_42\r"));
  f.print(`sleep 1; echo A_42\r\n${osc.output}A_42\r\n${osc.end(0)}`);
  assert.equal(f.session.phase, "redrawing");
  const from = f.session.transcript.end;
  await f.session.write(Buffer.from("sleep 2; echo B_MARK\r"));
  // The terminal echoes it while PROMPT_COMMAND still runs, then readline draws it after B.
  f.print("sleep 2; echo B_MARK\r\n");
  assert.doesNotMatch(printed(f, from), /B_MARK/);
  f.print(`${osc.promptStart}$ ${osc.input}sleep 2; echo B_MARK\r\n${osc.output}`);
  assert.doesNotMatch(printed(f, from), /B_MARK/);
  f.print("B_MARK\r\n");
  assert.equal(printed(f, from).match(/B_MARK/g)?.length, 1, JSON.stringify(printed(f, from)));
});

test("the same line echoed by the terminal in the chunk that also draws the prompt", async () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  await f.session.write(Buffer.from("true\r"));
  f.print(`true\r\n${osc.output}${osc.end(0)}`);
  const from = f.session.transcript.end;
  await f.session.write(Buffer.from("echo B_MARK\r"));
  f.print(`echo B_MARK\r\n${osc.promptStart}$ ${osc.input}echo B_MARK\r\n${osc.output}B_MARK\r\n`);
  assert.equal(printed(f, from).match(/B_MARK/g)?.length, 1, JSON.stringify(printed(f, from)));
});

test("typed before the prompt, echoed only by readline (the terminal no longer echoing): the prompt, though it holds typed letters, stays output", async () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  await f.session.write(Buffer.from("true\r"));
  f.print(`true\r\n${osc.output}${osc.end(0)}`);
  const from = f.session.transcript.end;
  await f.session.write(Buffer.from("echo sh\r"));
  f.print(`${osc.promptStart}ec$ ${osc.input}echo sh\r\n${osc.output}sh\r\n`);
  assert.equal(printed(f, from), "ec$ \nsh\r\n");
});
