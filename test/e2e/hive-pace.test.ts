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
/** src/hive/precedence.ts */
const SELF_HOLD_MS = 5000;

describe("hive pace", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  const sibling = async (): Promise<Harness> => {
    const other = new Harness(h.home, h.env);
    other.bare = true;
    other.cwd = h.cwd;
    await other.connect();
    return other;
  };

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

  test("kill -9 after Enter was pressed for a queued message, before the program acted on it: typed once, not again", async () => {
    const first = await sibling();
    const log = join(h.home, "lagged.log");
    // Enter is acted on 1.5 s after it arrives: the window between termhive pressing it and the program taking the text.
    const r = await first.ok("agent_spawn", { name: "lagged", command: `${process.execPath} ${FAKE} ${log} 300`, profile: "claude", env: { FAKE_AGENT_ENTER_LAG_MS: "1500" } });
    assert.equal(r.ready, "ready");
    await logHas(log, "ready");
    assert.equal((await first.ok("hive_wait", { targets: "lagged", for: "idle", timeout_s: 20 })).matched, true);
    const texts = ["lagged message one", "lagged message two", "lagged message three"];
    for (const text of texts) await first.ok("hive_message", { agents: { lagged: text } });
    await logHas(log, `done: ${texts[0]}`, 30_000);
    // The second message shows on the input line; Enter follows within a few hundred ms, and the
    // program acts on it 1.5 s later: the kill lands after the Enter (or, on a slow machine,
    // before it: then the text is on the line unsubmitted, and must be submitted, not retyped).
    await until("the second message on the input line", async () => (/> lagged message two/.test(String((await first.ok("terminal_read", { session: "lagged", mode: "screen" })).output)) ? true : undefined), 30_000, 20);
    await new Promise((done) => setTimeout(done, 700));
    process.kill(first.pid, "SIGKILL");
    await first.close();
    // The next process comes once the program took the text (no longer on its input line): it
    // must know from the queue that Enter was pressed, and not type the text again. (Killed
    // before the Enter, the program never takes it: then the text waits on the line, to be submitted.)
    await logHas(log, `accepted: ${texts[1]}`, 4000).catch(() => undefined);

    const next = await sibling();
    try {
      await next.ok("agent_list", {});
      await logHas(log, `done: ${texts[2]}`, 60_000);
      const accepted = logLines(log).filter((l) => l.startsWith("accepted: ") || l.startsWith("ignored: "));
      assert.deepEqual(accepted, texts.map((t) => `accepted: ${t}`), "each message once");
    } finally {
      await next.close();
    }
  });

  test("a quick command to a shell agent: idle when its prompt is back, not after the typed message's hold", async () => {
    await h.ok("agent_spawn", { name: "quick", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "quick", for: "idle", timeout_s: 20 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor as number;
    const mark = join(h.home, "quick.mark");
    await h.ok("hive_message", { agents: { quick: `echo quick > '${mark}'` } });
    const w = await h.ok("hive_wait", { targets: "quick", for: "idle", timeout_s: 20 });
    assert.equal(w.matched, true, JSON.stringify(w));
    const events = (await h.ok("hive_events", { since: cursor, targets: "quick", kinds: ["status"], limit: 100 })).events as HiveEvent[];
    const typed = events.find((e) => e.data.source === "typed");
    const idle = events.find((e) => typed && e.id > typed.id && e.data.status === "idle");
    assert.ok(typed && idle, JSON.stringify(events.map((e) => e.data)));
    assert.ok(idle.at - typed.at < SELF_HOLD_MS, `idle came ${idle.at - typed.at} ms after the message was taken: the hold was waited out`);
    assert.ok(w.elapsed_ms < SELF_HOLD_MS, `hive_wait took ${w.elapsed_ms} ms`);
  });

  test("queued messages to a shell agent go out as it takes them, not one per hold", async () => {
    await h.ok("agent_spawn", { name: "paced", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "paced", for: "idle", timeout_s: 20 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor as number;
    const out = join(h.home, "paced.out");
    await h.ok("hive_message", { agents: { paced: "sleep 1" } });
    for (let i = 1; i <= 5; i++) assert.equal((await h.ok("hive_message", { agents: { paced: `echo line-${i} >> '${out}'` } })).queued, 1);
    // What the shell ran, not what termhive says: every line, in order.
    await until("the shell's fifth line", () => (existsSync(out) && readFileSync(out, "utf8").includes("line-5") ? true : undefined), 60_000);
    assert.equal(readFileSync(out, "utf8"), "line-1\nline-2\nline-3\nline-4\nline-5\n");
    const events = (await h.ok("hive_events", { since: cursor, targets: "paced", kinds: ["message"], limit: 100 })).events as HiveEvent[];
    const delivered = events.filter((e) => e.data.state === "delivered" && String(e.data.preview).startsWith("echo line-"));
    assert.equal(delivered.length, 5, JSON.stringify(events.map((e) => e.data)));
    for (let i = 1; i < delivered.length; i++) {
      const gap = delivered[i]!.at - delivered[i - 1]!.at;
      assert.ok(gap < SELF_HOLD_MS, `message ${i + 1} went out ${gap} ms after message ${i}: one per hold`);
    }
  });
});
