// Hive delivery on real programs in real ptys (node-pty backend): the text is typed through the
// one typing path, and `delivered` says only what was verified on screen or by the shell.
import { test } from "node:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { deliverText } from "../../../src/terminal/typing/delivery.js";
import { waitUntilReady } from "../../../src/terminal/waits/ready.js";
import type { SessionRegistry } from "../../../src/terminal/live/registry.js";
import type { TerminalSession } from "../../../src/terminal/session/session.js";
import { typeText } from "../../../src/terminal/typing/typing.js";
import { stripAnsi } from "../../../src/util/ansi.js";
import { ptyRegistry as setup, until } from "./pty-registry.js";

const DIALOG = resolve("test/fixtures/menu-dialog.py");
const output = (session: TerminalSession) => stripAnsi(session.transcript.slice(session.transcript.start).text);

async function open(registry: SessionRegistry, command?: string): Promise<TerminalSession> {
  const session = await registry.open({ command, rows: 24, cols: 100 });
  assert.equal(await waitUntilReady(session, { timeoutMs: 10_000, quietMs: 150, silentMs: 1000 }), "ready");
  return session;
}

test("into a shell at its prompt: pasted, one Enter, and the shell ran it", async (t) => {
  const session = await open(await setup(t));
  const result = await deliverText(session, "echo delivered-$((6*7))", true);
  assert.equal(result.delivered, true);
  assert.equal(result.attempts, 1);
  // bash's readline (5.1 and later) asks for bracketed paste.
  assert.equal(result.method, "paste");
  await until("the command's output", () => output(session).includes("delivered-42"));
  await until("the command to finish", () => session.commands.some((c) => c.command.includes("delivered") && c.exitCode === 0));
});

test("into a program without shell integration: verified by the screen (echo, then the line left the input)", async (t) => {
  const session = await open(await setup(t), "cat");
  const result = await deliverText(session, "hello cat", true);
  assert.deepEqual({ delivered: result.delivered, attempts: result.attempts }, { delivered: true, attempts: 1 });
  // The tty echoed the line and cat printed it back: twice on screen, cursor on a fresh line.
  await until("cat's copy of the line", () => output(session).split("hello cat").length - 1 >= 2);
});

test("without submit: typed and echoed, nothing pressed", async (t) => {
  const session = await open(await setup(t), "cat");
  const result = await deliverText(session, "draft text", false);
  assert.deepEqual({ delivered: result.delivered, attempts: result.attempts }, { delivered: true, attempts: 0 });
  assert.equal(output(session).split("draft text").length - 1, 1, "echoed once, not submitted");
});

test("a program that neither echoes nor reacts: not delivered, and no Enter pressed, with a reason", async (t) => {
  const session = await open(await setup(t), "sh -c 'stty -echo; printf ready; exec sleep 60'");
  const result = await deliverText(session, "anyone there", true);
  assert.equal(result.delivered, false);
  assert.equal(result.attempts, 0);
  assert.match(result.note ?? "", /did not show where input goes.*Enter not pressed/);
});

test("a dialog that has the keyboard and redraws on every key: not delivered, its choice never picked by our Enter", async (t) => {
  const log = join(mkdtempSync(join(tmpdir(), "termhive-dialog-")), "keys.log");
  t.after(() => rmSync(join(log, ".."), { recursive: true, force: true }));
  const session = await open(await setup(t), `python3 ${DIALOG} ${log}`);
  const result = await deliverText(session, "delta please run the task", true);
  // The dialog read the paste (it redrew: the screen changed after the write and after any
  // Enter), but the text never showed where input goes.
  await until("the dialog to read the paste", () => existsSync(log) && readFileSync(log, "utf8").includes("delta please"));
  assert.equal(result.delivered, false, JSON.stringify(result));
  assert.equal(result.attempts, 0);
  assert.doesNotMatch(readFileSync(log, "utf8"), /picked/, "an Enter picked the dialog's choice");
});

test("a retry of a text that showed late (it sits on the input line): submitted, not typed a second time", async (t) => {
  const session = await open(await setup(t), "cat");
  assert.equal((await deliverText(session, "late text from the first try", false)).delivered, true);
  const result = await deliverText(session, "late text from the first try", true, { retry: true });
  assert.deepEqual({ delivered: result.delivered, attempts: result.attempts }, { delivered: true, attempts: 1 });
  // The tty's echo and cat's copy: twice, not four times.
  await until("cat's copy of the line", () => output(session).split("late text from the first try").length - 1 >= 2);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(output(session).split("late text from the first try").length - 1, 2);
});

test("the typing path: a multi-line command into bash runs as one input, each line once", async (t) => {
  const session = await open(await setup(t));
  await typeText(session, "echo first-$((1+1))\necho second-$((2+2))", true);
  await until("both lines' output", () => output(session).includes("first-2") && output(session).includes("second-4"));
  await until("the shell back at its prompt", () => session.phase === "prompt" && !session.running);
  assert.equal(output(session).split("second-4").length - 1, 1);
});
