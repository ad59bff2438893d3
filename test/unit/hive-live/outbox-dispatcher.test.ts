// The outbox dispatcher on the node-pty backend: a queued message is typed once its agent is
// idle, and the screen is judged (the profile's regexes over the whole screen) before the
// claim's write transaction, so no other process on the same hive.db waits on that pass.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildLayout } from "../../../src/hive/launch/layout-builder.js";
import type { TerminalSession } from "../../../src/terminal/session/session.js";
import { stripAnsi } from "../../../src/util/ansi.js";
import { until } from "../terminal/pty-registry.js";
import { crewOnPty } from "./crew-on-pty.js";
import { openHive } from "../hive/helpers.js";
import { OutboxDispatcher } from "../../../src/hive/messages/outbox-dispatcher.js";
import { Emitter } from "../../../src/util/event.js";
import type { AgentRecord } from "../../../src/hive/index.js";

const output = (session: TerminalSession) => stripAnsi(session.transcript.slice(session.transcript.start).text);

test("a queued message is typed once its agent is idle, and its screen is never read while the write lock is held", async (t) => {
  const { crew } = crewOnPty(t);
  const layout = await buildLayout(crew, { panes: [{ name: "q", agent: "q" }] });
  const session = crew.registry.byId(layout.panes[0]!.session)!;
  await until("q is idle", () => crew.hive.agents.get("q").status === "idle");
  // Watch every read of the pane's screen: was this process inside a SQLite transaction then?
  const screen = session.screen;
  const snapshot = screen.snapshot.bind(screen);
  const printedLines = screen.printedLines.bind(screen);
  const reads: boolean[] = [];
  screen.snapshot = () => {
    reads.push(crew.hive.store.db.inTransaction);
    return snapshot();
  };
  // What profile rules read: the screen without the echo of input.
  screen.printedLines = () => {
    reads.push(crew.hive.store.db.inTransaction);
    return printedLines();
  };
  t.after(() => {
    screen.snapshot = snapshot;
    screen.printedLines = printedLines;
  });
  crew.hive.outbox.add({ sessionId: session.id, agents: ["q"], text: "echo queued-$((40+2))", level: "agent", source: "agent:q", submit: true });
  await until("the queued text ran", () => output(session).includes("queued-42"));
  assert.deepEqual(crew.hive.outbox.list("q"), [], "delivered: gone from the queue");
  assert.ok(reads.length > 0, "the screen was judged before typing");
  assert.equal(reads.filter((inside) => inside).length, 0, `screen reads inside a transaction: ${reads.filter((x) => x).length} of ${reads.length}`);
});

/** A queue for agent "far", whose pane (on a host that is down) this process does not have; `resyncs` counts the dispatcher's asks. */
function queueForUnreachable(t: { after(fn: () => unknown): void }) {
  const { hive, done } = openHive();
  hive.registerAgent({ name: "far", sessionId: "th-far", sessionName: "far", profile: "shell", team: null });
  hive.outbox.add({ sessionId: "th-far", agents: ["far"], text: "hello", level: "agent", source: "agent:far", submit: true });
  const counted = { resyncs: 0 };
  const registry = { byId: () => undefined } as unknown as ConstructorParameters<typeof OutboxDispatcher>[1];
  const dispatcher = new OutboxDispatcher(hive, registry, new Emitter<AgentRecord>().event, async () => assert.fail("nothing to type into"), () => {}, async () => void counted.resyncs++);
  t.after(() => {
    dispatcher.dispose();
    done();
  });
  return { hive, dispatcher, counted };
}

test("a queue waiting for a pane this process does not have asks for a resync, at most every 2 s", (t) => {
  const { hive, dispatcher, counted } = queueForUnreachable(t);
  dispatcher.sweep();
  dispatcher.sweep();
  assert.equal(counted.resyncs, 1, "the second sweep, right after, does not ask again");
  assert.equal(hive.outbox.list("far").length, 1, "still queued: nothing was typed");
});

test("a queue whose agent has exited asks for no resync", (t) => {
  const { hive, dispatcher, counted } = queueForUnreachable(t);
  hive.agents.markSessionExited("th-far", { reason: "its pane was closed" });
  dispatcher.sweep();
  assert.equal(counted.resyncs, 0);
});
