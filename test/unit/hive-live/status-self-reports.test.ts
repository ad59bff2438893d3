// The status tracker's self-report job on a fake session: what the pane's program prints as
// OSC 1337;Custom=id=termhive:… becomes its agent's status; anything else is ignored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeStatusOsc } from "../../../src/hive/index.js";
import { SelfReports } from "../../../src/hive/live/status-self-reports.js";
import { fakeSession } from "../terminal/fake-session.js";
import { openHive } from "../hive/helpers.js";
import { fakeStatusPort } from "./fake-status-port.js";

function reporting(t: { after(fn: () => void): void }) {
  const { hive, done } = openHive();
  t.after(done);
  const fake = fakeSession("bash");
  hive.registerAgent({ name: "w", sessionId: fake.session.id });
  const port = fakeStatusPort(hive);
  const reports = new SelfReports(port);
  fake.session.onCustom(({ id, payload }) => reports.reported(fake.session, id, payload));
  return { hive, port, ...fake };
}

test("self reports: the pane's own OSC report is recorded as its agent's status, source self", (t) => {
  const { hive, port, print } = reporting(t);
  print(`tests…${encodeStatusOsc({ status: "working", detail: "running the suite" })}done\r\n`);
  assert.deepEqual(port.log, ["record w working"]);
  const w = hive.agents.get("w");
  assert.equal(w.status, "working");
  assert.equal(w.statusDetail, "running the suite");
  assert.equal(w.statusSource, "self");
});

test("self reports: a report naming the pane's other agent is that agent's", (t) => {
  const { hive, port, print, session } = reporting(t);
  hive.registerAgent({ name: "v", sessionId: session.id });
  print(encodeStatusOsc({ status: "error", detail: "boom", agent: "v" }));
  assert.deepEqual(port.log, ["record v error"]);
  assert.equal(hive.agents.get("w").status, "starting");
});

test("self reports: another program's OSC 1337, a malformed report or an agent not in this pane change nothing", (t) => {
  const { hive, port, print } = reporting(t);
  print("\x1b]1337;Custom=id=other:status=idle\x07");
  print("\x1b]1337;Custom=id=termhive:detail=no-status\x07");
  print(encodeStatusOsc({ status: "idle", detail: "", agent: "elsewhere" }));
  print("still printing\r\n");
  assert.deepEqual(port.log, []);
  assert.equal(hive.agents.get("w").status, "starting");
});
