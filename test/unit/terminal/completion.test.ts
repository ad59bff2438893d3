import { test } from "node:test";
import assert from "node:assert/strict";
import { awaitCompletion, completedSince, type CompletionRequest } from "../../../src/terminal/waits/completion.js";
import { SafeRegex } from "../../../src/util/regex.js";
import { fakeSession, osc } from "./fake-session.js";

const timing = { promptQuietMs: 5, idleQuietMs: 60 };

function request(startOffset: number, extra: Partial<CompletionRequest> = {}): CompletionRequest {
  return { mode: "shell", startOffset, timeoutMs: 5_000, ...extra };
}

/** A bash at its prompt, as after its rc files ran. */
function atPrompt() {
  const fake = fakeSession("bash");
  fake.print(osc.prompt);
  assert.equal(fake.session.phase, "prompt");
  return fake;
}

test("osc133: the command's own D ends the run, with its exit code", async () => {
  const { session, print } = atPrompt();
  const start = session.transcript.end;
  const done = awaitCompletion(session, request(start), timing);
  print("make\r\n" + osc.output + "building\r\nerror\r\n" + osc.end(2) + osc.prompt);
  const c = await done;
  assert.equal(c.reason, "osc133");
  assert.equal(c.exitCode, 2);
  assert.equal(c.record?.exitCode, 2);
  assert.equal(session.transcript.slice(c.record!.outputStart, c.record!.outputEnd!).text, "building\r\nerror\r\n");
});

test("osc133: exit code 0, and a D without a code reads as null", async () => {
  for (const [end, code] of [[osc.end(0), 0], [osc.end(), null]] as const) {
    const { session, print } = atPrompt();
    const done = awaitCompletion(session, request(session.transcript.end), timing);
    print("true\r\n" + osc.output + end + osc.prompt);
    assert.equal((await done).exitCode, code);
  }
});

test("a prompt split across chunks at every byte still completes the run once", async () => {
  const tail = osc.output + "out\r\n" + osc.end(7) + osc.prompt;
  for (let cut = 1; cut < tail.length; cut++) {
    const { session, print } = atPrompt();
    const done = awaitCompletion(session, request(session.transcript.end), timing);
    print("cmd\r\n" + tail.slice(0, cut));
    print(tail.slice(cut));
    const c = await done;
    assert.equal(c.reason, "osc133", `cut at ${cut}`);
    assert.equal(c.exitCode, 7, `cut at ${cut}`);
    assert.equal(session.commands.length, 1, `cut at ${cut}`);
  }
});

test("the end of an earlier command does not end this one", async () => {
  const { session, print } = atPrompt();
  print("sleep 1\r\n" + osc.output + "…\r\n"); // running before this run was typed (adopted, or typed by hand)
  const start = session.transcript.end;
  let settled = false;
  const done = awaitCompletion(session, request(start, { timeoutMs: 300 }), timing).then((c) => ((settled = true), c));
  // It prints more after this run was typed, then ends: its end is past this run's start.
  print("still going\r\n" + osc.end(0));
  const c = await done;
  assert.equal(settled, true);
  assert.equal(c.reason, "timeout");
  assert.equal(c.exitCode, null);
});

test("rejected: the shell comes back to its prompt without starting the command", async () => {
  const { session, print } = atPrompt();
  const done = awaitCompletion(session, request(session.transcript.end), timing);
  print("if then\r\nbash: syntax error near unexpected token `then'\r\n" + osc.prompt);
  const c = await done;
  assert.equal(c.reason, "rejected");
  assert.equal(c.exitCode, null);
  assert.equal(c.record, undefined);
});

test("exit: the program exits while the command runs; its status is the exit code", async () => {
  const { session, print } = atPrompt();
  const done = awaitCompletion(session, request(session.transcript.end), timing);
  print("exit 4\r\n" + osc.output);
  session.markExited(4, null);
  const c = await done;
  assert.equal(c.reason, "exit");
  assert.equal(c.exitCode, 4);
});

test("until: the pattern in the command's output ends the wait; the command keeps running", async () => {
  const { session, print } = atPrompt();
  const until = new SafeRegex("listening on \\d+", "until");
  const start = session.transcript.end;
  print("serve\r\n" + osc.output + "starting\r\n");
  const done = awaitCompletion(session, request(start, { until }), timing);
  print("listening on 8080\r\n");
  const c = await done;
  assert.equal(c.reason, "until");
  assert.equal(c.exitCode, null);
  assert.equal(session.running, c.record);
});

test("nested-prompt: a command that starts a REPL completes at the REPL's prompt", async () => {
  const { session, print } = atPrompt();
  const done = awaitCompletion(session, request(session.transcript.end), timing);
  print("python3\r\n" + osc.output + "Python 3.12.0\r\n>>> ");
  const c = await done;
  assert.equal(c.reason, "nested-prompt");
  assert.equal(c.prompt, "python");
  assert.ok(session.running, "python is still running in the shell");
});

test("nested mode: a line typed into the REPL completes at its next prompt; its exit ends the outer record", async () => {
  const { session, print } = atPrompt();
  print("python3\r\n" + osc.output + "Python 3.12.0\r\n>>> ");
  const outer = session.running;
  const typedAt = session.transcript.end;
  const first = awaitCompletion(session, request(typedAt, { mode: "nested", outer }), timing);
  print("1 + 1\r\n2\r\n>>> ");
  const c = await first;
  assert.equal(c.reason, "nested-prompt");
  assert.equal(session.transcript.slice(typedAt).text, "1 + 1\r\n2\r\n>>> ");

  const second = awaitCompletion(session, request(session.transcript.end, { mode: "nested", outer }), timing);
  print("exit()\r\n" + osc.end(0) + osc.prompt);
  const d = await second;
  assert.equal(d.reason, "osc133");
  assert.equal(d.record, outer);
  assert.equal(d.exitCode, 0);
});

test("a REPL that exits while its line is being judged ends with the shell's exit code, not at the shell's prompt", async () => {
  // The judging awaits the liveness probe (tmux asked whether the pane lives) and the screen:
  // python exits, and the shell prints its end mark and prompt, during that await. The "$ " on
  // the cursor line is then the shell's own, not a prompt python's line led to.
  let exits = (): void => {};
  const { session, print } = fakeSession("bash", { onPaneInfo: () => exits() });
  print(osc.prompt);
  print("python3\r\n" + osc.output + "Python 3.12.0\r\n>>> ");
  const outer = session.running;
  const typedAt = session.transcript.end;
  exits = () => {
    exits = () => {};
    print(osc.end(3) + osc.prompt);
  };
  const done = awaitCompletion(session, request(typedAt, { mode: "nested", outer }), { promptQuietMs: 0, idleQuietMs: 60 });
  print("import sys; sys.exit(3)\r\n");
  const c = await done;
  assert.equal(c.reason, "osc133");
  assert.equal(c.exitCode, 3);
  assert.equal(c.record, outer);
});

test("fullscreen: a program that switches to the alternate screen and draws it, then goes quiet", async () => {
  const { session, print } = atPrompt();
  const done = awaitCompletion(session, request(session.transcript.end), timing);
  print("vim\r\n" + osc.output + "\x1b[?1049h\x1b[H~\r\n~\r\n\"notes\" [New]");
  const c = await done;
  assert.equal(c.reason, "fullscreen");
  assert.equal(session.screen.snapshot().alternate, true);
});

test("idle: without shell integration or a known prompt, quiet output ends the run", async () => {
  const { session, print } = fakeSession("other");
  print("welcome\r\n");
  const start = session.transcript.end;
  const done = awaitCompletion(session, request(start, { mode: "quiet" }), timing);
  print("status\r\nall good\r\n");
  const c = await done;
  assert.equal(c.reason, "idle");
  assert.ok(Date.now() - session.lastOutputAt >= timing.idleQuietMs);
});

test("quiet mode does not finish before the program printed anything", async () => {
  const { session } = fakeSession("other");
  const c = await awaitCompletion(session, request(session.transcript.end, { mode: "quiet", timeoutMs: 250 }), timing);
  assert.equal(c.reason, "timeout");
});

test("timeout: a command still running when the time is up keeps its record", async () => {
  const { session, print } = atPrompt();
  const done = awaitCompletion(session, request(session.transcript.end, { timeoutMs: 200 }), timing);
  print("sleep 100\r\n" + osc.output);
  const c = await done;
  assert.equal(c.reason, "timeout");
  assert.equal(c.record, session.running);
  assert.equal(c.record?.command, "sleep 100");
});

test("a session closed while waiting rejects the wait", async () => {
  const { session } = atPrompt();
  const done = awaitCompletion(session, request(session.transcript.end), timing);
  session.markGone("its pane was closed");
  await assert.rejects(done, /is gone: its pane was closed/);
});

test("completedSince: a command running when the reader last read, finishing now, gives its code", async () => {
  const { session, print } = atPrompt();
  print("make\r\n" + osc.output + "…\r\n");
  const check = completedSince(session, session.transcript.end, { idleMs: 1000, promptQuietMs: 5 });
  assert.equal(await check(), undefined);
  print(osc.end(3) + osc.prompt);
  assert.deepEqual(await check(), { exitCode: 3 });
});

test("completedSince: a command that ended before the reader's position is not a new completion", async () => {
  const { session, print } = atPrompt();
  print("ls\r\n" + osc.output + "a b\r\n" + osc.end(0) + osc.prompt);
  const check = completedSince(session, session.transcript.end, { idleMs: 60_000, promptQuietMs: 5 });
  assert.equal(await check(), undefined);
  print("false\r\n" + osc.output + osc.end(1) + osc.prompt);
  assert.deepEqual(await check(), { exitCode: 1 });
});
