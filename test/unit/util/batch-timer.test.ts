// BatchTimer: one run per burst, after the turn when quiet, spaced during a flood.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BatchTimer } from "../../../src/util/batch-timer.js";

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("schedules within one turn run once, after that turn", async () => {
  let runs = 0;
  const batch = new BatchTimer(() => runs++, 50);
  batch.schedule();
  batch.schedule();
  assert.equal(runs, 0, "not in the turn that scheduled it");
  await turn();
  assert.equal(runs, 1);
});

test("a schedule right after a run waits out the spacing; flush runs at once; cancel forgets", async () => {
  const at: number[] = [];
  const batch = new BatchTimer(() => at.push(performance.now()), 40);
  batch.schedule();
  await turn();
  batch.schedule();
  await turn();
  assert.equal(at.length, 1, "the second run waits for the spacing");
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(at.length, 2);
  // Node's timers count from the event loop's cached clock, which can run a few ms early; an
  // unspaced second run would come after ~1 ms.
  assert.ok(at[1]! - at[0]! >= 30, `runs ${at[1]! - at[0]!} ms apart`);

  batch.schedule();
  batch.flush();
  assert.equal(at.length, 3, "flush runs what was pending now");
  batch.flush();
  assert.equal(at.length, 3, "flush with nothing pending does nothing");

  batch.schedule();
  batch.cancel();
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(at.length, 3, "a cancelled run never comes");
});
