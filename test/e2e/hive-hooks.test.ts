// Issue 11 §6: exact status from the agents' own hooks. A profile in the JSON format that
// mirrors the claude built-in (hooks via claude-settings) starts the fake assistant TUI, which,
// given --settings like Claude Code, runs the configured hook commands with a JSON payload on
// stdin and logs each run. Judged by the fake's log (it accepted the settings, it ran the
// hook) and then by what termhive recorded (source "hook"), in this and a second process.
// §10: agent_spawn sends progress notifications while it waits for the program.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { type HiveEvent, logHas, logLines } from "./fake-agent-log.js";
import { FAKE_AGENT, writeFakeClaudeProfile } from "./fake-claude-profile.js";

type Agent = { name: string; status: string; source: string; detail: string | null };

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const value = await probe().catch((e) => ((last = e), undefined));
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("hive hooks: status from the agent's own hooks", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField({ TERMHIVE_PROFILES: writeFakeClaudeProfile() });
  });
  after(async () => h.destroy());

  const agent = async (via: Harness, name: string): Promise<Agent> =>
    (await via.ok("agent_list", {})).agents.find((a: Agent) => a.name === name);
  const agentIs = (name: string, status: string, source: string) =>
    until(`${name} ${status} from ${source}`, async () => {
      const a = await agent(h, name);
      return a.status === status && a.source === source ? a : undefined;
    });
  const statusEvents = async (since: number, name: string): Promise<HiveEvent[]> =>
    (await h.ok("hive_events", { since, targets: name, kinds: ["status"], limit: 1000 })).events;

  test("§6 UserPromptSubmit → working and Stop → idle arrive from the hooks the fake ran, with source hook, seen by a second process", async () => {
    const log = join(h.home, "hooked.log");
    const spawned = await h.ok("agent_spawn", { name: "hooked", profile: "fakeclaude", env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "3000" } });
    assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
    await logHas(log, "ready");
    // The fake was started with --settings and read these hook events from it.
    assert.ok(logLines(log).includes("settings: Notification,PermissionRequest,SessionEnd,SessionStart,Stop,StopFailure,UserPromptSubmit"), logLines(log).join(" | "));
    assert.equal((await h.ok("hive_wait", { targets: "hooked", for: "idle", timeout_s: 10 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;

    assert.equal((await h.ok("hive_message", { agents: { hooked: "first task" } })).delivered, 1);
    await logHas(log, "hook: UserPromptSubmit exit 0");
    await logHas(log, "done: first task");
    await logHas(log, "hook: Stop exit 0");
    const idle = await agentIs("hooked", "idle", "hook");
    assert.match(idle.detail ?? "", /Stop hook/);

    const events = await statusEvents(cursor, "hooked");
    const fromHooks = events.filter((e) => e.data.source === "hook").map((e) => e.data.status);
    assert.deepEqual(fromHooks, ["working", "idle"], JSON.stringify(events.map((e) => e.data)));
    // Each hook ran once per turn, in order, after the fake accepted the text.
    const seq = logLines(log).filter((l) => l !== "ready" && !l.startsWith("settings"));
    assert.deepEqual(seq, ["accepted: first task", "hook: UserPromptSubmit exit 0", "done: first task", "hook: Stop exit 0"]);

    // Another termhive process, which never saw the pane's output, reports the hook's status.
    const other = await h.callOnce("agent_list", {});
    assert.equal(other.isError, false, other.text);
    const seen = other.data.agents.find((a: Agent) => a.name === "hooked");
    assert.equal(seen.status, "idle", other.text);
    assert.equal(seen.source, "hook", other.text);
  });

  test("an agent split off a pane (hive_split) gets its profile's hooks and a conversation id, as agent_spawn's agents do", async () => {
    const log = join(h.home, "splitter.log");
    await h.ok("terminal_open", { name: "split-base" });
    const r = await h.ok("hive_split", { session: "split-base", direction: "right", agent: "splitter", profile: "fakeclaude", command: `${process.execPath} ${FAKE_AGENT} ${log} 1000` });
    assert.equal(r.ready, "ready", JSON.stringify(r));
    await logHas(log, "ready");
    assert.ok(logLines(log).includes("settings: Notification,PermissionRequest,SessionEnd,SessionStart,Stop,StopFailure,UserPromptSubmit"), logLines(log).join(" | "));
    // The id the pane was started with is the one agent_restore would resume.
    const started = readFileSync(`${log}.sessions`, "utf8").trim();
    assert.match(started, /^[0-9a-f-]{36}$/);
    assert.equal((await h.ok("hive_wait", { targets: "splitter", for: "idle", timeout_s: 10 })).matched, true);
    assert.equal((await h.ok("hive_message", { agents: { splitter: "split task" } })).delivered, 1);
    await logHas(log, "hook: Stop exit 0");
    await agentIs("splitter", "idle", "hook");
  });

  test("§6 a permission dialog: the hook's waiting_for_input is left to the screen's question; answered → working, then Stop → idle", async () => {
    const log = join(h.home, "asker.log");
    await h.ok("agent_spawn", { name: "asker", profile: "fakeclaude", env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "2000" } });
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "asker", for: "idle", timeout_s: 10 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    await h.ok("hive_message", { agents: { asker: "ask: run the tests" } });
    await logHas(log, "hook: Notification permission_prompt exit 0");
    // Issue 32 §1: a program whose questions the profile reads on screen is waiting once its
    // question is drawn and still — never on the hook alone (Claude Code's hooks fire before
    // it draws its dialog). The dialog's question stands in the status, with its digest.
    const waiting = await agentIs("asker", "waiting_for_input", "profile");
    assert.match(waiting.detail ?? "", /permission prompt: Do you want to proceed\? 1\. Yes/);
    assert.ok(!logLines(log).includes("hook: Notification idle_prompt exit 0"), "the idle_prompt matcher ran for a permission prompt");

    await h.ok("hive_send", { targets: "asker", text: "1", enter: false });
    await logHas(log, "answered: yes");
    const w = await h.ok("hive_wait", { targets: "asker", for: "idle", timeout_s: 20 });
    assert.equal(w.matched, true, JSON.stringify(w));
    await logHas(log, "hook: Stop exit 0");
    await agentIs("asker", "idle", "hook");
    const statuses = (await statusEvents(cursor, "asker")).map((e) => `${e.data.status}:${e.data.source}`);
    assert.ok(!statuses.includes("waiting_for_input:hook"), statuses.join(" "));
    // No hook reports an answered dialog: the screen (spinner) said working between the two.
    const waitAt = statuses.indexOf("waiting_for_input:profile");
    assert.ok(statuses.slice(waitAt).some((s) => s.startsWith("working:")), statuses.join(" "));
    assert.equal(statuses.at(-1), "idle:hook", statuses.join(" "));
  });

  // Issue 32 §2: a dialog no rule knows fires no hook; the UserPromptSubmit hook's working held
  // against the screen for as long as the dialog waited for a person.
  test("a dialog no rule knows: the hook's working gives way to waiting_for_input with the screen's lines, and hive_answer answers it", async () => {
    const log = join(h.home, "noticed.log");
    await h.ok("agent_spawn", { name: "noticed", profile: "fakeclaude", env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "2000" } });
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "noticed", for: "idle", timeout_s: 10 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    await h.ok("hive_message", { agents: { noticed: "notice: deploy it" } });
    await logHas(log, "hook: UserPromptSubmit exit 0");
    await logHas(log, "notice: notice: deploy it");
    const w = await h.ok("hive_wait", { targets: "noticed", for: "waiting_for_input", timeout_s: 30 });
    assert.equal(w.matched, true, JSON.stringify(w));
    const waiting = await agent(h, "noticed");
    assert.match(waiting.detail ?? "", /^unknown dialog .*Auto mode can't check actions/, JSON.stringify(waiting));
    const question = (waiting as Agent & { question: { text: string; choices: string[] } | null }).question;
    assert.deepEqual(question?.choices, ["No", "Yes"], JSON.stringify(question));
    const statuses = (await statusEvents(cursor, "noticed")).map((e) => `${e.data.status}:${e.data.source}`);
    assert.ok(statuses.includes("working:hook"), statuses.join(" "));

    const r = await h.ok("hive_answer", { agent: "noticed", answer: "Yes" });
    assert.deepEqual(r.typed, { keys: ["Down", "Enter"] }, JSON.stringify(r));
    await logHas(log, "noticed: Yes");
    assert.equal(r.gone, true, JSON.stringify(r));
    await logHas(log, "hook: Stop exit 0");
    await agentIs("noticed", "idle", "hook");
  });

  // Issue 32 §6: Claude Code's --bare and --safe-mode switch user hooks off.
  test("an agent started with --bare: agent_spawn warns, no hook settings are passed, its status says it comes from the screen", async () => {
    const log = join(h.home, "bare.log");
    const spawned = await h.ok("agent_spawn", { name: "bare", profile: "fakeclaude", command: `${process.execPath} ${FAKE_AGENT} --bare`, env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "1000" } });
    assert.match(spawned.warning ?? "", /--bare runs none of its hooks: bare's status comes from its screen only/, JSON.stringify(spawned));
    await logHas(log, "ready");
    assert.ok(!logLines(log).some((l) => l.startsWith("settings:")), `hook settings were passed: ${logLines(log).join(" | ")}`);
    await h.ok("hive_message", { agents: { bare: "a task" } });
    await logHas(log, "done: a task");
    const idle = await agentIs("bare", "idle", "profile");
    assert.match(idle.detail ?? "", /from the screen: --bare keeps its hooks off/, JSON.stringify(idle));
  });

  // Claude Code with "disableAllHooks": true in the user's settings takes --settings and runs
  // none of them: no report will ever say a text was taken. One message finds that out (the
  // report waited for HOOK_UNKNOWN_MS, then the screen); the next are judged on screen at once.
  // The turn starts where the program took the text, not where the wait for its report ended:
  // a 600 ms turn over by then is not held working by the typed message afterwards.
  test("hooks configured but silent: one message waits for a report, the next are judged on screen at once; no typed working after a turn already over", async () => {
    const log = join(h.home, "silent.log");
    const spawned = await h.ok("agent_spawn", { name: "silent", profile: "fakeclaude", env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "600", FAKE_AGENT_HOOKS: "off" } });
    assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
    await logHas(log, "ready");
    assert.ok(logLines(log).some((l) => l.startsWith("settings: ")), "the hooks were configured");
    assert.equal((await h.ok("hive_wait", { targets: "silent", for: "idle", timeout_s: 10 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    const first = await h.ok("hive_message", { agents: { silent: "first quiet task" } });
    assert.equal(first.deliveries[0].delivered, true, JSON.stringify(first));
    assert.equal(first.deliveries[0].confirmedBy, "screen", JSON.stringify(first));
    assert.match(first.deliveries[0].note, /did not report it within 4 s, and no hook of this agent has reported yet/);
    assert.ok(logLines(log).includes("done: first quiet task"), "the turn ended while the report was waited for");
    const w = await h.ok("hive_wait", { targets: "silent", for: "idle", timeout_s: 10 });
    assert.equal(w.matched, true, JSON.stringify(w));
    const typed = (await statusEvents(cursor, "silent")).filter((e) => e.data.source === "typed");
    assert.deepEqual(typed.map((e) => e.data), [], "a turn over before its delivery was confirmed was called working");

    const started = Date.now();
    const second = await h.ok("hive_message", { agents: { silent: "second quiet task" } });
    const tookMs = Date.now() - started;
    assert.equal(second.deliveries[0].delivered, true, JSON.stringify(second));
    assert.equal(second.deliveries[0].confirmedBy, "screen", JSON.stringify(second));
    assert.match(second.deliveries[0].note, /does not run \(hooks off\)/, JSON.stringify(second));
    assert.ok(tookMs < 4000, `the second message waited ${tookMs} ms for a report none of its hooks makes`);
    await logHas(log, "done: second quiet task");
    assert.deepEqual(logLines(log).filter((l) => l.startsWith("accepted: ")), ["accepted: first quiet task", "accepted: second quiet task"]);
  });

  test("an agent started with --safe-mode, or with CLAUDE_CODE_SIMPLE=1 in its env: agent_spawn warns, its status says it comes from the screen", async () => {
    for (const [name, extra, env, off] of [
      ["safe", " --safe-mode", {}, "--safe-mode"],
      ["simple", "", { CLAUDE_CODE_SIMPLE: "1" }, "CLAUDE_CODE_SIMPLE=1"],
    ] as const) {
      const log = join(h.home, `${name}.log`);
      const spawned = await h.ok("agent_spawn", { name, profile: "fakeclaude", command: `${process.execPath} ${FAKE_AGENT}${extra}`, env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "1000", ...env } });
      assert.match(spawned.warning ?? "", new RegExp(`${off} runs none of its hooks: ${name}'s status comes from its screen only`), JSON.stringify(spawned));
      await logHas(log, "ready");
      assert.ok(!logLines(log).some((l) => l.startsWith("settings:")), `hook settings were passed: ${logLines(log).join(" | ")}`);
      await h.ok("hive_message", { agents: { [name]: "a task" } });
      await logHas(log, "done: a task");
      const idle = await agentIs(name, "idle", "profile");
      // The store keeps env names, not values: a variable given is named alone.
      assert.match(idle.detail ?? "", new RegExp(`from the screen: ${off.replace(/=1$/, "")}(?:=1)? keeps its hooks off`), JSON.stringify(idle));
    }
  });

  test("§6 SessionEnd → exited from the hook, before the pane's end is noticed", async () => {
    const log = join(h.home, "leaver.log");
    await h.ok("agent_spawn", { name: "leaver", profile: "fakeclaude", env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "500" } });
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "leaver", for: "idle", timeout_s: 10 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    await h.ok("hive_send", { targets: "leaver", text: "/exit" });
    await logHas(log, "hook: SessionEnd exit 0");
    await logHas(log, "exit: prompt_input_exit");
    const gone = await agentIs("leaver", "exited", "hook");
    assert.match(gone.detail ?? "", /prompt_input_exit/);
    const exits = (await statusEvents(cursor, "leaver")).filter((e) => e.data.status === "exited");
    assert.deepEqual(exits.map((e) => e.data.source), ["hook"], JSON.stringify(exits));
    // The pane's end brings the exit code, without a second exited event.
    await until("leaver's exit code", async () => ((await agent(h, "leaver")) as Agent & { exit_code: number | null }).exit_code === 0 ? true : undefined);
    const after = (await statusEvents(cursor, "leaver")).filter((e) => e.data.status === "exited");
    assert.deepEqual(after.map((e) => e.data.source), ["hook"], JSON.stringify(after));
  });

  test("§10 agent_spawn sends progress notifications while it waits for the program to be ready", async () => {
    h.progress = [];
    const r = await h.ok("agent_spawn", { name: "slowstart", profile: "shell", command: "bash -c 'sleep 2.5; exec bash'" }, { progress: true });
    assert.equal(r.ready, "ready", JSON.stringify(r));
    assert.ok(h.progress.length >= 1, "no progress notification during a multi-second agent_spawn");
    assert.match(h.progress[0]!.message ?? "", /starting agent slowstart/);
  });
});
