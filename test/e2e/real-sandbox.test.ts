// Issue 26: the real Claude Code (pinned in scripts/agents), started with its own permission
// checks off (--dangerously-skip-permissions) inside termhive's sandbox, offline against the
// loopback Messages API stand-in. Judged by the filesystem, by the tool results Claude Code
// itself sent back to the stand-in, by its hooks' statuses and by the message its tool left in
// another agent's mailbox — never by what termhive says it did.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { Harness } from "./harness.js";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { waitForRequest, type RecordedRequest } from "./standins/agent-script.js";
import { agentIs, agentPath, claudeEnv, claudeUser, cursor, missingAgent, realField, screenOf, statusEvents, until } from "./real-agents.js";
import { outsideTmp } from "../temp-folder.js";

const missing = missingAgent("claude") ?? (process.platform === "linux" && findBwrap() ? null : "bubblewrap (bwrap) is not installed");

/** The text of the tool results in a request Claude Code sent after running its tool. */
function toolResultText(r: RecordedRequest): string {
  const messages = (r.body as { messages?: { role?: string; content?: unknown }[] }).messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  const blocks = Array.isArray(last?.content) ? (last.content as { type?: string; content?: unknown }[]) : [];
  return blocks.filter((b) => b.type === "tool_result").map((b) => (typeof b.content === "string" ? b.content : JSON.stringify(b.content))).join("\n");
}

describe("real Claude Code in a sandbox", { skip: missing ?? false }, () => {
  const api = new MessagesAgentStandIn();
  let root = "";
  let userHome = "";
  let sibling = "";
  const field = realField({
    standIns: [api],
    start: async () => {
      // Outside /tmp: the sandbox's /tmp is its own, and a user's HOME and projects are not there.
      root = mkdtempSync(join(outsideTmp(), "termhive-real-sandbox-"));
      userHome = join(root, "user");
      const project = join(root, "proj");
      sibling = join(root, "sibling");
      for (const dir of [userHome, project, sibling, join(userHome, ".claude")]) mkdirSync(dir, { recursive: true });
      writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
      // A user who set Claude Code up, and accepted its bypass-permissions mode once before.
      claudeUser(userHome, [project], { bypassPermissionsModeAccepted: true });
      const h = new Harness(join(root, "termhive"), { HOME: userHome, PATH: agentPath() });
      h.bare = true;
      h.cwd = root;
      await h.connect();
      return { h, project };
    },
    // IS_SANDBOX: Claude Code refuses --dangerously-skip-permissions as root otherwise (the test machine runs as root).
    setUp: () => ({ env: { ...claudeEnv(api), IS_SANDBOX: "1" } }),
  });
  // After the fixture's own after(): termhive is gone from root by then.
  after(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("with its permission checks off and no sandbox it is refused; in the worktree sandbox it starts, and its hooks report from inside", async () => {
    const { h, project, env } = field;
    const refused = await h.call("agent_spawn", { name: "boxcc", profile: "claude", command: "claude --dangerously-skip-permissions", cwd: project, env });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /--dangerously-skip-permissions.*no sandbox/);
    const since = await cursor(h);
    const spawned = await h.ok("agent_spawn", { name: "boxcc", profile: "claude", command: "claude --dangerously-skip-permissions", cwd: project, env, sandbox: "worktree" });
    assert.equal(spawned.ready, "ready", `${JSON.stringify(spawned)}\n${await screenOf(h, "boxcc")}`);
    assert.match(String(spawned.agent.sandbox), /^worktree: write .*proj, .*\.claude/);
    // The SessionStart hook ran the in-pane termhive inside the sandbox, with Claude Code's own session id.
    const start = await until("the SessionStart hook", async () =>
      (await statusEvents(h, "boxcc", since)).find((e) => e.data.source === "hook" && /SessionStart hook: session [0-9a-f-]{36}/.test(e.data.detail ?? "")))
      .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "boxcc")}`));
    assert.equal(start.data.status, "idle");
  });

  test("a turn whose tool writes inside its worktree succeeds; one writing $HOME or the folder next door fails with the shell's own error", async () => {
    const { h, project } = field;
    const inside = join(project, "made-inside.txt");
    const c = await cursor(h);
    // (The stand-in names a tool-result request by the conversation's first text: told apart by time.)
    let sentAt = Date.now();
    await h.ok("hive_message", { agents: { boxcc: `first please run: echo inside > ${inside}` } });
    const ok = await waitForRequest(() => api.requests, (r) => r.toolResult && r.at >= sentAt, "the first tool result", 60_000)
      .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "boxcc")}`));
    assert.equal(readFileSync(inside, "utf8"), "inside\n");
    assert.doesNotMatch(toolResultText(ok), /Read-only|error/i);
    await h.ok("hive_wait", { targets: "boxcc", for: "idle", timeout_s: 60 });
    // The turn's end came from the Stop hook, relayed from inside.
    await until("the Stop hook's idle", async () => (await statusEvents(h, "boxcc", c)).find((e) => e.data.source === "hook" && /Stop hook/.test(e.data.detail ?? "")));

    for (const [word, target] of [["second", join(userHome, "leak.txt")], ["third", join(sibling, "leak.txt")]] as const) {
      sentAt = Date.now();
      await h.ok("hive_message", { agents: { boxcc: `${word} please run: echo outside > ${target}` } });
      const failed = await waitForRequest(() => api.requests, (r) => r.toolResult && r.at >= sentAt, `the ${word} tool result`, 60_000)
        .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "boxcc")}`));
      assert.match(toolResultText(failed), /read-only file system/i, toolResultText(failed));
      assert.equal(existsSync(target), false, `${target} was written`);
      await h.ok("hive_wait", { targets: "boxcc", for: "idle", timeout_s: 60 });
    }
  });

  test("its tool's `termhive msg` reaches a plain agent beside it, as itself; the plain pane still writes $HOME", async () => {
    const { h } = field;
    await h.ok("agent_spawn", { name: "plainpeer", command: "bash", cwd: sibling });
    await h.ok("hive_message", { agents: { boxcc: "fourth please run: termhive msg plainpeer done in the box" } });
    const mail = await until("the message in plainpeer's mailbox", async () => {
      const r = await h.ok("hive_inbox", { agent: "plainpeer", peek: true });
      return r.messages.length ? r.messages : undefined;
    }, 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "boxcc")}`));
    assert.deepEqual(mail.map((m: { from: string; text: string }) => [m.from, m.text]), [["boxcc", "done in the box"]]);
    const plain = await h.ok("terminal_run", { session: "plainpeer", command: 'echo mine > "$HOME/plain.txt"', timeout_s: 30 });
    assert.equal(plain.exit_code, 0, plain.output);
    assert.ok(existsSync(join(userHome, "plain.txt")));
    await agentIs(h, "boxcc", "idle", 60_000);
  });
});

