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
