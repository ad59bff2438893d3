// Each integrated shell keeps "<pid> <count> <status>" in $TERMHIVE_HOME/shell/status.<session>,
// rewritten at every command's end: how a termhive process that was not watching learns that a
// command ended, and its exit status (src/terminal/live/run-state.ts).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ShellSession, shellPath, SHELLS } from "./helpers.js";
import { resolveRun } from "../../../src/terminal/live/run-state.js";
import { tempFolder } from "../../temp-folder.js";

const only = process.env.TERMHIVE_TEST_SHELLS?.split(",");

describe("shell status file", () => {
  for (const kind of SHELLS) {
    const skip = !shellPath(kind) ? `${kind} not installed` : only && !only.includes(kind) ? "filtered out" : false;
    it(`${kind}: written at start, then at each command's end with its status`, { skip }, async () => {
      const home = tempFolder("termhive-status-");
      mkdirSync(join(home, "shell"));
      const file = join(home, "shell", "status.th-test");
      const s = await ShellSession.start(kind, { env: { TERMHIVE_HOME: home, TERMHIVE_SESSION: "th-test" } });
      try {
        const atStart = readFileSync(file, "utf8").trim();
        assert.match(atStart, /^\d+ 0 -$/);
        const pid = atStart.split(" ")[0];
        const running = { command: "false", startedAt: Date.now(), status: atStart };
        // Nothing ran yet: the record of a running command stays running.
        assert.equal(resolveRun(running, atStart)?.endedAt, undefined);
        await s.run("false");
        const afterFalse = readFileSync(file, "utf8").trim();
        assert.equal(afterFalse, `${pid} 1 1`);
        const ended = resolveRun(running, afterFalse);
        assert.equal(ended?.exitCode, 1);
        assert.equal(typeof ended?.endedAt, "number");
        await s.run("true");
        assert.equal(readFileSync(file, "utf8").trim(), `${pid} 2 0`);
        // A nested shell's line (another pid) says nothing about the outer command.
        assert.equal(resolveRun({ ...running, status: afterFalse }, `${Number(pid) + 1} 1 0`)?.endedAt, undefined);
      } finally {
        await s.close();
      }
    });
  }
});
