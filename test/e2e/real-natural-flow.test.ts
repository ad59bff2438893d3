// Issue 32 §1: the natural flow against the real Claude Code and Codex (pinned in scripts/agents), offline
// against the loopback Messages API stand-in, for a user who keeps manual permission mode:
// `hive_wait {for: "waiting_for_input"}`, then at once a key — the way a lead agent or a person
// drives it. Claude Code runs its PermissionRequest hook before it draws the dialog, and the
// dialog takes keys only a moment after it is drawn: a key sent on the first word of
// "waiting" used to land in the empty input box (or in a dialog not yet listening) and be lost.
// Judged by what Claude Code did: the command's file exists, the stand-in got each tool result.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { ResponsesStandIn } from "./standins/openai-responses-api.js";
import { agentIs, claudeEnv, cursor, claudeUser, codexEnv, missingAgent, projectDir, realField, screenOf, statusEvents, until, writeJson } from "./real-agents.js";
import type { RecordedRequest } from "./standins/agent-script.js";

const missing = missingAgent("claude");
const missingCodex = missingAgent("codex");
/** Turns per dialog kind (the figure is 20 of 20: TERMHIVE_NATURAL_RUNS=20). */
const RUNS = Number(process.env.TERMHIVE_NATURAL_RUNS ?? 4);
/** The trust loop starts a program per turn (~25 s at load 20): 2 by default, so the file stays well inside the runner's 300 s. */
const TRUST_RUNS = Number(process.env.TERMHIVE_NATURAL_RUNS ?? 2);

describe("the natural flow with the real Claude Code: hive_wait waiting_for_input, then a key at once", { skip: missing ?? false }, () => {
  const api = new MessagesAgentStandIn();
  const field = realField({
    standIns: [api],
    setUp: ({ h, project }) => {
      const home = projectDir(h, "manual-user");
      claudeUser(home, [project]);
      writeJson(join(home, ".claude", "settings.json"), { permissions: { defaultMode: "default" } });
      return { home };
    },
  });

  const waitingNow = async (name: string) => {
    const w = await field.h.ok("hive_wait", { targets: name, for: "waiting_for_input", timeout_s: 60 });
    if (!w.matched) assert.fail(`${name} never waited: ${JSON.stringify(w)}\n${await screenOf(field.h, name)}`);
  };

  test("the start-up question and every permission dialog take the key sent the moment waiting is announced", { timeout: 60_000 + RUNS * 40_000 }, async () => {
    const { h, project, home } = field;
    await h.ok("agent_spawn", { name: "cc", profile: "claude", cwd: project, env: { ...claudeEnv(api), HOME: home } });
    // "Make auto mode your default permission mode?": Down picks "No, keep manual mode"… but a
    // digit-free menu is walked; the natural answer is hive_answer at once.
    await waitingNow("cc");
    const kept = await h.ok("hive_answer", { agent: "cc", answer: "No, keep manual mode" });
    assert.equal(kept.gone, true, JSON.stringify(kept));
    await agentIs(h, "cc", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cc")}`));

    const lost: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const made = join(project, `natural-${i}`);
      const results = api.requests.filter((r) => r.toolResult).length;
      const sent = await h.ok("hive_message", { agents: { cc: `please run: touch ${made}` } });
      assert.equal(sent.delivered + sent.queued, 1, JSON.stringify(sent));
      await waitingNow("cc");
      // At once, as a lead does: Enter (i even) picks the cursor's "1. Yes", the digit 1 likewise.
      await h.ok("terminal_send", i % 2 === 0 ? { session: "cc", keys: ["Enter"] } : { session: "cc", text: "1", enter: false });
      const ran = await until(`natural-${i} made`, async () => (existsSync(made) ? true : undefined), 20_000).catch(() => false);
      if (!ran) {
        lost.push(`turn ${i}: ${await screenOf(h, "cc")}`);
        console.error(`lost: ${lost.at(-1)}`);
        // Leave the dialog answered so the next turn starts clean.
        await h.call("hive_answer", { agent: "cc", answer: "1" });
      }
      if (ran) await until(`the tool's result of turn ${i}`, async () => (api.requests.filter((r) => r.toolResult).length > results ? true : undefined), 40_000);
      await agentIs(h, "cc", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cc")}`));
    }
    assert.deepEqual(lost, [], `keys lost in ${lost.length} of ${RUNS} turns`);
  });
});

/** Resolves once the stand-in got a tool result holding `token` (what the program's tool read), else false. */
const resultWith = (requests: readonly RecordedRequest[], token: string, timeoutMs = 20_000) =>
  until(`a tool result with ${token}`, async () => (requests.some((r) => r.toolResult && r.toolResultText?.includes(token)) ? true : undefined), timeoutMs).catch(() => false);

// Under default settings (auto mode), 2.1.332 asks before a Read of a file outside the working
// directories: "Allow this read outside the working directories?" with four choices. "1. Yes,
// and keep allowing …" (the cursor's: Enter) stops the asking for the session, so it is the last
// turn's key; before it, "4. Yes, but ask again next time" by its digit or by hive_answer.
describe("the natural flow with the real Claude Code under default settings: the read-outside dialog", { skip: missing ?? false }, () => {
  const api = new MessagesAgentStandIn();
  const field = realField({
    standIns: [api],
    setUp: ({ h, project }) => {
      const home = projectDir(h, "default-user");
      claudeUser(home, [project]);
      return { home, outside: projectDir(h, "outside") };
    },
  });

  test("every read-outside dialog takes the key or answer sent the moment waiting is announced", { timeout: 60_000 + RUNS * 40_000 }, async () => {
    const { h, project, home, outside } = field;
    await h.ok("agent_spawn", { name: "reader", profile: "claude", cwd: project, env: { ...claudeEnv(api), HOME: home } });
    await agentIs(h, "reader", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "reader")}`));
    const since = await cursor(h);
    const lost: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const file = join(outside, `note-${i}.txt`);
      const token = `outside-token-${i}-${process.pid}`;
      writeFileSync(file, `${token}\n`);
      const sent = await h.ok("hive_message", { agents: { reader: `please read: ${file}` } });
      assert.equal(sent.delivered + sent.queued, 1, JSON.stringify(sent));
      const w = await h.ok("hive_wait", { targets: "reader", for: "waiting_for_input", timeout_s: 60 });
      if (!w.matched) assert.fail(`reader never waited: ${JSON.stringify(w)}\n${await screenOf(h, "reader")}`);
      // At once: the digit 4, hive_answer by the choice's words, and Enter (choice 1) last.
      if (i === RUNS - 1) await h.ok("terminal_send", { session: "reader", keys: ["Enter"] });
      else if (i % 2 === 0) await h.ok("terminal_send", { session: "reader", text: "4", enter: false });
      else await h.ok("hive_answer", { agent: "reader", answer: "Yes, but ask again next time" });
      if (!(await resultWith(api.requests, token))) {
        lost.push(`turn ${i}: ${await screenOf(h, "reader")}`);
        console.error(`lost: ${lost.at(-1)}`);
        await h.call("hive_answer", { agent: "reader", answer: "4" });
      }
      await agentIs(h, "reader", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "reader")}`));
    }
    assert.deepEqual(lost, [], `keys lost in ${lost.length} of ${RUNS} turns`);
    // Each turn's waiting said the read-outside question, in its words.
    const waits = (await statusEvents(h, "reader", since)).filter((e) => e.data.status === "waiting_for_input");
    assert.ok(waits.length >= RUNS, JSON.stringify(waits));
    for (const e of waits) assert.match(String(e.data.detail), /^read-outside prompt: Allow this read outside the working directories\? 1\. Yes, and keep allowing/);
  });
});

// The start-up trust dialog of 2.1.332 in a folder never trusted: "Quick safety check: Is this a
// project you created or one you trust?" with the cursor on "No, exit". A new agent per turn.
describe("the natural flow with the real Claude Code: the start-up trust dialog", { skip: missing ?? false }, () => {
  const api = new MessagesAgentStandIn();
  const field = realField({
    standIns: [api],
    setUp: ({ h, project }) => {
      const home = projectDir(h, "trusting-user");
      claudeUser(home, [project]);
      return { home };
    },
  });

  test("every trust dialog takes the answer sent the moment waiting is announced", { timeout: 60_000 + TRUST_RUNS * 60_000 }, async () => {
    const { h, home } = field;
    const since = await cursor(h);
    const lost: string[] = [];
    for (let i = 0; i < TRUST_RUNS; i++) {
      const name = `trust${i}`;
      await h.ok("agent_spawn", { name, profile: "claude", cwd: projectDir(h, `untrusted-${i}`), env: { ...claudeEnv(api), HOME: home } });
      const w = await h.ok("hive_wait", { targets: name, for: "waiting_for_input", timeout_s: 60 });
      if (!w.matched) assert.fail(`${name} never waited: ${JSON.stringify(w)}\n${await screenOf(h, name)}`);
      // At once: hive_answer by the choice's words, or the keys a person presses (Down, Enter).
      if (i % 2 === 0) await h.ok("hive_answer", { agent: name, answer: "Yes, I trust this folder" });
      else await h.ok("terminal_send", { session: name, keys: ["Down", "Enter"] });
      // Judged by the program: it recorded the folder as trusted, and (once idle, as a lead
      // waits) a message typed after the dialog reached the stand-in.
      const trusted = await until(`${name}'s trust recorded`, async () => {
        const projects = (JSON.parse(readFileSync(join(home, ".claude.json"), "utf8")) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> }).projects ?? {};
        return projects[join(h.home, `untrusted-${i}`)]?.hasTrustDialogAccepted === true ? true : undefined;
      }, 20_000).catch(() => false);
      if (!trusted) {
        lost.push(`turn ${i}: ${await screenOf(h, name)}`);
        console.error(`lost: ${lost.at(-1)}`);
      } else {
        await agentIs(h, name, "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, name)}`));
        const text = `hello after trust ${i}`;
        const sent = await h.ok("hive_message", { agents: { [name]: text } });
        const reached = await until(`${text} at the stand-in`, async () => (api.turnsWith(text).length > 0 ? true : undefined), 40_000).catch(() => false);
        // Not this loop's verdict (the answer was taken): seen 2 of 24 turns at load 20+, the
        // text left in the input box with an empty line under it and reported delivered (the
        // Enter made a new line: Claude Code was still starting). Said, for docs/agents.md.
        if (!reached) console.error(`message after the trust dialog not sent (${JSON.stringify(sent)}): ${await screenOf(h, name)}`);
      }
      const waits = (await statusEvents(h, name, since)).filter((e) => e.data.status === "waiting_for_input");
      assert.match(String(waits[0]?.data.detail), /^trust prompt: Quick safety check: Is this a project you created or one you trust\? No, exit \/ Yes, I trust this folder$/, JSON.stringify(waits));
      await h.call("agent_remove", { name, close: true });
    }
    assert.deepEqual(lost, [], `answers lost in ${lost.length} of ${TRUST_RUNS} turns`);
  });
});

describe("the natural flow with the real Codex CLI: hive_wait waiting_for_input, then a key at once", { skip: missingCodex ?? false }, () => {
  const api = new ResponsesStandIn();
  const field = realField({ standIns: [api], setUp: ({ h }) => ({ env: codexEnv(join(h.home, "codex-home"), api) }) });

  test("every approval dialog takes the key sent the moment waiting is announced", { timeout: 60_000 + RUNS * 40_000 }, async () => {
    const { h, project, env } = field;
    assert.notEqual((await h.ok("agent_spawn", { name: "cx", profile: "codex", cwd: project, env })).ready, "exited");
    await agentIs(h, "cx", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cx")}`));
    const lost: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const made = join(project, `natural-cx-${i}`);
      const sent = await h.ok("hive_message", { agents: { cx: `please run: touch ${made}` } });
      assert.equal(sent.delivered + sent.queued, 1, JSON.stringify(sent));
      const w = await h.ok("hive_wait", { targets: "cx", for: "waiting_for_input", timeout_s: 60 });
      if (!w.matched) assert.fail(`cx never waited: ${JSON.stringify(w)}\n${await screenOf(h, "cx")}`);
      // Enter picks the cursor's "1. Yes, proceed", the digit 1 likewise.
      await h.ok("terminal_send", i % 2 === 0 ? { session: "cx", keys: ["Enter"] } : { session: "cx", text: "1", enter: false });
      const ran = await until(`natural-cx-${i} made`, async () => (existsSync(made) ? true : undefined), 20_000).catch(() => false);
      if (!ran) {
        lost.push(`turn ${i}: ${await screenOf(h, "cx")}`);
        console.error(`lost: ${lost.at(-1)}`);
        await h.call("hive_answer", { agent: "cx", answer: "1" });
      }
      await agentIs(h, "cx", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cx")}`));
    }
    assert.deepEqual(lost, [], `keys lost in ${lost.length} of ${RUNS} turns`);
  });
});

if (missingCodex) test(`real Codex CLI natural-flow test skipped: ${missingCodex}`, { skip: missingCodex }, () => {});
if (missing) test(`real Claude Code natural-flow test skipped: ${missing}`, { skip: missing }, () => {});
