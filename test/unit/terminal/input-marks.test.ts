// Where a wait for a pattern looks from: the last input sent to the session, wherever from.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Backend } from "../../../src/backends/backend.js";
import { InputMarks } from "../../../src/terminal/session/input-marks.js";

function marks(shared = new Map<string, string>()): InputMarks {
  const backend = {
    shared: {
      readShared: async (_pane: string, key: string) => shared.get(key) ?? "",
      writeShared: async (_pane: string, key: string, value: string) => void shared.set(key, value),
    },
  } as unknown as Backend;
  return new InputMarks(() => ({ backend, paneId: "p" }));
}

test("input sent here: output from where it went in", async () => {
  const m = marks();
  m.output(0, 100);
  m.sent(50, 200);
  m.output(60, 300);
  assert.deepEqual(await m.lookFrom(() => 99), { from: 50, since: "input" });
});

test("input sent later by another process: the first chunk that came after it", async () => {
  const shared = new Map<string, string>();
  const here = marks(shared);
  here.sent(10, 100);
  here.output(20, 150);
  here.output(40, 260);
  here.output(70, 400);
  shared.set("input-at", "250");
  assert.deepEqual(await here.lookFrom(() => 99), { from: 40, since: "input" });
  // No output since it: from the end.
  shared.set("input-at", "500");
  assert.deepEqual(await here.lookFrom(() => 99), { from: 99, since: "input" });
});

test("input sent before this process saw any of the output: from the wait's start", async () => {
  const shared = new Map([["input-at", "50"]]);
  const m = marks(shared);
  m.output(500, 100);
  assert.deepEqual(await m.lookFrom(() => 900), { from: 900, since: "start" });
  assert.deepEqual(await marks(new Map([["input-at", "50"]])).lookFrom(() => 7), { from: 7, since: "start" });
});

test("nothing ever sent: all output is the program's own", async () => {
  const m = marks();
  m.output(0, 100);
  assert.equal((await m.lookFrom(() => 900)).since, "open");
});
