// Issue 25 §2: notifications off the machine, through the built server. A real HTTP receiver
// on 127.0.0.1 stands for Slack/Discord/ntfy; the agent is the fake assistant TUI, whose
// permission dialog makes the status change. Judged by what the receiver got, and by the
// audit log for "both processes have looked at this event" (the point after which a second
// copy could no longer be on its way).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Harness } from "./harness.js";
import { logHas } from "./fake-agent-log.js";
import { Receiver, refusedUrl } from "../unit/hive/notify/receiver.js";

const FAKE = resolve("test/fixtures/fake-agent.mjs");

type Audit = Record<string, any>;

function auditLines(home: string): Audit[] {
  try {
    return readFileSync(join(home, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Audit);
  } catch {
    return [];
  }
}

/** Resolves with the audit's notify lines once `done(lines)` holds; fails naming what it has. */
async function auditUntil(home: string, done: (lines: Audit[]) => boolean, timeoutMs = 30_000): Promise<Audit[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = auditLines(home).filter((l) => l.event === "notify");
    if (done(lines)) return lines;
    if (Date.now() > deadline) throw new Error(`the audit log never got there; notify lines: ${JSON.stringify(lines)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Both server processes have judged notice `id` (one sent it, the other found it claimed). */
const judgedByBoth = (id: number) => (lines: Audit[]) => new Set(lines.filter((l) => l.notice === id && l.outcome !== undefined).map((l) => l.pid)).size >= 2;

describe("notifications", () => {
  let receiver: Receiver;
  let a: Harness;
  let b: Harness;

  before(async () => {
    receiver = await Receiver.start([200]);
    a = await Harness.start({ TERMHIVE_NOTIFY_URL: `${receiver.url}/hook/tok3n` });
    // Every state change counts here (no debounce); read when each process opens the hive.
    writeFileSync(join(a.home, "notify.json"), JSON.stringify({ debounce_s: 0 }));
    b = new Harness(a.home, a.env);
    await b.connect();
  });
  after(async () => {
    await b?.close();
    await a?.destroy();
    await receiver?.close();
  });

  test("two termhive processes on one home: the receiver gets each waiting_for_input change exactly once", async () => {
    const log = join(a.home, "asker.log");
    assert.equal((await a.ok("agent_spawn", { name: "asker", command: `${process.execPath} ${FAKE} ${log} 1500`, profile: "claude" })).ready, "ready");
    await logHas(log, "ready");
    // The second process opens the hive too (and with it, its notifier).
    assert.ok((await b.ok("agent_list", {})).agents.some((x: { name: string }) => x.name === "asker"));
    const cursor = (await a.ok("hive_events", { since: 0, limit: 1000 })).cursor as number;

    for (const round of [1, 2]) {
      assert.equal((await a.ok("hive_wait", { targets: "asker", for: "idle", timeout_s: 20 })).matched, true);
      await a.ok("hive_message", { agents: { asker: `ask: round ${round}` } });
      await logHas(log, `asking: ask: round ${round}`);
      assert.equal((await b.ok("hive_wait", { targets: "asker", for: "waiting_for_input", timeout_s: 20 })).matched, true);
      await a.ok("hive_send", { targets: "asker", text: "1", enter: false });
      await logHas(log, `done: ask: round ${round}`);
    }
    assert.equal((await a.ok("hive_wait", { targets: "asker", for: "idle", timeout_s: 20 })).matched, true);

    const events = (await a.ok("hive_events", { since: cursor, targets: "asker", kinds: ["status"], limit: 1000 })).events as { id: number; data: Record<string, any> }[];
    const waits = events.filter((e) => e.data.status === "waiting_for_input" && e.data.previous !== "waiting_for_input").map((e) => e.id);
    assert.ok(waits.length >= 2, `one waiting change per dialog at least: ${JSON.stringify(events.map((e) => e.data))}`);
    for (const id of waits) await auditUntil(a.home, judgedByBoth(id));

    const got = receiver.received.map((r) => JSON.parse(r.body) as { text: string; content: string; termhive: { event_id: number; kind: string; agent: string } });
    assert.deepEqual(got.map((g) => g.termhive.event_id).sort((x, y) => x - y), waits, "one notification per change, none twice");
    for (const g of got) {
      assert.equal(g.termhive.kind, "waiting");
      assert.equal(g.termhive.agent, "asker");
      assert.match(g.text, /asker is waiting for input/);
      assert.equal(g.content, g.text);
    }
    assert.equal(receiver.received[0]!.path, "/hook/tok3n");
    const sent = auditLines(a.home).filter((l) => l.event === "notify" && l.outcome === "sent");
    assert.equal(sent.length, waits.length);
    assert.ok(sent.every((l) => l.url === `${receiver.url}/…`), JSON.stringify(sent));
    assert.ok(!readFileSync(join(a.home, "audit.jsonl"), "utf8").includes("tok3n"), "the webhook's token is not in the audit log");
  });
});

describe("a failing notification endpoint", () => {
  let hang: Receiver;
  let good: Receiver;
  let h: Harness;

  before(async () => {
    hang = await Receiver.start(["hang"]);
    good = await Receiver.start([200]);
    h = await Harness.startField({ TERMHIVE_NOTIFY_URL: [`${hang.url}/never`, await refusedUrl(), `${good.url}/ok`].join(",") });
    // A long attempt limit: the hanging request is surely still open while the hive works on.
    writeFileSync(join(h.home, "notify.json"), JSON.stringify({ timeout_s: 120, attempts: 3 }));
  });
  after(async () => {
    await h?.destroy();
    await hang?.close();
    await good?.close();
  });

  test("an endpoint that never answers and one that refuses delay nothing: the hive keeps working", async () => {
    await h.ok("terminal_open", { name: "sh", command: "bash" });
    await h.ok("hive_watch", { targets: "sh", pattern: "BUILD-FAILED-\\d+", label: "build failed" });
    await h.ok("terminal_run", { session: "sh", command: "echo BUILD-FAILED-$((6*7))" });
    // The watcher's notice is out: one endpoint holds it open, one refused it, one took it.
    await hang.waitFor(1);
    await good.waitFor(1);
    assert.match(JSON.parse(good.received[0]!.body).text, /build failed matched in sh: BUILD-FAILED-42/);
    assert.equal(hang.pendingHangs, 1);
    // While that request hangs, terminal calls and hive calls complete.
    const run = await h.ok("terminal_run", { session: "sh", command: "echo still-here" });
    assert.match(JSON.stringify(run), /still-here/);
    assert.equal((await h.ok("hive_watch", {})).watchers.length, 1);
    assert.equal(hang.pendingHangs, 1, "the hive's calls finished while the notification was still in flight");
    // The refused endpoint was retried with back-off and then given up on, in the audit log.
    const lines = await auditUntil(h.home, (l) => l.some((x) => x.outcome === "failed"));
    const failed = lines.find((x) => x.outcome === "failed")!;
    assert.equal(failed.reason, "ECONNREFUSED");
    assert.equal(failed.attempts, 3);
    assert.ok(lines.some((x) => x.outcome === "sent" && x.url === `${good.url}/…`));
  });
});
