// Issue 35 with the real Claude Code and Codex CLI (pinned in scripts/agents) on an ssh host: a loopback
// OpenSSH server with a HOME of its own whose sessions run under bubblewrap with the checkout
// hidden (test/fixtures/sshd), the pinned programs bound in there as the host's installed agent,
// offline against the loopback stand-ins of their APIs (reachable from the host, as a real host
// reaches its API). Judged by what reached the stand-in and by the hook payloads the program
// sent from the host (through the host's own tmux, src/shell/cli/termhive), never by what
// termhive says it did.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { ResponsesStandIn } from "./standins/openai-responses-api.js";
import { waitForRequest, type RecordedRequest } from "./standins/agent-script.js";
import { agentIs, claudeEnv, claudeUser, codexEnv, cursor, messageEvents, missingAgent, screenOf, sendFirst, statusEvents, until } from "./real-agents.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";

const noSshd = sshdAvailable() ? null : "sshd (openssh-server) is not installed: apt-get install -y openssh-server";
const claudeSkip = noSshd ?? missingAgent("claude") ?? false;
const codexSkip = noSshd ?? missingAgent("codex") ?? false;

/** The request body as sent: what the model would read. */
const bodyOf = (r: RecordedRequest) => (typeof r.body === "string" ? r.body : JSON.stringify(r.body));

describe("real Claude Code on an ssh host", { skip: claudeSkip }, () => {
  const api = new MessagesAgentStandIn();
  let host: LoopbackHost;
  let h: Harness;
  let project = "";
  let env: Record<string, string> = {};
  const remoteTmux = (...args: string[]) =>
    spawnSync("tmux", ["-S", join(host.remoteHome, ".local/state/termhive/tmux.sock"), ...args], { encoding: "utf8" });
  const spawnArgs = () => ({ name: "rcc", profile: "claude", host: host.alias, cwd: project, env, command: join(host.installed.agents, ".bin", "claude") });

  before(async () => {
    await api.start();
    host = await startLoopbackHost();
    // The user set Claude Code up on the host: its own ~/.claude.json there, the project trusted.
    project = join(host.remoteHome, "proj");
    mkdirSync(project);
    claudeUser(host.remoteHome, [project]);
    env = claudeEnv(api);
    h = await Harness.start({ TERMHIVE_SSH: host.sshCommand });
  });
  after(async () => {
    await h?.destroy();
    await host?.stop();
    await api.stop();
  });

  let sessionId = "";

  test("spawned on the host: SessionStart's hook reports idle with its session id; a message reaches the API once, delivered on the UserPromptSubmit hook's word, working then idle from its hooks", async () => {
    const since = await cursor(h);
    const spawned = await h.ok("agent_spawn", spawnArgs());
    assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
    await agentIs(h, "rcc", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "rcc")}`));
    const start = await until("the SessionStart hook from the host", async () =>
      (await statusEvents(h, "rcc", since)).find((e) => e.data.source === "hook" && /SessionStart hook: session [0-9a-f-]{36}/.test(e.data.detail ?? "")), 30_000);
    assert.equal(start.data.status, "idle");
    sessionId = /session ([0-9a-f-]{36})/.exec(start.data.detail)![1]!;
    const listed = (await h.ok("agent_list", {})).agents.find((a: { name: string }) => a.name === "rcc");
    assert.equal(listed?.host, host.alias, JSON.stringify(listed));

    const c = await cursor(h);
    const sent = await h.ok("hive_message", { agents: { rcc: "alpha remember the word PELICAN" } });
    assert.equal(sent.delivered, 1, `${JSON.stringify(sent)}\n${await screenOf(h, "rcc")}`);
    // Delivered on Claude Code's own word: its UserPromptSubmit hook, run on the host, reported this text.
    assert.equal(sent.deliveries[0].confirmedBy, "hook", JSON.stringify(sent));
    const w = await h.ok("hive_wait", { targets: "rcc", for: "idle", timeout_s: 60 });
    assert.equal(w.matched, true, JSON.stringify(w));
    const turn = api.turnsWith("alpha remember the word PELICAN");
    assert.equal(turn.length, 1, `the stand-in got the text ${turn.length} times`);
    const hookIdle = await until("the Stop hook's idle", async () =>
      (await statusEvents(h, "rcc", c)).find((e) => e.data.status === "idle" && e.data.source === "hook"));
    assert.match(hookIdle.data.detail, /Stop hook/);
    assert.ok(hookIdle.at >= turn[0]!.answeredAt!, "the Stop hook's idle came before the stand-in answered the turn");
    const seq = (await statusEvents(h, "rcc", c)).filter((e) => e.data.source === "hook").map((e) => e.data.status);
    const working = seq.indexOf("working");
    assert.ok(working !== -1 && seq.indexOf("idle", working) !== -1, `hook statuses: ${seq.join(" ")}`);
    const states = (await messageEvents(h, "rcc", c)).map((e) => e.data.state);
    assert.deepEqual(states, ["delivered"]);
  });

  test("after tmux kill-server on the host, agent_restore resumes the conversation there: the next request carries the earlier turn", async () => {
    assert.ok(sessionId, "the first test recorded no session id");
    assert.equal(remoteTmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { name: "rcc", env });
    const rcc = r.restored.find((a: { name: string }) => a.name === "rcc");
    assert.equal(rcc?.ok, true, JSON.stringify(r));
    assert.equal(rcc.resumed, true, JSON.stringify(rcc));
    assert.equal(rcc.conversation, sessionId, "not the session Claude Code reported");
    // Back on the host, in its folder, its command the resume of that session.
    const panes = remoteTmux("list-panes", "-a", "-F", "#{pane_current_path} #{pane_start_command}");
    assert.equal(panes.status, 0, panes.stderr);
    assert.ok(panes.stdout.includes(project), panes.stdout);
    await agentIs(h, "rcc", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "rcc")}`));
    const before = api.requests.length;
    const sent = await h.ok("hive_message", { agents: { rcc: "bravo which word did I ask you to remember" } });
    assert.equal(sent.delivered + sent.queued, 1, JSON.stringify(sent));
    const next = await waitForRequest(() => api.requests.slice(before), (q) => !q.side && q.userText.includes("bravo which word"), "the message after the restore", 60_000);
    assert.ok(bodyOf(next).includes("alpha remember the word PELICAN"), "the request after the restore does not carry the earlier conversation");
    assert.equal((await h.ok("hive_wait", { targets: "rcc", for: "idle", timeout_s: 60 })).matched, true);
    assert.equal(api.turnsWith("bravo which word").length, 1);
  });
});

describe("real Codex CLI on an ssh host", { skip: codexSkip }, () => {
  const api = new ResponsesStandIn();
  let host: LoopbackHost;
  let h: Harness;
  let project = "";
  let env: Record<string, string> = {};
  const remoteTmux = (...args: string[]) =>
    spawnSync("tmux", ["-S", join(host.remoteHome, ".local/state/termhive/tmux.sock"), ...args], { encoding: "utf8" });

  before(async () => {
    await api.start();
    host = await startLoopbackHost();
    project = join(host.remoteHome, "proj");
    mkdirSync(project);
    // CODEX_HOME on the host, its config sending every request to the stand-in.
    env = codexEnv(join(host.remoteHome, "codex-home"), api);
    h = await Harness.start({ TERMHIVE_SSH: host.sshCommand });
  });
  after(async () => {
    await h?.destroy();
    await host?.stop();
    await api.stop();
  });

  test("spawned on the host: a message reaches the API once, working then idle from its own hooks; after tmux kill-server there, agent_restore resumes the thread its hooks named", async () => {
    const spawned = await h.ok("agent_spawn", { name: "rcx", profile: "codex", host: host.alias, cwd: project, env, command: join(host.installed.agents, ".bin", "codex") });
    assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
    await agentIs(h, "rcx", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "rcx")}`));
    const c = await cursor(h);
    const sent = await h.ok("hive_message", { agents: { rcx: "alpha remember the word HERON" } });
    assert.equal(sent.delivered + sent.queued, 1, `${JSON.stringify(sent)}\n${await screenOf(h, "rcx")}`);
    const hookIdle = await until("the idle from Codex's Stop hook on the host", async () =>
      (await statusEvents(h, "rcx", c)).find((e) => e.data.status === "idle" && e.data.source === "hook"), 60_000);
    const turn = api.turnsWith("alpha remember the word HERON");
    assert.equal(turn.length, 1, `the stand-in got the text ${turn.length} times`);
    assert.ok(hookIdle.at >= turn[0]!.answeredAt!, "the Stop hook's idle came before the stand-in answered the turn");
    const seq = (await statusEvents(h, "rcx", c)).filter((e) => e.data.source === "hook").map((e) => e.data.status);
    assert.ok(seq.indexOf("working") !== -1 && seq.indexOf("idle", seq.indexOf("working")) !== -1, `hook statuses: ${seq.join(" ")}`);

    assert.equal(remoteTmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { name: "rcx", env });
    const rcx = r.restored.find((a: { name: string }) => a.name === "rcx");
    assert.equal(rcx?.resumed, true, JSON.stringify(r));
    // The thread Codex itself recorded on the host (its rollout file's name ends with the id).
    const rollouts = spawnSync("find", [join(env.CODEX_HOME!, "sessions"), "-name", "rollout-*.jsonl"], { encoding: "utf8" }).stdout.trim().split("\n");
    assert.deepEqual(rollouts.map((f) => /-([0-9a-f-]{36})\.jsonl$/.exec(f)?.[1]), [rcx.conversation], "not the thread Codex recorded");
    // Resumed: the earlier turn back on its screen (a text typed while the resumed Codex still
    // loads does not show in its composer), then idle.
    await until("the resumed thread on rcx's screen", async () => (/alpha remember the word HERON/.test(await screenOf(h, "rcx")) ? true : undefined), 60_000)
      .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "rcx")}`));
    await agentIs(h, "rcx", "idle", 60_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "rcx")}`));
    const before = api.requests.length;
    await sendFirst(h, "rcx", "bravo which word did I ask you to remember");
    const next = await waitForRequest(() => api.requests.slice(before), (q) => !q.side && q.userText.includes("bravo which word"), "the message after the restore", 60_000);
    assert.ok(bodyOf(next).includes("alpha remember the word HERON"), "the request after the restore does not carry the earlier conversation");
  });
});

if (claudeSkip) test(`real Claude Code on an ssh host skipped: ${claudeSkip}`, { skip: claudeSkip }, () => {});
if (codexSkip) test(`real Codex CLI on an ssh host skipped: ${codexSkip}`, { skip: codexSkip }, () => {});
