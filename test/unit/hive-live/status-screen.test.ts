// The status tracker's screen job on a fake session: a screen change is judged once its burst
// settles and again as each quiet threshold of the profile passes; a marked prompt is idle at
// once; a question still being drawn waits until it is still; a held status keeps the screen off.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ScreenDetection } from "../../../src/hive/live/status-screen.js";
import { fakeSession, osc } from "../terminal/fake-session.js";
import { until } from "../terminal/pty-registry.js";
import { openHive } from "../hive/helpers.js";
import { fakeStatusPort } from "./fake-status-port.js";

function judging(t: { after(fn: () => void): void }, options: { agent?: boolean; ready?: boolean } = {}) {
  const { hive, done } = openHive();
  const fake = fakeSession("bash");
  if (options.agent !== false) hive.registerAgent({ name: "w", sessionId: fake.session.id });
  const port = fakeStatusPort(hive);
  let scheduled = 0;
  const screen = new ScreenDetection(port, () => void scheduled++);
  const entry = screen.entry(fake.session, { ready: options.ready });
  const wiring = fake.session.onScreenChanged(() => screen.schedule(entry));
  t.after(() => {
    wiring.dispose();
    screen.forget(entry);
    done();
  });
  /** Prints, and returns once the screen has changed (and the job has scheduled its judgement). */
  const shown = (text: string) => new Promise<void>((resolve) => {
    const once = fake.session.onScreenChanged(() => {
      once.dispose();
      resolve();
    });
    fake.print(text);
  });
  return { hive, port, screen, entry, scheduled: () => scheduled, shown, ...fake };
}

test("screen: a shell that marks its prompt (OSC 133) is idle at once, not after the prompt rule's quiet", async (t) => {
  const { hive, port, screen, entry, print, session } = judging(t);
  print(osc.prompt);
  await session.screen.settled();
  screen.evaluate(entry);
  assert.equal(port.log[0], "record w idle");
  assert.equal(hive.agents.get("w").statusDetail, "shell prompt");
  assert.equal(hive.agents.get("w").statusSource, "profile");
});

test("screen: a change is judged by the timers once the quiet threshold of the profile's rule passes", async (t) => {
  const { hive, port, entry, shown, scheduled } = judging(t);
  await shown("$ ");
  assert.ok(entry.timers.length > 1, "the debounce and the profile's thresholds are timers");
  assert.equal(scheduled(), 1, "a session with agents starts the follower");
  await until("the prompt rule's idle", () => hive.agents.get("w").status === "idle", 5_000);
  assert.equal(port.log.at(-1), "record w idle");
});

test("screen: a session with no agent is not judged, and starts nothing", async (t) => {
  const { port, entry, shown, scheduled } = judging(t, { agent: false });
  await shown("$ ");
  assert.equal(entry.timers.length, 0);
  assert.equal(scheduled(), 0);
  assert.deepEqual(port.log, []);
});

test("screen: a question still being drawn is announced once it has been still long enough", async (t) => {
  const { hive, port, screen, entry, print, session } = judging(t, { ready: true });
  print("Overwrite the file? [y/N] ");
  await session.screen.settled();
  screen.evaluate(entry);
  assert.deepEqual(port.log, [], "not while it may still be drawn");
  await until("the settled question", () => hive.agents.get("w").status === "waiting_for_input", 5_000);
  assert.equal(port.log.at(-1), "record w waiting_for_input");
});

test("screen: an agent's own report holds the screen off, and the screen is judged again when the hold ends", async (t) => {
  const { hive, port, screen, entry, print, session } = judging(t);
  hive.applySelfStatus("w", { status: "working", detail: "my own words" });
  print(osc.prompt);
  await session.screen.settled();
  screen.evaluate(entry);
  assert.deepEqual(port.log, []);
  assert.equal(hive.agents.get("w").statusDetail, "my own words");
  assert.ok(entry.holdRecheck, "a re-check is due when the hold ends");
});

test("screen: a forgotten session's pending judgement never comes", async (t) => {
  const { port, screen, entry, shown } = judging(t);
  await shown("$ ");
  assert.ok(entry.timers.length > 0, "a judgement is pending");
  screen.forget(entry);
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.deepEqual(port.log, []);
});
