// Issue 32 §1: the natural flow against the real Claude Code and Codex (pinned in scripts/agents), offline
// against the loopback Messages API stand-in, for a user who keeps manual permission mode:
// `hive_wait {for: "waiting_for_input"}`, then at once a key — the way a lead agent or a person
// drives it. Claude Code runs its PermissionRequest hook before it draws the dialog, and the
// dialog takes keys only a moment after it is drawn: a key sent on the first word of
// "waiting" used to land in the empty input box (or in a dialog not yet listening) and be lost.
// Judged by what Claude Code did: the command's file exists, the stand-in got each tool result.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { ResponsesStandIn } from "./standins/openai-responses-api.js";
import { agentIs, claudeEnv, claudeUser, codexEnv, missingAgent, projectDir, realField, screenOf, until, writeJson } from "./real-agents.js";

const missing = missingAgent("claude");
const missingCodex = missingAgent("codex");
/** Turns per dialog kind (the figure is 20 of 20: TERMHIVE_NATURAL_RUNS=20). */
const RUNS = Number(process.env.TERMHIVE_NATURAL_RUNS ?? 4);

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
