// Issue 11 §1/§3: messages to busy agents are queued and typed when the agent is next idle, and
// hive_wait {for: "idle"} after hive_message waits for the work the message started. Judged by
// what the fake assistant TUI (test/fixtures/fake-agent.mjs) accepted, from its own log.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Harness } from "./harness.js";
import { type HiveEvent, logHas, logLines } from "./fake-agent-log.js";

const FAKE = resolve("test/fixtures/fake-agent.mjs");

/** What the fake did after starting: accepted / ignored / done lines, in order. */
const turns = (file: string) => logLines(file).filter((l) => l !== "ready");


type Ev = HiveEvent;

describe("hive delivery: queued when busy, waited for after a message", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  const spawnFake = async (via: Harness, name: string, turnMs: number, team?: string) => {
    const log = join(h.home, `${name}.log`);
    const r = await via.ok("agent_spawn", { name, command: `${process.execPath} ${FAKE} ${log} ${turnMs}`, profile: "claude", ...(team ? { team } : {}) });
    assert.equal(r.ready, "ready");
    await logHas(log, "ready");
    assert.equal((await via.ok("hive_wait", { targets: name, for: "idle", timeout_s: 10 })).matched, true);
    return log;
  };

  test("§3 hive_wait {for: idle} right after hive_message waits for the turn the message started, in this and in a fresh process", async () => {
    const log = await spawnFake(h, "racer", 2500);
    const m = await h.ok("hive_message", { agents: { racer: "first task" } });
    assert.equal(m.delivered, 1, JSON.stringify(m));
    const w = await h.ok("hive_wait", { targets: "racer", for: "idle", timeout_s: 20 });
    assert.equal(w.matched, true, JSON.stringify(w));
    assert.ok(logLines(log).includes("done: first task"), `hive_wait returned after ${w.elapsed_ms} ms, before the turn ended: ${turns(log).join(" | ")} ${JSON.stringify(w)} ${JSON.stringify((await h.ok("hive_events", { since: 0, targets: "racer", limit: 100 })).events)}`);

    // The turn is in the hive DB: a process that did not type the message waits for it too.
    await h.ok("hive_message", { agents: { racer: "second task" } });
    const other = await h.callOnce("hive_wait", { targets: "racer", for: "idle", timeout_s: 20 });
    assert.equal(other.isError, false, other.text);
    assert.equal(other.data.matched, true, other.text);
    assert.ok(logLines(log).includes("done: second task"), `a fresh process's hive_wait returned before the turn ended: ${turns(log).join(" | ")}`);
    assert.deepEqual(turns(log), ["accepted: first task", "done: first task", "accepted: second task", "done: second task"]);
  });

  test("§3 the README's pattern with shell agents: hive_message then hive_wait {for: idle} waits for the command it started", async () => {
    for (const name of ["sleepa", "sleepb"]) {
      await h.ok("agent_spawn", { name, command: "bash", profile: "shell", team: "sleepers" });
    }
    assert.equal((await h.ok("hive_wait", { targets: "team:sleepers", for: "idle", mode: "all", timeout_s: 10 })).matched, true);
    const marks = ["sleepa", "sleepb"].map((n) => join(h.home, `${n}.slept`));
    await h.ok("hive_message", { agents: { sleepa: `sleep 3 && touch '${marks[0]}'`, sleepb: `sleep 3 && touch '${marks[1]}'` } });
    const w = await h.ok("hive_wait", { targets: "team:sleepers", for: "idle", mode: "all", timeout_s: 20 });
    assert.equal(w.matched, true, JSON.stringify(w));
    // What the shells did, not what termhive says: the commands had finished.
    for (const mark of marks) assert.ok(existsSync(mark), `hive_wait returned after ${w.elapsed_ms} ms, before \`sleep 3\` finished`);
  });

  test("a message to a shell agent is not glued onto text left on its input line: that text is cancelled, the message runs alone", async () => {
    await h.ok("agent_spawn", { name: "glue", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "glue", for: "idle", timeout_s: 10 })).matched, true);
    const out = join(h.home, "glue.out");
    // What a person (or a server killed while typing) left on the line, without Enter.
    await h.ok("terminal_send", { session: "glue", text: "echo LEFT-", enter: false });
    const m = await h.ok("hive_message", { agents: { glue: `echo alone >> '${out}'` } });
    assert.equal(m.delivered, 1, JSON.stringify(m));
    assert.equal((await h.ok("hive_wait", { targets: "glue", for: "idle", timeout_s: 20 })).matched, true);
    // What the shell did: the message's command alone ran (glued, it would have written nothing here).
    assert.equal(readFileSync(out, "utf8"), "alone\n");
  });

  test("a program that takes Enter late (a loaded machine) gets the message once, and it counts as delivered", async () => {
    const log = join(h.home, "laggard.log");
    const r = await h.ok("agent_spawn", { name: "laggard", command: `${process.execPath} ${FAKE} ${log} 500`, profile: "claude", env: { FAKE_AGENT_ENTER_LAG_MS: "1500" } });
    assert.equal(r.ready, "ready");
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "laggard", for: "idle", timeout_s: 10 })).matched, true);
    const m = await h.ok("hive_message", { agents: { laggard: "slow to take it" } });
    assert.equal(m.delivered, 1, JSON.stringify(m));
    await logHas(log, "done: slow to take it");
    assert.deepEqual(turns(log), ["accepted: slow to take it", "done: slow to take it"]);
  });

  test("§3 a program that answers at once does not hold hive_wait past the grace", async () => {
    await h.ok("agent_spawn", { name: "quick", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "quick", for: "idle", timeout_s: 10 })).matched, true);
    await h.ok("hive_message", { agents: { quick: "true" } });
    const w = await h.ok("hive_wait", { targets: "quick", for: "idle", timeout_s: 10 });
    assert.equal(w.matched, true, JSON.stringify(w));
  });

  test("§1 a busy agent gets a message once, after it is idle: queued, then a delivered event; a cancelled one never", async () => {
    const log = await spawnFake(h, "busy", 2500);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    const a = await h.ok("hive_message", { agents: { busy: "task A" } });
    assert.equal(a.delivered, 1, JSON.stringify(a));
    const b = await h.ok("hive_message", { agents: { busy: "task B" } });
    assert.equal(b.queued, 1, JSON.stringify(b));
    assert.equal(b.delivered, 0, JSON.stringify(b));
    const c = await h.ok("hive_message", { agents: { busy: "task C" } });
    assert.equal(c.queued, 1, JSON.stringify(c));
    const listed = await h.ok("hive_queue", { agent: "busy" });
    assert.deepEqual(listed.queued.map((q: { text: string }) => q.text), ["task B", "task C"]);
    const cancelled = await h.ok("hive_queue", { cancel: c.deliveries[0].queued });
    assert.equal(cancelled.cancelled.text, "task C");
    assert.deepEqual(cancelled.queued.map((q: { text: string }) => q.text), ["task B"]);

    const w = await h.ok("hive_wait", { targets: "busy", for: "idle", timeout_s: 30 });
    assert.equal(w.matched, true, JSON.stringify(w));
    assert.deepEqual(turns(log), ["accepted: task A", "done: task A", "accepted: task B", "done: task B"]);
    const events: Ev[] = (await h.ok("hive_events", { since: cursor, targets: "busy", kinds: ["message"], limit: 1000 })).events;
    const states = events.map((e) => `${e.data.preview}:${e.data.state}`);
    assert.deepEqual(states, ["task A:delivered", "task B:queued", "task C:queued", "task C:cancelled", "task B:delivered"]);
    assert.equal((await h.ok("hive_queue", {})).queued.length, 0);
  });

  test("§1 kill -9 of the server with a queued message: a new process types it, once", async () => {
    const first = new Harness(h.home, h.env);
    first.bare = true;
    first.cwd = h.cwd;
    await first.connect();
    const log = await spawnFake(first, "orphan", 4000);
    assert.equal((await first.ok("hive_message", { agents: { orphan: "before the crash" } })).delivered, 1);
    const q = await first.ok("hive_message", { agents: { orphan: "after the crash" } });
    assert.equal(q.queued, 1, JSON.stringify(q));
    process.kill(first.pid, "SIGKILL");
    await first.close();
    assert.ok(!logLines(log).includes("accepted: after the crash"));

    const next = new Harness(h.home, h.env);
    next.bare = true;
    next.cwd = h.cwd;
    await next.connect();
    try {
      const w = await next.ok("hive_wait", { targets: "orphan", for: "idle", timeout_s: 30 });
      assert.equal(w.matched, true, JSON.stringify(w));
      assert.deepEqual(turns(log), ["accepted: before the crash", "done: before the crash", "accepted: after the crash", "done: after the crash"]);
    } finally {
      await next.close();
    }
  });

  test("§1 two cascades at once: each agent takes both texts, whole, one after the other", async () => {
    const logX = await spawnFake(h, "twinx", 1200, "twins");
    const logY = await spawnFake(h, "twiny", 1200, "twins");
    const other = new Harness(h.home, h.env);
    other.bare = true;
    other.cwd = h.cwd;
    await other.connect();
    try {
      await other.ok("agent_list", {}); // the second process has the hive open before the race
      const [one, two] = await Promise.all([
        h.ok("hive_message", { teams: { twins: "cascade one" } }),
        other.ok("hive_message", { teams: { twins: "cascade two" } }),
      ]);
      assert.equal(one.failed + two.failed, 0, JSON.stringify({ one, two }));
      const w = await h.ok("hive_wait", { targets: "team:twins", for: "idle", mode: "all", timeout_s: 30 });
      assert.equal(w.matched, true, JSON.stringify(w));
      for (const log of [logX, logY]) {
        const t = turns(log);
        assert.equal(t.filter((l) => l === "accepted: cascade one").length, 1, t.join(" | "));
        assert.equal(t.filter((l) => l === "accepted: cascade two").length, 1, t.join(" | "));
        assert.equal(t.length, 4, t.join(" | "));
        assert.ok(!t.some((l) => l.startsWith("ignored")), t.join(" | "));
      }
    } finally {
      await other.close();
    }
  });

  test("§10 hive_wait sends progress notifications while it waits", async () => {
    await spawnFake(h, "slow", 2500);
    h.progress = [];
    await h.ok("hive_message", { agents: { slow: "take your time" } });
    const w = await h.ok("hive_wait", { targets: "slow", for: "idle", timeout_s: 20 }, { progress: true });
    assert.equal(w.matched, true);
    assert.ok(h.progress.length >= 1, "no progress notification during a multi-second hive_wait");
    assert.match(h.progress[0]!.message ?? "", /waiting for idle/);
  });
});

describe("hive delivery: one path for typing", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField({ TERMHIVE_MAX_INPUT_BYTES: "2048" });
  });
  after(async () => h.destroy());

  test("§8 cascade texts pass terminal_send's size limit and are written to the audit log", async () => {
    const log = join(h.home, "sized.log");
    assert.equal((await h.ok("agent_spawn", { name: "sized", command: `${process.execPath} ${FAKE} ${log} 300`, profile: "claude" })).ready, "ready");
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "sized", for: "idle", timeout_s: 10 })).matched, true);
    const big = await h.call("hive_message", { agents: { sized: "x".repeat(3000) } });
    assert.equal(big.isError, true, big.text);
    assert.match(big.text, /limit is 2048 \(TERMHIVE_MAX_INPUT_BYTES\)/);
    assert.deepEqual(turns(log), [], "the oversized text reached the program");

    assert.equal((await h.ok("hive_message", { agents: { sized: "audited task" } })).delivered, 1);
    await logHas(log, "accepted: audited task");
    const audit = readFileSync(join(h.home, "audit.jsonl"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    const typed = audit.filter((e) => e.event === "input" && e.text === "audited task");
    assert.equal(typed.length, 1, JSON.stringify(audit.filter((e) => e.event === "input")));
    assert.equal(typed[0]!.via, "hive_message");
  });
});
