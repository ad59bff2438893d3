// The outbox survives a crash, and messages go out as fast as their agents take them (issue 30
// §6, issue 31 §5). Judged by what the programs received: the fake assistant's own log, the
// shell's own output, and the status events' times (the hold a typed message puts on the
// screen is SELF_HOLD_MS: a quick command must not wait it out).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { until } from "../until.js";
import { Harness } from "./harness.js";
import { type HiveEvent, logHas, logLines } from "./fake-agent-log.js";

const FAKE = resolve("test/fixtures/fake-agent.mjs");
// Bounds, for a loaded 2-core machine (load 5–20 from other work) with honest margins:
/** hive_message then hive_wait idle for `echo`: the README's 1.5 s grace plus 0.5 s for load
 * (measured ~0.3 s; the typed hold made it 5.05 s). */
const QUICK_IDLE_MS = 2000;
/** 20 queued to one shell: turn 3 ran 20 in 3.3 s (165 ms each), the typed hold made it one per
 * 5 s (100 s); measured 8.5 s at load 20 with a build alongside (~420 ms each). 15 s is 750 ms a
 * message: 1.8× that, and a seventh of one hold per message. */
const PACED = 20;
const PACED_MS = 15_000;
/** No one message waits near a hold for the one before it. */
const PACED_GAP_MS = 1500;

describe("hive pace", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  const sibling = (): Promise<Harness> => h.sibling();

  // Two moments: just as the program took a message (its delivery not recorded yet), and just
  // as a turn ended (the next message being claimed and typed).
  for (const [n, killAfter] of [[1, (t: string[]) => `accepted: ${t[2]}`], [2, (t: string[]) => `done: ${t[4]}`]] as const) {
    test(`kill -9 of the server while it types queued messages (${killAfter(["", "", "3rd", "", "5th"])}): a new process delivers every one, once, in order`, async () => {
      const first = await sibling();
      const name = `crashy${n}`;
      const log = join(h.home, `${name}.log`);
      assert.equal((await first.ok("agent_spawn", { name, command: `${process.execPath} ${FAKE} ${log} 600`, profile: "claude" })).ready, "ready");
      await logHas(log, "ready");
      assert.equal((await first.ok("hive_wait", { targets: name, for: "idle", timeout_s: 20 })).matched, true);
      const texts = Array.from({ length: 10 }, (_, i) => `queued message ${String(i + 1).padStart(2, "0")}`);
      for (const text of texts) await first.ok("hive_message", { agents: { [name]: text } });
      await logHas(log, killAfter(texts), 60_000);
      process.kill(first.pid, "SIGKILL");
      await first.close();

      const next = await sibling();
      try {
        await next.ok("agent_list", {}); // adopts the pane and its queue
        await logHas(log, `done: ${texts[9]}`, 60_000);
        const accepted = logLines(log).filter((l) => l.startsWith("accepted: ") || l.startsWith("ignored: "));
        assert.deepEqual(accepted, texts.map((t) => `accepted: ${t}`), "each message once, in order, none dropped by a busy program");
        assert.deepEqual((await next.ok("hive_queue", {})).queued, []);
      } finally {
        await next.close();
      }
    });
  }

  test(`a quick command to a shell agent: idle within ${QUICK_IDLE_MS} ms, not after the typed message's hold`, async () => {
    await h.ok("agent_spawn", { name: "quick", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "quick", for: "idle", timeout_s: 20 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor as number;
    const mark = join(h.home, "quick.mark");
    const started = Date.now();
    await h.ok("hive_message", { agents: { quick: `echo quick > '${mark}'` } });
    const w = await h.ok("hive_wait", { targets: "quick", for: "idle", timeout_s: 20 });
    const wall = Date.now() - started;
    assert.equal(w.matched, true, JSON.stringify(w));
    assert.equal(readFileSync(mark, "utf8"), "quick\n", "the shell ran it");
    const events = (await h.ok("hive_events", { since: cursor, targets: "quick", kinds: ["status"], limit: 100 })).events as HiveEvent[];
    const typed = events.find((e) => e.data.source === "typed");
    const idle = events.find((e) => typed && e.id > typed.id && e.data.status === "idle");
    assert.ok(typed && idle, JSON.stringify(events.map((e) => e.data)));
    assert.ok(idle.at - typed.at < QUICK_IDLE_MS, `idle came ${idle.at - typed.at} ms after the message was taken`);
    assert.ok(wall < QUICK_IDLE_MS, `hive_message then hive_wait took ${wall} ms (hive_wait itself ${w.elapsed_ms} ms)`);
  });

  test(`${PACED} messages queued to a shell agent go out as it takes them: all run within ${PACED_MS / 1000} s of the first`, async () => {
    await h.ok("agent_spawn", { name: "paced", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "paced", for: "idle", timeout_s: 20 })).matched, true);
    const out = join(h.home, "paced.out");
    // The shell stamps each line with its own clock: the pace is what the shell saw.
    await h.ok("hive_message", { agents: { paced: `sleep 1; echo go $EPOCHREALTIME >> '${out}'` } });
    for (let i = 1; i <= PACED; i++) assert.equal((await h.ok("hive_message", { agents: { paced: `echo line-${i} $EPOCHREALTIME >> '${out}'` } })).queued, 1);
    await until(`the shell's line ${PACED}`, () => (linesOf(out).length > PACED ? true : undefined), 120_000);
    const lines = linesOf(out);
    assert.deepEqual(lines.map((l) => l.split(" ")[0]), ["go", ...Array.from({ length: PACED }, (_, i) => `line-${i + 1}`)], "each once, in order");
    const at = lines.map((l) => Number(l.split(" ")[1]) * 1000);
    const gaps = at.slice(1).map((t, i) => Math.round(t - at[i]!));
    const total = Math.round(at[PACED]! - at[0]!);
    assert.ok(total < PACED_MS, `${PACED} queued messages took ${total} ms after the one before them ended (bound ${PACED_MS}); gaps ${gaps.join(", ")}`);
    assert.ok(Math.max(...gaps) < PACED_GAP_MS, `one message waited ${Math.max(...gaps)} ms for the one before (bound ${PACED_GAP_MS}); gaps ${gaps.join(", ")}`);
  });
});

function linesOf(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l !== "") : [];
}
