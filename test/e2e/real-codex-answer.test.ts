// Issue 25 §2: hive_answer against the real Codex CLI (pinned in scripts/agents), offline
// against the loopback Responses API stand-in, approval policy on-request: a command that
// leaves the sandbox asks first. Judged by what Codex did: the command's file, and the
// stand-in getting the command's output back.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ResponsesStandIn } from "./standins/openai-responses-api.js";
import { waitForRequest } from "./standins/agent-script.js";
import { agentIs, sendFirst, codexEnv, missingAgent, realField, screenOf, until } from "./real-agents.js";

const missing = missingAgent("codex");

type Question = { digest: string; text: string; choices: string[] };

describe("hive_answer with the real Codex CLI", { skip: missing ?? false }, () => {
  const api = new ResponsesStandIn();
  const field = realField({ standIns: [api], setUp: ({ h }) => ({ env: codexEnv(join(h.home, "codex-home"), api) }) });

  test("an approval question answered yes by its digest: the command runs and its output reaches the model", async () => {
    const { h, project, env } = field;
    assert.equal((await h.ok("agent_spawn", { name: "cx", profile: "codex", cwd: project, env })).ready, "ready");
    await agentIs(h, "cx", "idle");
    const made = join(project, "made-by-codex-answer");
    // Typed at once, or queued while Codex 0.171 still animates its start-up screen and typed when it is still.
    await sendFirst(h, "cx", `please run: touch ${made}`);
    const q = await until("cx's approval question", async () => {
      const a = (await h.ok("agent_list", {})).agents.find((x: { name: string }) => x.name === "cx");
      const question = a?.question as Question | null | undefined;
      return question && question.choices.some((c) => /Yes, proceed/.test(c)) ? question : undefined;
    }).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cx")}`));
    assert.equal(existsSync(made), false);
    const r = await h.ok("hive_answer", { agent: "cx", answer: "yes", question: q.digest });
    assert.match(r.choice ?? "", /^1\. Yes, proceed/, JSON.stringify(r));
    await until("the approved command's file", async () => (existsSync(made) ? true : undefined)).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cx")}`));
    await waitForRequest(() => api.requests, (r) => !r.side && r.toolResult, "the command's output", 40_000);
    assert.equal(r.gone, true, JSON.stringify(r));
  });
});

if (missing) test(`real Codex CLI hive_answer test skipped: ${missing}`, { skip: missing }, () => {});
