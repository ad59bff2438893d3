// The status line a command's run record keeps as "before it" (run-state.ts publishRuns): a
// process that adopts the pane after a kill -9 tells that the command ended by the shell's line
// having moved on since. readline redraws the whole prompt, OSC 133 marks included, as it takes
// a pasted line, just before that line's start (C); handled late, that redraw was read after
// the quick command had already ended in the shell, and the ended command was adopted as
// running (hive-trial: the agent then held its 5 s typed hold). Played here with the bytes bash
// prints and the status file it writes, in the order the shell does them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Backend } from "../../../src/backends/backend.js";
import { RUN_KEY, decodeRun, publishRuns, resolveRun } from "../../../src/terminal/live/run-state.js";
import { statusFilePath } from "../../../src/terminal/live/status-file.js";
import { tempFolder } from "../../temp-folder.js";
import { fakeSession, osc } from "./fake-session.js";

function published() {
  const home = tempFolder("termhive-run-start-");
  mkdirSync(join(home, "shell"));
  const fake = fakeSession("bash");
  const shared = new Map<string, string>();
  const backend = { shared: { writeShared: async (_pane: string, key: string, value: string) => void shared.set(key, value) } } as unknown as Backend;
  const status = (line: string) => writeFileSync(statusFilePath(home, fake.session.id), line + "\n");
  status("4242 0 -"); // bash writes it as its integration loads, before the first prompt
  publishRuns(fake.session, backend, home);
  const record = () => decodeRun(shared.get(RUN_KEY) ?? "");
  return { ...fake, status, record };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test("a prompt redrawn with the pasted line's start, handled after the command ended in the shell: the record keeps the line from before it, and an adopter sees the end", async () => {
  const { print, status, record } = published();
  print(osc.prompt);
  // The line is pasted; Enter; the shell redraws its prompt, starts the command, runs it (a quick
  // echo) and rewrites its status line — all before this process handles the redraw and the C.
  status("4242 1 0");
  print(`${osc.promptStart}$ ${osc.input}echo hi\r\n${osc.output}`);
  await settle();
  const started = record();
  assert.equal(started?.endedAt, undefined, "the start is recorded");
  assert.equal(started?.status, "4242 0 -", "the line from before the command");
  // Killed before its D was handled: the next process reads this record and the line now.
  assert.notEqual(resolveRun(started, "4242 1 0")?.endedAt, undefined, "an adopter takes the command as ended");
});

test("the same with the status file caught mid-rewrite (empty): the record keeps the line from before it", async () => {
  const { print, status, record } = published();
  print(osc.prompt);
  status(""); // `>|` has emptied the file and not written it yet
  print(`${osc.promptStart}$ ${osc.input}echo hi\r\n${osc.output}`);
  await settle();
  assert.equal(record()?.status, "4242 0 -");
});

test("the first prompt after each end is read: the next command's record keeps the line its predecessor's end wrote", async () => {
  const { print, status, record } = published();
  print(osc.prompt + "true\r\n" + osc.output);
  status("4242 1 0");
  print(osc.end(0) + osc.prompt);
  // Redrawn again before the next line starts: still the same prompt, still the same line.
  print(osc.prompt + "false\r\n" + osc.output);
  await settle();
  assert.equal(record()?.status, "4242 1 0");
  assert.equal(record()?.command, "false");
});
