// Issue 25 §2: hive_answer against the real Claude Code (pinned in scripts/agents), offline
// against the loopback Messages API stand-in. A user who keeps manual permission mode gets
// Claude Code 2.1.332's start-up question, then a permission dialog for a Bash tool call.
// Judged by what Claude Code did: the stand-in got the tool's result, the command's file exists;
// and a stale digest leaves both untouched.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { waitForRequest } from "./standins/agent-script.js";
import { agentIs, agentPath, missingAgent, projectDir, screenOf, statusEvents, until, writeJson } from "./real-agents.js";

const missing = missingAgent("claude");
const KEY = "sk-ant-standin-key-0123456789";

type Question = { digest: string; text: string; choices: string[] };

describe("hive_answer with the real Claude Code", { skip: missing ?? false }, () => {
  let h: Harness;
  const api = new MessagesAgentStandIn();
  let project: string;
  let home: string;

  before(async () => {
    await api.start();
    h = await Harness.startField({ PATH: agentPath() });
    project = projectDir(h, "proj");
    home = projectDir(h, "manual-user");
    writeJson(join(home, ".claude.json"), {
      hasCompletedOnboarding: true,
      theme: "dark",
      customApiKeyResponses: { approved: [KEY.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true } },
    });
    writeJson(join(home, ".claude", "settings.json"), { permissions: { defaultMode: "default" } });
  });
  after(async () => {
    await h?.destroy();
    await api.stop();
  });

  /** The question agent_list shows for the agent, once it shows one matching `text`. */
  const questionOf = (name: string, text: RegExp): Promise<Question> =>
    until(`${name}'s question ${text}`, async () => {
      const a = (await h.ok("agent_list", {})).agents.find((x: { name: string }) => x.name === name);
      const q = a?.question as Question | null | undefined;
      return q && text.test(`${q.text} ${q.choices.join(" / ")}`) ? q : undefined;
    }).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, name)}`));

  test("the start-up question by label; a permission dialog: a stale digest is refused, then yes lets the tool run", async () => {
    const spawned = await h.ok("agent_spawn", { name: "cc", profile: "claude", cwd: project, env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: KEY, DISABLE_AUTOUPDATER: "1", HOME: home } });
    assert.notEqual(spawned.ready, "exited", JSON.stringify(spawned));
    const startUp = await questionOf("cc", /auto mode/i);
    assert.ok(startUp.choices.some((c) => /keep manual mode/.test(c)), JSON.stringify(startUp));
    const kept = await h.ok("hive_answer", { agent: "cc", answer: "No, keep manual mode", question: startUp.digest });
    assert.equal(kept.gone, true, JSON.stringify(kept));
    await agentIs(h, "cc", "idle").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cc")}`));

    const made = join(project, "made-by-claude");
    assert.equal((await h.ok("hive_message", { agents: { cc: `please run: touch ${made}` } })).delivered, 1);
    const permission = await questionOf("cc", /Do you want to proceed\?/);
    assert.match(permission.choices[0] ?? "", /^1\. Yes/);
    const events = await statusEvents(h, "cc", 0);
    assert.ok(events.some((e) => e.data.question === permission.digest), `hive_events carries the digest: ${JSON.stringify(events.map((e) => e.data))}`);

    const stale = await h.call("hive_answer", { agent: "cc", answer: "yes", question: startUp.digest });
    assert.equal(stale.isError, true, stale.text);
    assert.match(stale.text, /no longer the one you saw.*Nothing was typed/);
    assert.equal((await questionOf("cc", /Do you want to proceed\?/)).digest, permission.digest, "the dialog is still up, unanswered");
    assert.equal(existsSync(made), false, "the command ran after a refused answer");
    assert.equal(api.requests.filter((r) => r.toolResult).length, 0, "the stand-in got a tool result after a refused answer");

    const allowed = await h.ok("hive_answer", { agent: "cc", answer: "yes", question: permission.digest });
    assert.equal(allowed.choice, "1. Yes", JSON.stringify(allowed));
    await waitForRequest(() => api.requests, (r) => !r.side && r.toolResult && r.userText.includes("please run"), "the tool's result", 40_000)
      .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cc")}`));
    assert.equal(existsSync(made), true, "the allowed command did not run");
    assert.equal(allowed.gone, true, JSON.stringify(allowed));
  });
});

if (missing) test(`real Claude Code hive_answer test skipped: ${missing}`, { skip: missing }, () => {});
