// Hive delivery on real programs in real ptys (node-pty backend): the text is typed through the
// one typing path, and `delivered` says only what was verified on screen or by the shell.
import { test } from "node:test";
import assert from "node:assert/strict";
import { deliverText } from "../../../src/terminal/delivery.js";
import { waitUntilReady } from "../../../src/terminal/ready.js";
import type { SessionRegistry } from "../../../src/terminal/registry.js";
import type { TerminalSession } from "../../../src/terminal/session.js";
import { typeText } from "../../../src/terminal/typing.js";
import { stripAnsi } from "../../../src/util/ansi.js";
import { ptyRegistry as setup, until } from "./pty-registry.js";

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

test("a program that neither echoes nor reacts: not delivered, after two Enters, with a reason", async (t) => {
  const session = await open(await setup(t), "sh -c 'stty -echo; printf ready; exec sleep 60'");
  const result = await deliverText(session, "anyone there", true);
  assert.equal(result.delivered, false);
  assert.equal(result.attempts, 2);
  assert.match(result.note ?? "", /Enter pressed twice/);
});

test("the typing path: a multi-line command into bash runs as one input, each line once", async (t) => {
  const session = await open(await setup(t));
  await typeText(session, "echo first-$((1+1))\necho second-$((2+2))", true);
  await until("both lines' output", () => output(session).includes("first-2") && output(session).includes("second-4"));
  await until("the shell back at its prompt", () => session.phase === "prompt" && !session.running);
  assert.equal(output(session).split("second-4").length - 1, 1);
});
