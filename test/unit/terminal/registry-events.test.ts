// The registry's session events on a real bash in a real pty (the node-pty backend: no tmux
// server to share with other tests), from open to close.
import { test } from "node:test";
import assert from "node:assert/strict";
import { waitUntilReady } from "../../../src/terminal/waits/ready.js";
import type { SessionOutputEvent } from "../../../src/terminal/live/registry.js";
import { typeText } from "../../../src/terminal/typing/typing.js";
import { ptyRegistry, until } from "./pty-registry.js";

test("a session's life as the registry's typed events: opened, output, screen, command started/finished, exited, closed", async (t) => {
  const registry = ptyRegistry(t);

  const log: string[] = [];
  const outputs: SessionOutputEvent[] = [];
  /** For each output event: did the session's transcript already hold its bytes when it fired? */
  const ingestedFirst: boolean[] = [];
  const finished: { exitCode: number | null; reason: string; command: string }[] = [];
  let screens = 0;
  const subscriptions = [
    registry.onOpened(({ session }) => log.push(`opened ${session.name}`)),
    registry.onOutput((event) => {
      outputs.push(event);
      ingestedFirst.push(event.session.transcript.slice(event.session.transcript.start).text.endsWith(event.data.toString("utf8")));
    }),
    registry.onScreenChanged(() => screens++),
    registry.onCommandStarted(({ record }) => log.push(`started ${record.command}`)),
    registry.onCommandFinished(({ record, exitCode, reason }) => {
      finished.push({ exitCode, reason, command: record.command });
      log.push(`finished ${exitCode}`);
    }),
    registry.onExited(({ status }) => log.push(`exited ${status}`)),
    registry.onClosed(({ reason }) => log.push(`closed: ${reason}`)),
  ];
  t.after(() => subscriptions.forEach((s) => s.dispose()));

  const session = await registry.open({ name: "ev", rows: 24, cols: 80 });
  assert.deepEqual(log, ["opened ev"], "opened is announced as the session joins, before any command");
  assert.equal(await waitUntilReady(session, { timeoutMs: 10_000, quietMs: 150 }), "ready");
  assert.ok(outputs.length > 0 && outputs.every((o) => o.session === session));
  await until("the screen model to report its first parse", () => screens > 0);

  await typeText(session, "sh -c 'exit 3'", true);
  await until("the command to finish", () => finished.length === 1);
  assert.deepEqual(finished[0], { exitCode: 3, reason: "osc133", command: "sh -c 'exit 3'" });
  assert.equal(session.lastExitCode, 3);

  // A disposed subscription hears nothing more; the others go on.
  const heardAfterDispose: string[] = [];
  registry.onCommandStarted(({ record }) => heardAfterDispose.push(record.command)).dispose();
  await typeText(session, "exit 5", true);
  await until("the shell to exit", () => log.includes("exited 5"));
  assert.deepEqual(heardAfterDispose, []);
  assert.equal(session.alive, false);
  assert.equal(session.exitStatus, 5);

  await registry.close(session);
  assert.equal(log.at(-1), "closed: closed");
  assert.deepEqual(
    log.filter((line) => !line.startsWith("started exit") && !line.startsWith("finished null")),
    // `exit 5` is a command line too: the shell's exit hook reports its end (D;5) before the pane's exit.
    ["opened ev", "started sh -c 'exit 3'", "finished 3", "finished 5", "exited 5", "closed: closed"],
  );
  // Every subscriber saw the bytes only once the session had taken them in.
  assert.ok(ingestedFirst.every(Boolean), "an output event fired before the session ingested its bytes");
  assert.equal(registry.all().length, 0);
});
