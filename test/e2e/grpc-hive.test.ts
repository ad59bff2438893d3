// The hive over gRPC: every hive RPC through TermhiveClient against a real `termhive serve` and
// real tmux — layouts, agents, teams, parallel send/read, cascades through the safety gate,
// queue, status, events, waits, watchers, mail, focus, split, removal — and errors as status codes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { TermhiveClient, ToolError } from "../../src/index.js";
import { serve, type Served } from "./serve-process.js";

const isCode = (code: ToolError["code"], message?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof ToolError, `expected a ToolError, got ${String(e)}`);
  assert.equal(e.code, code, e.message);
  if (message) assert.match(e.message, message);
  return true;
};

describe("gRPC hive API", () => {
  let s: Served;
  let c: TermhiveClient;
  before(async () => {
    s = await serve();
    c = new TermhiveClient({ socketPath: s.grpcSocket, clientName: "grpc-hive-e2e" });
    await c.ready();
  });
  after(async () => {
    c?.closeConnection();
    await s?.stop();
  });

  /** Polls a non-blocking RPC until `ok` holds (hive_events has no blocking form). */
  async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await get();
      if (ok(v)) return v;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  test("TeamCreate, HiveLayout with agents in teams, AgentList, TeamList", async () => {
    const org = await c.teamCreate({ name: "org", description: "everyone" });
    assert.deepEqual({ ...org.team, createdAt: 0 }, { name: "org", parent: null, description: "everyone", createdAt: 0 });
    assert.ok(org.team.createdAt > 0);
    assert.equal((await c.teamCreate({ name: "red", parent: "org" })).team.parent, "org");

    const layout = await c.hiveLayout({
      layout: "horizontal",
      panes: [
        { name: "r1", command: "bash", agent: "r1", team: "red", env: { HIVE_PANE: "left" } },
        { name: "b1", command: "bash", agent: "b1", team: "blue" },
      ],
    });
    assert.equal(layout.layout, "horizontal");
    assert.match(layout.window, /^@\d+$/);
    assert.match(layout.attach ?? "", /tmux -S .* attach/);
    assert.deepEqual(layout.panes.map((p) => [p.index, p.name, p.agent, p.team, p.ready]), [
      [0, "r1", "r1", "red", "ready"],
      [1, "b1", "b1", "blue", "ready"],
    ]);
    // Side by side in one window: same rows, widths summing to the window's (minus the border).
    assert.equal(layout.panes[0]!.rows, layout.panes[1]!.rows);
    assert.equal(layout.panes[0]!.cols + layout.panes[1]!.cols + 1, 200);
    assert.equal("saved_as" in layout, false);

    const all = await c.agentList();
    const r1 = all.agents.find((a) => a.name === "r1");
    assert.ok(r1);
    assert.equal(r1.team, "red");
    assert.equal(r1.alive, true);
    assert.equal(r1.session_name, "r1");
    assert.equal(r1.exit_code, null);
    assert.match(r1.pane ?? "", /^%\d+$/);
    // org reaches red's agents through the child team, not blue's.
    assert.deepEqual((await c.agentList({ team: "org" })).agents.map((a) => a.name), ["r1"]);
    assert.deepEqual((await c.agentList({ team: "org", recursive: false })).agents, []);

    const teams = (await c.teamList()).teams;
    const byName = Object.fromEntries(teams.map((t) => [t.name, t]));
    assert.deepEqual(byName.org!.children, ["red"]);
    assert.deepEqual(byName.red!.members, ["r1"]);
    assert.equal(byName.blue!.parent, null);
    assert.deepEqual(byName.blue!.members, ["b1"]);
    // The pane's env reached the program.
    assert.equal((await c.run({ session: "r1", command: "echo $HIVE_PANE" })).output, "left");
  });

  test("HiveSend to several targets, HiveWait for a pattern in all, HiveRead with a filter and a line limit", async () => {
    const sent = await c.hiveSend({ targets: { agents: ["r1", "b1"] }, text: "echo PAR-$((40+2))-OK; echo noise" });
    assert.equal(sent.sent, 2);
    assert.equal(sent.failed, 0);
    assert.deepEqual(sent.unavailable, []);
    for (const t of sent.results) {
      assert.equal(t.ok, true);
      assert.ok((t.result as { sent_bytes: number }).sent_bytes > 0);
    }

    const waited = await c.hiveWait({ targets: ["agent:r1", "agent:b1"], for: "pattern", pattern: "^PAR-42-OK$", mode: "all", timeout_s: 10 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    assert.equal(waited.reason, "condition");
    assert.equal(waited.for, "pattern");
    assert.equal(waited.mode, "all");
    assert.deepEqual(waited.targets.map((t) => [t.name, t.met]), [["r1", true], ["b1", true]]);
    assert.deepEqual(waited.targets[0]!.agents.map((a) => a.name), ["r1"]);

    const read = await c.hiveRead({ targets: "team:org", filter: "^PAR-", mode: "all" });
    assert.equal(read.failed, 0);
    assert.equal(read.results.length, 1);
    const only = read.results[0]!;
    assert.equal(only.name, "r1");
    assert.deepEqual(only.agents, ["r1"]);
    assert.match(only.result!.output, /^PAR-42-OK$/m);
    assert.doesNotMatch(only.result!.output, /noise/);

    const limited = await c.hiveRead({ targets: "agent:b1", mode: "all", lines: 1 });
    const r = limited.results[0]!.result as { output: string; truncated_lines: number };
    assert.equal(r.output.split("\n").length, 1);
    assert.ok(r.truncated_lines > 0, JSON.stringify(r));

    // The same text again with skip_duplicates: nothing typed, reported per target.
    const again = await c.hiveSend({ targets: ["r1", "b1"], text: "echo PAR-$((40+2))-OK; echo noise", skip_duplicates: true });
    assert.equal(again.sent, 0);
    assert.deepEqual(again.results.map((t) => t.result), [{ skipped: "duplicate", sent_bytes: 0 }, { skipped: "duplicate", sent_bytes: 0 }]);
  });

  test("HiveMessage cascades (agent > team > broadcast); a refused text sends nothing (PERMISSION_DENIED)", async () => {
    await assert.rejects(
      c.hiveMessage({ broadcast: "echo GATE-SAFE", agents: { r1: "rm -rf / # GATE-DANGER" } }),
      isCode("refused", /refused by the safety gate.*confirm: true/),
    );
    // b1 would have got the harmless broadcast: nothing reached it.
    await c.run({ session: "b1", command: "echo GATE-PROBE" });
    assert.doesNotMatch((await c.read({ session: "b1", mode: "all" })).output, /GATE-SAFE/);
    assert.doesNotMatch((await c.read({ session: "r1", mode: "all" })).output, /GATE-DANGER/);

    const r = await c.hiveMessage({ broadcast: "echo CAST-$((1+1))-BROAD", teams: { org: "echo CAST-$((1+1))-ORG" }, when: "now" });
    assert.equal(r.delivered, 2, JSON.stringify(r));
    assert.equal(r.failed, 0);
    assert.equal(r.queued, 0);
    assert.deepEqual(r.assignments.map((a) => [a.agent, a.source, a.delivered]), [["b1", "broadcast", true], ["r1", "team:org", true]]);
    const r1Delivery = r.deliveries.find((d) => d.agents.includes("r1"))!;
    assert.equal(r1Delivery.level, "team");
    assert.ok((r1Delivery.attempts ?? 0) >= 1);
    assert.equal((await c.wait({ session: "r1", pattern: "^CAST-2-ORG$", timeout_s: 10 })).matched, true);
    assert.equal((await c.wait({ session: "b1", pattern: "^CAST-2-BROAD$", timeout_s: 10 })).matched, true);
    // Bad input: an unknown team is named in the error.
    await assert.rejects(c.hiveMessage({ teams: { nope: "x" } }), isCode("not_found", /unknown team 'nope'/));
  });

  test("HiveQueue lists the queue and refuses an id it does not hold or an unknown agent", async () => {
    const listed = await c.hiveQueue({});
    assert.ok(Array.isArray(listed.queued));
    assert.equal(listed.cancelled, undefined);
    await assert.rejects(c.hiveQueue({ cancel: 99_999 }), isCode("invalid", /no queued message #99999/));
    await assert.rejects(c.hiveQueue({ agent: "nobody-here" }), isCode("not_found", /nobody-here/));
  });

  test("HiveStatus and HiveEvents with a cursor, kinds and targets", async () => {
    const start = (await c.hiveEvents({ limit: 1000 })).cursor;
    const set = await c.hiveStatus({ agent: "r1", status: "working", detail: "compiling" });
    assert.equal(set.agent.status, "working");
    assert.equal(set.agent.detail, "compiling");
    assert.equal(set.agent.source, "self");

    const page = await c.hiveEvents({ since: start, kinds: ["status"], targets: "agent:r1" });
    const mine = page.events.find((e) => e.data.detail === "compiling");
    assert.ok(mine, JSON.stringify(page));
    assert.equal(mine.kind, "status");
    assert.equal(mine.agent, "r1");
    assert.match(mine.sessionId ?? "", /./);
    assert.deepEqual({ status: mine.data.status, source: mine.data.source }, { status: "working", source: "self" });
    assert.ok(page.events.every((e) => e.id > start && e.kind === "status" && e.agent === "r1"));
    assert.ok(page.cursor >= mine.id);
    assert.equal(page.missed, 0);
    // Past the cursor that event is not returned again.
    const next = await c.hiveEvents({ since: page.cursor, targets: "agent:r1" });
    assert.ok(next.events.every((e) => e.id > page.cursor));
    // lifecycle events carry their own data (team_created from the first test).
    const created = await c.hiveEvents({ kinds: ["lifecycle"], limit: 1000 });
    assert.ok(created.events.some((e) => e.data.event === "team_created" && e.data.team === "red" && e.data.parent === "org"), JSON.stringify(created));
  });

  test("HiveWait: idle matches, a timeout says so", async () => {
    await c.hiveStatus({ agent: "b1", status: "idle" });
    const idle = await c.hiveWait({ targets: "agent:b1", for: "idle", timeout_s: 10 });
    assert.equal(idle.matched, true, JSON.stringify(idle));
    const timeout = await c.hiveWait({ targets: "agent:b1", for: "exited", timeout_s: 0.3 });
    assert.equal(timeout.matched, false);
    assert.equal(timeout.reason, "timeout");
    assert.ok(timeout.elapsed_ms >= 250, String(timeout.elapsed_ms));
    assert.equal(timeout.targets[0]!.met, false);
  });

  test("HiveWatch: add (each targets form round-trips), a hit becomes a watch event, remove", async () => {
    const added = await c.hiveWatch({ targets: "agent:b1", pattern: "WATCH-HIT-\\d+", label: "hits" });
    assert.ok(added.added);
    assert.equal(added.added.target, "agent:b1");
    assert.equal(added.added.label, "hits");
    const listForm = await c.hiveWatch({ targets: ["agent:r1", "agent:b1"], pattern: "never-seen-1" });
    assert.deepEqual(listForm.added!.target, ["agent:r1", "agent:b1"]);
    assert.equal(listForm.added!.label, null);
    const setForm = await c.hiveWatch({ targets: { teams: ["red"], recursive: false }, pattern: "never-seen-2", flags: "i" });
    assert.deepEqual(setForm.added!.target, { teams: ["red"], recursive: false });
    assert.equal(setForm.added!.flags, "i");
    assert.equal(setForm.watchers.length, 3);

    const since = (await c.hiveEvents({ limit: 1000 })).cursor;
    await c.run({ session: "b1", command: "echo WATCH-HIT-$((6*7))" });
    const hit = await until("the watch event", () => c.hiveEvents({ since, kinds: ["watch"] }), (r) => r.events.length > 0);
    assert.equal(hit.events[0]!.data.watcher, added.added.id, JSON.stringify(hit.events[0]));
    assert.match(JSON.stringify(hit.events[0]!.data), /WATCH-HIT-42/);

    const removed = await c.hiveWatch({ remove: added.added.id });
    assert.equal(removed.removed!.id, added.added.id);
    assert.equal("added" in removed, false);
    assert.deepEqual(removed.watchers.map((w) => w.id).sort(), [listForm.added!.id, setForm.added!.id].sort());
    await assert.rejects(c.hiveWatch({ targets: "all" }), isCode("invalid", /give a pattern/));
  });

  test("HiveMail and HiveInbox (peek, mark read, all); type_into_pane types it", async () => {
    const m = await c.hiveMail({ to: "r1", text: "hello r1", from: "lead" });
    assert.deepEqual({ ...m.message, id: 0, createdAt: 0 }, { id: 0, from: "lead", to: "r1", text: "hello r1", createdAt: 0, readAt: null });
    assert.equal("typed" in m, false);
    const peek = await c.hiveInbox({ agent: "r1", peek: true });
    assert.deepEqual(peek.messages.map((x) => x.id), [m.message.id]);
    assert.equal(peek.unread_left, 1);
    const read = await c.hiveInbox({ agent: "r1" });
    assert.equal(read.messages.length, 1);
    assert.equal(read.unread_left, 0);
    assert.deepEqual((await c.hiveInbox({ agent: "r1" })).messages, []);
    const kept = await c.hiveInbox({ agent: "r1", all: true });
    assert.equal(typeof kept.messages[0]!.readAt, "number");

    const typed = await c.hiveMail({ to: "b1", text: "MAIL-TYPED", type_into_pane: true });
    assert.equal(typed.typed?.delivered, true, JSON.stringify(typed));
    // Typed at b1's shell: its line is the echo of typed input, which a pattern does not see, so the screen is read.
    await until("the typed mail on b1's screen", () => c.read({ session: "b1", mode: "screen" }), (r) => r.output.includes("[message from orchestrator] MAIL-TYPED"));
  });

  test("HiveSplit as an agent, HiveFocus by agent name", async () => {
    const split = await c.hiveSplit({ session: "b1", direction: "below", name: "b1-log", command: "bash", agent: "b1log", percent: 30 });
    assert.equal(split.split_from, "b1");
    assert.equal(split.direction, "below");
    assert.equal(split.name, "b1-log");
    assert.equal(split.agent, "b1log");
    assert.equal(split.ready, "ready");
    const focused = await c.hiveFocus({ session: "b1log" });
    assert.equal(focused.focused, "b1-log");
    assert.equal(focused.session, split.session);
    assert.equal(focused.pane, split.pane);
    // tmux agrees: the split pane is now the active one of its window, b1 is not.
    const active = (pane: string) =>
      spawnSync("tmux", ["-S", join(s.home, "tmux.sock"), "display", "-p", "-t", pane, "#{pane_active}"], { encoding: "utf8" }).stdout.trim();
    assert.equal(active(split.pane), "1");
    assert.equal(active((await c.hiveFocus({ session: "b1" })).pane), "1");
    assert.equal(active(split.pane), "0");
  });

  test("AgentSpawn, AgentRegister (duplicate refused, replace), TeamAssign both ways, removals", async () => {
    const spawned = await c.agentSpawn({ name: "sp1", command: "bash", team: "blue", env: { SPAWN_MARK: "yes" } });
    assert.equal(spawned.agent.name, "sp1");
    assert.equal(spawned.agent.team, "blue");
    assert.equal(spawned.ready, "ready");
    assert.ok(spawned.ready_ms >= 0);
    assert.equal("worktree" in spawned, false);
    assert.match(spawned.attach ?? "", /attach/);
    assert.equal((await c.run({ session: "sp1", command: "echo $SPAWN_MARK $TERMHIVE_AGENT" })).output, "yes sp1");

    const alias = await c.agentRegister({ name: "alias", session: "sp1" });
    assert.equal(alias.agent.session_name, "sp1");
    assert.equal(alias.replaced, null);
    await assert.rejects(c.agentRegister({ name: "alias", session: "r1" }), isCode("invalid", /already registered/));
    const moved = await c.agentRegister({ name: "alias", session: "r1", replace: true });
    assert.equal(moved.replaced, spawned.agent.session);
    assert.equal(moved.agent.session_name, "r1");

    const joined = await c.teamAssign({ agent: "sp1", team: "red" });
    assert.equal(joined.agent!.team, "red");
    assert.equal(joined.created_team, false);
    const left = await c.teamAssign({ agent: "sp1", team: null });
    assert.equal(left.agent!.team, null);
    assert.equal((await c.teamAssign({ team: "blue", parent: "org" })).team!.parent, "org");
    assert.equal((await c.teamAssign({ team: "blue", parent: null })).team!.parent, null);
    await assert.rejects(c.teamAssign({ team: "org", parent: "red" }), isCode("invalid", /cycle/));

    const forgot = await c.agentRemove({ name: "alias" });
    assert.deepEqual(forgot, { removed: "alias", session: moved.agent.session, closed: false });
    const closed = await c.agentRemove({ name: "sp1", close: true });
    assert.equal(closed.closed, true);
    assert.equal((await c.list()).sessions.some((x) => x.name === "sp1"), false);
    assert.equal((await c.agentList()).agents.some((a) => a.name === "sp1" || a.name === "alias"), false);

    const gone = await c.teamRemove({ name: "red" });
    assert.equal(gone.team.name, "red");
    assert.equal(gone.movedTo, "org");
    assert.deepEqual(gone.agents, ["r1"]);
    assert.deepEqual(gone.childTeams, []);
    assert.equal((await c.teamList()).teams.some((t) => t.name === "red"), false);
    assert.equal((await c.agentList({ team: "org", recursive: false })).agents[0]?.name, "r1");
  });

  test("an unknown agent → NOT_FOUND with the message; bad input → INVALID_ARGUMENT", async () => {
    const unknownAgent = /unknown agent 'ghost'/;
    await assert.rejects(c.hiveStatus({ agent: "ghost", status: "idle" }), isCode("not_found", unknownAgent));
    await assert.rejects(c.agentRemove({ name: "ghost" }), isCode("not_found", unknownAgent));
    await assert.rejects(c.hiveInbox({ agent: "ghost" }), isCode("not_found", unknownAgent));
    await assert.rejects(c.hiveSend({ targets: "agent:ghost", text: "x" }), isCode("not_found", unknownAgent));
    await assert.rejects(c.hiveFocus({ session: "nowhere" }), isCode("not_found", /nowhere/));
    await assert.rejects(c.hiveSend({ targets: "all", text: "" }), isCode("invalid", /text/));
    await assert.rejects(c.hiveLayout({ layout: "hexagonal" as never }), isCode("invalid", /layout/));
    await assert.rejects(c.hiveWait({ targets: "all", for: "pattern" }), isCode("invalid", /needs a pattern/));
  });

  test("loopback TCP: hive RPCs need the token", async () => {
    assert.ok(s.grpcPort);
    const anon = new TermhiveClient({ address: `127.0.0.1:${s.grpcPort}` });
    await assert.rejects(anon.agentList(), (e: { code?: number }) => e.code === 16);
    anon.closeConnection();
    const authed = new TermhiveClient({ address: `127.0.0.1:${s.grpcPort}`, token: s.token! });
    assert.ok((await authed.agentList()).agents.some((a) => a.name === "r1"));
    authed.closeConnection();
  });
});
