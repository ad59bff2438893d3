// A command that ended before this process adopted its pane (another process ran it, or this
// one before a restart): adoption records it as ended, so a wait for completion answers at
// once (issue 21 §2), and its output is found in the adopted history by its echo.
import { test } from "node:test";
import assert from "node:assert/strict";
import { awaitCompletion, completedSince } from "../../../src/terminal/waits/completion.js";
import { locateEndedOutput } from "../../../src/terminal/session/session.js";
import { fakeSession, osc } from "./fake-session.js";

const history = "user@host:~$ ls\nold\nuser@host:~$ make test\nbuilding\nerror 2\nuser@host:~$ ";

test("locateEndedOutput: from the line after the command's last echo to the prompt line", () => {
  const { outputStart, outputEnd } = locateEndedOutput(history, 1000, "make test");
  assert.equal(history.slice(outputStart - 1000, outputEnd - 1000), "building\nerror 2\n");
});

test("locateEndedOutput: no echo in the history (cut short, hidden): no output, the end at the prompt line", () => {
  const { outputStart, outputEnd } = locateEndedOutput(history, 0, "cargo build");
  assert.equal(outputStart, history.lastIndexOf("\n") + 1);
  assert.equal(outputEnd, outputStart);
});

test("an adopted session whose last command ended: a wait for completion from the start answers at once with its exit code", async () => {
  const { session } = fakeSession("bash");
  session.seed(history, "prompt", { cursorRow: 3, cursorCol: 13, alternateScreen: false }, true);
  session.adoptRun({ command: "make test", startedAt: 1, endedAt: 2, exitCode: 2 });
  assert.equal(session.running, undefined);
  assert.equal(session.lastExitCode, 2);
  const done = await completedSince(session, session.transcript.start, { idleMs: 60_000, promptQuietMs: 5 })();
  assert.deepEqual(done, { exitCode: 2 });
  // A client that has read past it waits for the next command.
  assert.equal(await completedSince(session, session.transcript.end, { idleMs: 60_000, promptQuietMs: 5 })(), undefined);
});

test("the next run in an adopted session is not taken for the adopted, ended one (even at an empty prompt line)", async () => {
  const { session, print } = fakeSession("bash");
  session.seed("$ true\n", "prompt", { cursorRow: 1, cursorCol: 0, alternateScreen: false }, true);
  session.adoptRun({ command: "true", startedAt: 1, endedAt: 2, exitCode: 0 });
  const start = session.transcript.end;
  const done = awaitCompletion(session, { mode: "shell", startOffset: start, timeoutMs: 5_000 }, { promptQuietMs: 5, idleQuietMs: 60 });
  print("false\r\n" + osc.output + osc.end(1) + osc.prompt);
  const c = await done;
  assert.equal(c.reason, "osc133");
  assert.equal(c.exitCode, 1);
});

test("an ended run is not recorded when the shell is not at its prompt (a later command runs, its start unrecorded)", async () => {
  const { session } = fakeSession("bash");
  session.seed(history, "running", { cursorRow: 3, cursorCol: 13, alternateScreen: false }, true);
  session.adoptRun({ command: "make test", startedAt: 1, endedAt: 2, exitCode: 2 });
  assert.equal(session.lastExitCode, 2);
  assert.equal(await completedSince(session, session.transcript.start, { idleMs: 60_000, promptQuietMs: 5 })(), undefined);
});
