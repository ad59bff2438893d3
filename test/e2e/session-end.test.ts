// A run whose command ends the session says so, with how it ended: the shell's own `exit`, an
// `exec` into a program that ends, a killed shell — in bash, zsh and fish.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { Harness } from "./harness.js";

function hasProgram(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).status === 0;
}

describe("session end in a run's result", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  const cases: { shell: string; command: string; end: { exit_status: number | null; signal: number | null } }[] = [];
  for (const shell of ["bash", "zsh", "fish"]) {
    cases.push({ shell, command: "echo bye; exit 3", end: { exit_status: 3, signal: null } });
    cases.push({ shell, command: "exec sh -c 'exit 5'", end: { exit_status: 5, signal: null } });
    cases.push({ shell, command: shell === "fish" ? "kill -9 $fish_pid" : "kill -9 $$", end: { exit_status: null, signal: 9 } });
  }
  let n = 0;
  for (const c of cases) {
    test(`${c.shell}: ${c.command}`, async (t) => {
      if (!hasProgram(c.shell)) return t.skip(`${c.shell} is not installed`);
      const name = `end-${n++}`;
      await h.ok("terminal_open", { name, command: c.shell });
      const alive = await h.ok("terminal_run", { session: name, command: "echo still-here" });
      assert.equal(alive.session_ended, undefined);
      const r = await h.call("terminal_run", { session: name, command: c.command, timeout_s: 20 });
      assert.equal(r.isError, false, r.text);
      assert.deepEqual(r.data.session_ended, c.end, JSON.stringify(r.data));
      assert.match(r.data.hint, /the session ended: its program (exited with status|was killed by signal)/);
      assert.match(r.text, /session ended \((exit \d+|signal 9)\)/);
      const next = await h.call("terminal_run", { session: name, command: "echo again" });
      assert.equal(next.isError, true);
    });
  }
});

// As a client with a bare environment meets it: the end is told about as fast as the shell
// ends (tmux may not fire its pane-died hook until it next reaps a child: termhive asks), and
// terminal_list names the program that ran and how it ended, not the launcher tmux names.
describe("session end: at once, and listed by what ran", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  const cases = [
    ...["exit 3", "exit 3", "exit 3", "echo bye; exit 3"].map((command) => ({ command, code: 3, signal: null as number | null })),
    { command: "exec sh -c 'exit 5'", code: 5, signal: null },
    { command: "kill -9 $$", code: null, signal: 9 },
  ];
  let n = 0;
  for (const c of cases) {
    test(`bash: ${c.command} ends the run at once`, async () => {
      const name = `fast-${n++}`;
      await h.ok("terminal_open", { name, command: "bash" });
      await h.ok("terminal_run", { session: name, command: "echo ready" });
      const r = await h.call("terminal_run", { session: name, command: c.command, timeout_s: 20 });
      assert.equal(r.isError, false, r.text);
      assert.deepEqual(r.data.session_ended, { exit_status: c.code, signal: c.signal }, JSON.stringify(r.data));
      // Told by the run itself, which has released the session: the next call is refused at once
      // as ended (not "busy"), and the listing says so without waiting. How fast: `npm run bench open`
      // ("run that ends the shell"; before: `exit 3` waited 5 s one run in four, exec and kill 1 s).
      const again = await h.call("terminal_run", { session: name, command: "echo again" });
      assert.equal(again.isError, true, again.text);
      assert.doesNotMatch(again.text, /busy/, again.text);
      const listed = await h.call("terminal_list");
      const row = listed.data.sessions.find((s: { name: string }) => s.name === name);
      assert.equal(row.alive, false);
      assert.equal(row.foreground, "bash", JSON.stringify(row));
      assert.equal(row.exit_code, c.code);
      assert.equal(row.exit_signal, c.signal);
      const how = c.signal !== null ? `killed by signal ${c.signal}` : `exited with status ${c.code}`;
      assert.match(listed.text, new RegExp(`^${name} \\(th-[0-9a-f]+, pane %\\d+\\) ended · bash ${how}`, "m"), listed.text);
    });
  }
});
