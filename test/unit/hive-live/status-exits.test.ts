// The status tracker's exit job on a fake session: the program's exit or the pane's end marks
// its agents exited, announces each once, and redraws the border only while the pane is there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ExitWatch } from "../../../src/hive/live/status-exits.js";
import { fakeSession } from "../terminal/fake-session.js";
import { openHive } from "../hive/helpers.js";
import { fakeStatusPort } from "./fake-status-port.js";

function watching(t: { after(fn: () => void): void }) {
  const { hive, done } = openHive();
  t.after(done);
  const fake = fakeSession("bash");
  hive.registerAgent({ name: "a", sessionId: fake.session.id });
  hive.registerAgent({ name: "b", sessionId: fake.session.id });
  const port = fakeStatusPort(hive);
  const exits = new ExitWatch(port);
  fake.session.onExited(({ status }) => exits.exited(fake.session, status, undefined));
  fake.session.onClosed((reason) => exits.exited(fake.session, fake.session.exitStatus, reason));
  return { hive, port, ...fake };
}

test("exits: the program's exit marks every agent of the pane exited with its code, then the border shows it", (t) => {
  const { hive, port, session } = watching(t);
  session.markExited(3, null);
  assert.deepEqual(port.log, ["announce a exited", "announce b exited", `title ${session.id}`]);
  assert.equal(hive.agents.get("a").exitCode, 3);
  assert.equal(hive.agents.get("b").status, "exited");
});

test("exits: a pane that is gone is announced with its reason, and no border is drawn on it", (t) => {
  const { hive, port, session } = watching(t);
  session.markGone("pane was killed");
  assert.deepEqual(port.log, ["announce a exited", "announce b exited"]);
  assert.match(hive.agents.get("a").statusDetail ?? "", /pane was killed/);
});

test("exits: a second end of the same pane changes nothing and announces nothing", (t) => {
  const { port, session } = watching(t);
  session.markExited(0, null);
  const first = port.log.length;
  session.markGone("closed after the exit");
  assert.equal(port.log.length, first);
});

test("exits: a store that cannot be written is no throw (the next sync marks the agents)", (t) => {
  const { hive, port, session } = watching(t);
  hive.close();
  assert.doesNotThrow(() => session.markExited(1, null));
  assert.deepEqual(port.log, []);
});
