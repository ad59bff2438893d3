// Issue 11, "the hive tells the truth": what hive_events / agent_list report is checked against
// what a fake assistant TUI (test/fixtures/fake-agent.mjs) actually accepted, from its own log.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { Harness } from "./harness.js";
import { type HiveEvent, logHas, logLines } from "./fake-agent-log.js";

const FAKE = resolve("test/fixtures/fake-agent.mjs");



type Ev = HiveEvent;

describe("hive tells the truth", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  const spawnFake = async (name: string, team?: string, via: "ok" | "once" = "ok") => {
    const log = join(h.home, `${name}.log`);
    const args = { name, command: `${process.execPath} ${FAKE} ${log}`, profile: "claude", ...(team ? { team } : {}) };
    if (via === "once") {
      const r = await h.callOnce("agent_spawn", args);
      assert.equal(r.isError, false, r.text);
    } else assert.equal((await h.ok("agent_spawn", args)).ready, "ready");
    await logHas(log, "ready", 15_000);
    return log;
  };

  test("§2 one 2-second turn gives status events on change only, not one per spinner frame", async () => {
    const log = await spawnFake("spinner");
    assert.equal((await h.ok("hive_wait", { targets: "spinner", for: "idle", timeout_s: 10 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    const m = await h.ok("hive_message", { agents: { spinner: "turn one" } });
    assert.equal(m.deliveries[0].delivered, true, JSON.stringify(m));
    await logHas(log, "accepted: turn one", 15_000);
    // While the spinner turns, agent_list follows the detail (the spinner line).
    // (hive_wait has no "working"; the fake's turn lasts 2 s, so polling agent_list sees it.)
    let mid: { status: string; detail: string | null } | undefined;
    while (!logLines(log).includes("done: turn one")) {
      mid = (await h.ok("agent_list", {})).agents.find((a: { name: string }) => a.name === "spinner");
      if (mid!.status === "working") break;
    }
    assert.ok(mid, "the turn ended before agent_list was read");
    assert.equal(mid!.status, "working");
    assert.match(mid!.detail ?? "", /esc to interrupt/);
    await logHas(log, "done: turn one", 15_000);
    assert.equal((await h.ok("hive_wait", { targets: "spinner", for: "idle", timeout_s: 10 })).matched, true);
    const events: Ev[] = (await h.ok("hive_events", { since: cursor, targets: "spinner", kinds: ["status"], limit: 1000 })).events;
    const statuses = events.map((e) => e.data.status);
    assert.ok(statuses.includes("working") && statuses.at(-1) === "idle", statuses.join(","));
    for (let i = 1; i < statuses.length; i++) {
      assert.notEqual(statuses[i], statuses[i - 1], `two '${statuses[i]}' events in a row: ${JSON.stringify(events.map((e) => e.data))}`);
    }
    assert.ok(events.length <= 4, `${events.length} status events for one turn: ${statuses.join(",")}`);
    assert.deepEqual(logLines(log).filter((l) => l !== "ready"), ["accepted: turn one", "done: turn one"]);
  });

  test("§7 every cascade and mail delivery is a message event on each recipient, with level and state", async () => {
    const logA = await spawnFake("ma", "mteam");
    const logB = await spawnFake("mb", "mteam");
    const logC = await spawnFake("mc");
    await h.ok("hive_wait", { targets: ["ma", "mb", "mc"], for: "idle", mode: "all", timeout_s: 10 });
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    const m = await h.ok("hive_message", { broadcast: "all hands", teams: { mteam: "team work" }, agents: { mb: "just b" } });
    assert.equal(m.failed, 0, JSON.stringify(m));
    await logHas(logA, "accepted: team work", 15_000);
    await logHas(logB, "accepted: just b", 15_000);
    await logHas(logC, "accepted: all hands", 15_000);
    await h.ok("hive_mail", { to: "mc", text: "read the spec", from: "lead" });
    const events: Ev[] = (await h.ok("hive_events", { since: cursor, kinds: ["message"], limit: 1000 })).events;
    const of = (agent: string) => events.filter((e) => e.agent === agent);
    assert.equal(of("ma").length, 1, JSON.stringify(events));
    assert.equal(of("mb").length, 1, JSON.stringify(events));
    assert.equal(of("mc").length, 2, JSON.stringify(events));
    assert.deepEqual(
      { level: of("ma")[0]!.data.level, state: of("ma")[0]!.data.state, via: of("ma")[0]!.data.via },
      { level: "team", state: "delivered", via: "cascade" },
    );
    assert.equal(of("mb")[0]!.data.level, "agent");
    assert.equal(of("mb")[0]!.data.state, "delivered");
    const [cascade, mail] = of("mc");
    assert.equal(cascade!.data.level, "broadcast");
    assert.equal(cascade!.data.state, "delivered");
    assert.equal(mail!.data.via, "mail");
    assert.equal(mail!.data.level, "agent");
    assert.equal(mail!.data.state, "delivered");
    assert.equal(mail!.data.from, "lead");

    // The safety gate refuses the whole cascade: each addressed agent gets a refused event.
    const g0 = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    const gated = await h.call("hive_message", { agents: { ma: "rm -rf /" }, broadcast: "harmless" });
    assert.equal(gated.isError, true, gated.text);
    const gatedEvents: Ev[] = (await h.ok("hive_events", { since: g0, kinds: ["message"], limit: 1000 })).events;
    const maRefused = gatedEvents.filter((e) => e.agent === "ma");
    assert.equal(maRefused.length, 1, JSON.stringify(gatedEvents));
    assert.equal(maRefused[0]!.data.state, "refused");
    assert.match(maRefused[0]!.data.note, /safety gate/);
    assert.ok(gatedEvents.filter((e) => e.agent === "mb").every((e) => e.data.state === "refused"), JSON.stringify(gatedEvents));
    assert.ok(!logLines(logA).some((l) => l.includes("rm -rf")) && !logLines(logB).includes("accepted: harmless"));

    // An exited agent is addressed but refused: an event says so, and it accepted nothing.
    // (Text is literal: a control key goes through terminal_send's keys.)
    const mcSession = (await h.ok("agent_list", {})).agents.find((a: { name: string }) => a.name === "mc").session;
    await h.ok("terminal_send", { session: mcSession, keys: ["C-c"] });
    assert.equal((await h.ok("hive_wait", { targets: "mc", for: "exited", timeout_s: 10 })).matched, true);
    const c2 = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    await h.ok("hive_message", { broadcast: "anyone there" });
    const later: Ev[] = (await h.ok("hive_events", { since: c2, kinds: ["message"], limit: 1000 })).events;
    const refused = later.filter((e) => e.agent === "mc");
    assert.equal(refused.length, 1, JSON.stringify(later));
    assert.equal(refused[0]!.data.state, "refused");
    assert.ok(!logLines(logC).includes("accepted: anyone there"));
  });

  test("§4 a fresh process reports the status the agent shows, not a stale one", async () => {
    // Spawned by a process that exits right after: nobody is left watching the pane.
    const log = await spawnFake("fresh", undefined, "once");
    const list = await h.callOnce("agent_list", {});
    const fresh = list.data.agents.find((a: { name: string }) => a.name === "fresh");
    assert.equal(fresh.status, "idle", JSON.stringify(fresh));
    // A turn started from the long-lived process: a second process reports the same.
    await h.ok("hive_message", { agents: { fresh: "second opinion" } });
    await logHas(log, "accepted: second opinion", 15_000);
    await logHas(log, "done: second opinion", 15_000);
    assert.equal((await h.ok("hive_wait", { targets: "fresh", for: "idle", timeout_s: 10 })).matched, true);
    const mine = (await h.ok("agent_list", {})).agents.find((a: { name: string }) => a.name === "fresh");
    const other = (await h.callOnce("agent_list", {})).data.agents.find((a: { name: string }) => a.name === "fresh");
    assert.equal(mine.status, "idle");
    const history = (await h.ok("hive_events", { since: 0, targets: "fresh", kinds: ["status"], limit: 1000 })).events;
    assert.equal(other.status, "idle", JSON.stringify({ other, mine, history }));
    assert.equal(other.source, mine.source);
  });
});

describe("termhive inside every pane", () => {
  let h: Harness;
  before(async () => {
    // Bare env: termhive is not installed anywhere on this PATH.
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("§5 termhive status / msg / inbox work from inside a pane, with the pane's agent as sender", async () => {
    await h.ok("agent_spawn", { name: "pa", command: "bash", profile: "shell" });
    await h.ok("agent_spawn", { name: "pb", command: "bash", profile: "shell" });
    await h.ok("hive_mail", { to: "pa", text: "note-for-pa", from: "lead" });
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    await h.ok("hive_send", { targets: "pa", text: 'termhive status working "from the pane" && termhive msg pb hello-from-pa && termhive inbox && echo ALL-OK' });
    const done = await h.ok("hive_wait", { targets: "pa", for: "pattern", pattern: "^ALL-OK", timeout_s: 15 });
    const screen = (await h.ok("hive_read", { targets: "pa", mode: "all" })).results[0].result.output;
    assert.equal(done.matched, true, screen);
    assert.match(screen, /note-for-pa/);
    const events: Ev[] = (await h.ok("hive_events", { since: cursor, limit: 1000 })).events;
    assert.ok(events.some((e) => e.kind === "status" && e.agent === "pa" && e.data.detail === "from the pane" && e.data.source === "self"), JSON.stringify(events));
    const inbox = await h.ok("hive_inbox", { agent: "pb", peek: true });
    assert.equal(inbox.messages[0].text, "hello-from-pa");
    assert.equal(inbox.messages[0].from, "pa");
    const pa = await h.ok("hive_inbox", { agent: "pa", all: true, peek: true });
    assert.ok(pa.messages[0].readAt !== null, "termhive inbox in the pane read pa's message");
  });
});
