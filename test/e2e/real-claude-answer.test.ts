// Issue 25 §2: hive_answer against the real Claude Code (pinned in scripts/agents), offline
// against the loopback Messages API stand-in. A user who keeps manual permission mode gets
// Claude Code 2.1.332's start-up question, then a permission dialog for a Bash tool call.
// Judged by what Claude Code did: the stand-in got the tool's result, the command's file exists;
// and a stale digest leaves both untouched.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { waitForRequest } from "./standins/agent-script.js";
import { BUILTIN_PROFILES } from "../../src/hive/programs/builtin-profiles.js";
import { agentIs, claudeEnv, claudeUser, missingAgent, projectDir, realField, screenOf, statusEvents, until, writeJson } from "./real-agents.js";
import { tempFolder } from "../temp-folder.js";

const missing = missingAgent("claude");

type Question = { digest: string; text: string; choices: string[] };

/** "claudewait": the claude built-in whose PermissionRequest hook holds the request open 60 s for the hive. */
function waitingHookProfile(): string {
  const hooks = BUILTIN_PROFILES.claude!.hooks!;
  const events = hooks.events.map((e) => (e.event === "PermissionRequest" ? { ...e, wait_s: 60 } : e));
  const file = `${tempFolder("termhive-profiles-")}/profiles.json`;
  writeFileSync(file, JSON.stringify({ profiles: { claudewait: { extends: "claude", hooks: { ...hooks, events } } } }));
  return file;
}

describe("hive_answer with the real Claude Code", { skip: missing ?? false }, () => {
  const api = new MessagesAgentStandIn();
  const field = realField({
    standIns: [api],
    serverEnv: () => ({ TERMHIVE_PROFILES: waitingHookProfile() }),
    setUp: ({ h, project }) => {
      const home = projectDir(h, "manual-user");
      claudeUser(home, [project]);
      writeJson(join(home, ".claude", "settings.json"), { permissions: { defaultMode: "default" } });
      return { home };
    },
  });

  /** The question agent_list shows for the agent, once it shows one matching `text`. */
  const questionOf = (name: string, text: RegExp): Promise<Question> =>
    until(`${name}'s question ${text}`, async () => {
      const a = (await field.h.ok("agent_list", {})).agents.find((x: { name: string }) => x.name === name);
      const q = a?.question as Question | null | undefined;
      return q && text.test(`${q.text} ${q.choices.join(" / ")}`) ? q : undefined;
    }).catch(async (e) => assert.fail(`${e}\n${await screenOf(field.h, name)}`));

  test("the start-up question by label; a permission dialog: a stale digest is refused, then yes lets the tool run", async () => {
    const { h, project, home } = field;
    const spawned = await h.ok("agent_spawn", { name: "cc", profile: "claude", cwd: project, env: { ...claudeEnv(api), HOME: home } });
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

  test("a PermissionRequest hook that waits: the request is answered through it, with nothing typed into a dialog", async () => {
    const { h, project, home } = field;
    const env = { ...claudeEnv(api), HOME: home };
    await h.ok("agent_spawn", { name: "ccw", profile: "claudewait", cwd: project, env });
    // (The start-up question was answered for this HOME by the test before: manual mode is kept.)
    await agentIs(h, "ccw", "idle").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "ccw")}`));

    const made = join(project, "made-through-the-hook");
    const before = api.requests.filter((r) => r.toolResult).length;
    assert.equal((await h.ok("hive_message", { agents: { ccw: `please run: touch ${made}` } })).delivered, 1);
    const ask = await questionOf("ccw", /^Allow Bash: touch .*made-through-the-hook\?/);
    assert.deepEqual(ask.choices, ["1. Yes", "2. No"]);
    // Claude Code 2.1.332 draws its dialog while the hook runs; the answer goes through the hook.
    const events = await statusEvents(h, "ccw", 0);
    assert.ok(events.some((e) => e.data.source === "hook" && e.data.question === ask.digest), JSON.stringify(events.map((e) => e.data)));

    const stale = await h.call("hive_answer", { agent: "ccw", answer: "yes", question: "0123456789ab" });
    assert.equal(stale.isError, true, stale.text);
    assert.match(stale.text, /no longer the one you saw/);
    assert.equal(existsSync(made), false);

    const allowed = await h.ok("hive_answer", { agent: "ccw", answer: "yes", question: ask.digest });
    assert.deepEqual(allowed.typed, { hook: "allow" }, JSON.stringify(allowed));
    await waitForRequest(() => api.requests.slice(0), (r) => !r.side && r.toolResult && r.userText.includes("made-through-the-hook"), "the tool's result", 40_000)
      .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "ccw")}`));
    assert.equal(existsSync(made), true, "the allowed command did not run");
    assert.equal(allowed.gone, true, JSON.stringify(allowed));
    assert.equal(api.requests.filter((r) => r.toolResult).length, before + 1);
    // The hook's decision closed the dialog: nothing was left on it to answer by keys.
    await agentIs(h, "ccw", "idle").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "ccw")}`));
  });
});

if (missing) test(`real Claude Code hive_answer test skipped: ${missing}`, { skip: missing }, () => {});
