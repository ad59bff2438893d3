// After a full-screen program quits, what it drew on the alternate screen is not the command's
// output; what was printed on the normal screen before and after it is (trial 15: less's
// redraws came back as ~1500 tokens of output, vim's last screen as one garbled line).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fakeSession, osc } from "./fake-session.js";
import { renderNormalScreen, screenParts } from "../../../src/terminal/views/normal-screen.js";

function lessThenEcho() {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print(`less README.md; echo AFTER-42\r\n${osc.output}BEFORE-LESS\r\n\x1b[?1049h\x1b[?1h\x1b=\x1b[H\x1b[2J# termhive\r\npage one\r\n:`);
  const inside = f.session.transcript.end;
  f.print(`\x1b[H\x1b[2J# termhive\r\npage one\r\n...skipping...\r\n## Sandbox\r\npage two\r\n:\r\x1b[K\x1b[?1l\x1b>\x1b[?1049l\rAFTER-42\r\n`);
  const end = f.session.transcript.end;
  f.print(`${osc.end(0)}${osc.prompt}`);
  return { f, inside, end };
}

test("a wait that starts inside the program's screen gets only what was printed after it quit", async () => {
  const { f, inside, end } = lessThenEcho();
  const parts = screenParts(f.session, inside, end);
  assert.equal(parts.before.end, parts.before.start);
  assert.ok(parts.alternate && parts.after, JSON.stringify(parts));
  const shown = await renderNormalScreen(f.session, { from: inside, to: end, maxTokens: 2000 });
  assert.match(shown.text, /^AFTER-42$/m, shown.text);
  assert.doesNotMatch(shown.text, /page one|skipping|Sandbox/, shown.text);
  assert.match(shown.text, /full-screen program's screens, not output: terminal_read \{"session":"fake","mode":"lines"/, shown.text);
});

test("from before the program: the lines printed before it stay, its redraws go", async () => {
  const { f, end } = lessThenEcho();
  const record = f.session.commands.at(-1)!;
  const shown = await renderNormalScreen(f.session, { from: record.outputStart, to: end, maxTokens: 2000 });
  assert.match(shown.text, /^BEFORE-LESS\n\[a full-screen program's screens[^\n]*\]\nAFTER-42$/, shown.text);
});

test("a program that quit printing nothing on the normal screen: only the line saying what was left out", async () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print(`vim v.txt\r\n${osc.output}\x1b[?1049h\x1b[22;1H"v.txt" 4L, 32B written\x1b[?1049l\x1b[23;0;0t`);
  const shown = await renderNormalScreen(f.session, { from: f.session.commands.at(-1)!.outputStart, to: f.session.transcript.end, maxTokens: 2000 });
  assert.doesNotMatch(shown.text, /written/, shown.text);
  assert.equal(shown.text.split("\n").length, 1, shown.text);
});

test("no alternate screen in the slice: rendered as before", async () => {
  const f = fakeSession("bash");
  f.print(osc.prompt);
  f.print(`echo hi\r\n${osc.output}hi\r\n`);
  const shown = await renderNormalScreen(f.session, { from: f.session.commands.at(-1)!.outputStart, maxTokens: 2000 });
  assert.equal(shown.text, "hi");
});
