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
