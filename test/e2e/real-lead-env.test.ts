// Issue 23 "done when": the real Claude Code and Codex spawned from a termhive that was itself
// started the way Claude Code starts an MCP stdio server — CLAUDECODE=1, the lead's
// CLAUDE_CODE_SESSION_ID, CLAUDE_CODE_ENTRYPOINT, CLAUDE_PROJECT_DIR, its messaging socket and
// token (names from the 2.1.332 binary) — plus a Codex thread id. Each teammate must run as its
// own session, not inside the lead's: judged by the environment of the agents' own processes
// (/proc/<pid>/environ), by the session id Claude Code's own SessionStart hook reported, and by
// what reached the stand-ins (each message exactly once), never by what termhive says.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Harness } from "./harness.js";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { ResponsesStandIn } from "./standins/openai-responses-api.js";
import { waitForRequest } from "./standins/agent-script.js";
import { LEAD_ENV, LEAD_SESSION, agentIs, claudeEnv, claudeUser, codexEnv, cursor, missingAgent, realField, screenOf, statusEvents, until } from "./real-agents.js";

const missing = missingAgent("claude") ?? missingAgent("codex");
/** Each process's parent. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of stat, after the command name in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch { /* the process ended meanwhile */ }
  }
  return parentOf;
}

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();

/**
 * Where the lead's session shows in the agent's pane: any of its variables in the environment
 * the agent program was started with (the program and the processes the pane ran to start
 * it), and any of the lead's own values (session id, socket, token, project, thread id)
 * anywhere in the pane, the processes the agent starts included. (The agent gives its own
 * children CLAUDECODE=1 and its own session's variables: those are its, not the lead's.)
 */
function leadSessionIn(h: Harness, session: string, program: RegExp): string[] {
  const panes = h.tmux("list-panes", "-a", "-F", "#{pane_pid}|#{window_name}|#{@termhive_title}").stdout.trim().split("\n");
  const pane = panes.map((l) => l.split("|")).find(([, window, title]) => window === session || title === session);
  assert.ok(pane, `no tmux pane for ${session}: ${panes.join(" ; ")}`);
  const parentOf = parents();
  const tree = [Number(pane[0])];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parentOf) if (ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  const agent = tree.find((pid) => { try { return program.test(commandOf(pid)); } catch { return false; } });
  assert.ok(agent, `the agent program is not running in ${session}'s pane`);
  const startedWith = [agent];
  while (startedWith.at(-1) !== tree[0]) startedWith.push(parentOf.get(startedWith.at(-1)!)!);
  const leadValues = Object.entries(LEAD_ENV).filter(([, v]) => v.length > 3).map(([n, v]) => `${n}=${v}`);
  const found: string[] = [];
  for (const pid of tree) {
    try {
      const environ = environOf(pid);
      const names = startedWith.includes(pid) ? Object.keys(LEAD_ENV).filter((n) => environ.some((e) => e.startsWith(`${n}=`))) : [];
      const values = leadValues.filter((nv) => environ.includes(nv));
      for (const hit of new Set([...names, ...values])) found.push(`${pid} (${commandOf(pid).slice(0, 60)}): ${hit}`);
    } catch { /* the process ended meanwhile */ }
  }
  return found;
}

describe("real agents spawned from a termhive started with Claude Code's MCP-server environment", { skip: missing ?? false }, () => {
  const claudeApi = new MessagesAgentStandIn();
  const codexApi = new ResponsesStandIn();
  const field = realField({ standIns: [claudeApi, codexApi], serverEnv: LEAD_ENV, setUp: ({ h, project }) => claudeUser(h.env.HOME!, [project]) });

  /** Sends one message and checks: it reached the stand-in once, and the agent went working then idle. */
  async function oneTurn(name: string, api: MessagesAgentStandIn | ResponsesStandIn, text: string): Promise<void> {
    const { h } = field;
    const since = await cursor(h);
    const sent = await h.ok("hive_message", { agents: { [name]: text } });
    // Typed at once, or queued for the moment after start-up when the agent is next idle.
    assert.equal(sent.delivered + sent.queued, 1, JSON.stringify(sent));
    await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes(text), `"${text}"`, 40_000)
      .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, name)}`));
    const w = await h.ok("hive_wait", { targets: name, for: "idle", timeout_s: 40 });
    assert.equal(w.matched, true, `${JSON.stringify(w)}\n${await screenOf(h, name)}`);
    const turns = api.turnsWith(text);
    assert.equal(turns.length, 1, `the stand-in got the text ${turns.length} times`);
    const statuses = (await statusEvents(h, name, since)).map((e) => e.data.status);
    const working = statuses.indexOf("working");
    assert.ok(working >= 0 && statuses.indexOf("idle", working) > working, `not working then idle: ${statuses.join(" ")}`);
  }

  test("Claude Code starts as its own session (not nested in the lead's), takes one message once, working then idle", async () => {
    const { h, project } = field;
    const since = await cursor(h);
    const env = claudeEnv(claudeApi);
    const spawned = await h.ok("agent_spawn", { name: "cc", profile: "claude", cwd: project, env });
    assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
    await agentIs(h, "cc", "idle").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cc")}`));
    // Claude Code's own hook says which session it is: a new one, not the lead's.
    const start = await until("the SessionStart hook", async () =>
      (await statusEvents(h, "cc", since)).find((e) => e.data.source === "hook" && /SessionStart hook: session [0-9a-f-]{36}/.test(e.data.detail ?? "")));
    assert.doesNotMatch(start.data.detail, new RegExp(LEAD_SESSION), "Claude Code joined the lead's session");
    const leaked = leadSessionIn(h, "cc", /claude/);
    assert.deepEqual(leaked, [], "a process of the teammate runs with the lead's session identity");
    await oneTurn("cc", claudeApi, "alpha from the lead");
  });

  test("Codex starts without the lead's thread id, takes one message once, working then idle from its main thread", async () => {
    const { h, project } = field;
    const spawned = await h.ok("agent_spawn", { name: "cx", profile: "codex", cwd: project, env: codexEnv(join(h.home, "codex-home"), codexApi) });
    assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
    await agentIs(h, "cx", "idle").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cx")}`));
    const leaked = leadSessionIn(h, "cx", /codex/);
    assert.deepEqual(leaked, [], "a process of the teammate runs with the lead's session identity");
    await oneTurn("cx", codexApi, "bravo from the lead");
  });
});

if (missing) test(`real agents from a lead's environment skipped: ${missing}`, { skip: missing }, () => {});
