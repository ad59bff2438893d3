// Issue 23's bench (`npm run bench hive-real`): the real Claude Code and Codex CLI (pinned in
// scripts/agents) under the hive, offline against the test stand-ins of their APIs. Per agent,
// for turns of 1 s: message sent → the hive says working; the turn's real end (the stand-in
// finished streaming the answer) → the hive says idle, and → the agent's own hook reported it.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { benchHome, loadavg, median, round, startServer, type Emit, type Server } from "./common.js";
import { MessagesAgentStandIn } from "../test/e2e/standins/anthropic-agent-api.js";
import { ResponsesStandIn } from "../test/e2e/standins/openai-responses-api.js";
import type { RecordedRequest } from "../test/e2e/standins/agent-script.js";
import { dialogProject, dialogTurns } from "./hive-dialogs.js";

const TURNS = Number(process.env.BENCH_REAL_TURNS ?? 10);
const BIN = resolve("scripts/agents/node_modules/.bin");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type StandIn = { requests: RecordedRequest[]; turnsWith(text: string): RecordedRequest[] };

async function poll<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(20);
  }
}

async function turns(emit: Emit, s: Server, agent: string, api: StandIn): Promise<void> {
  const toWorking: number[] = [];
  const toIdle: number[] = [];
  const toHook: number[] = [];
  await s.call("hive_wait", { targets: agent, for: "idle", timeout_s: 60 });
  for (let i = 0; i < TURNS; i++) {
    await s.call("hive_wait", { targets: agent, for: "idle", timeout_s: 60 });
    const since = (await s.call("hive_events", { since: 0, limit: 1000 })).cursor as number;
    const text = `bench turn ${i} sleep 1`;
    const sent = Date.now();
    await s.call("hive_message", { agents: { [agent]: text } });
    await s.call("hive_wait", { targets: agent, for: "idle", timeout_s: 60 });
    const idleSeen = Date.now();
    const turn = await poll(async () => api.turnsWith(text).find((r) => r.answeredAt !== undefined));
    const events = async () => (await s.call("hive_events", { since, targets: agent, kinds: ["status"], limit: 1000 })).events as { at: number; data: Record<string, any> }[];
    const hook = await poll(async () => (await events()).find((e) => e.data.status === "idle" && e.data.source === "hook" && e.at >= turn.answeredAt!), 10_000).catch(() => undefined);
    const working = (await events()).find((e) => e.data.status === "working");
    if (working) toWorking.push(working.at - sent);
    toIdle.push(idleSeen - turn.answeredAt!);
    if (hook) toHook.push(hook.at - turn.answeredAt!);
  }
  emit({
    bench: `hive-real ${agent}: message → working, turn end → idle`, unit: "ms", turns: TURNS,
    message_to_working_median: round(median(toWorking)), turn_end_to_idle_wait_median: round(median(toIdle)),
    turn_end_to_hook_idle_median: toHook.length ? round(median(toHook)) : null, hook_idles: toHook.length, loadavg: loadavg(),
    method: "hive_message of a 1 s turn → first working status event; the stand-in's end of the answer → hive_wait {for: idle} returns; → the hook's idle event",
  });
}

export async function benchHiveReal(emit: Emit): Promise<void> {
  if (!existsSync(join(BIN, "claude")) || !existsSync(join(BIN, "codex"))) {
    emit({ bench: "hive-real", skipped: `the real agents are not installed in ${BIN} (npm ci --prefix scripts/agents)` });
    return;
  }
  const h = benchHome();
  h.env.PATH = `${BIN}:${h.env.PATH ?? ""}`;
  const claudeApi = new MessagesAgentStandIn();
  const codexApi = new ResponsesStandIn();
  await claudeApi.start();
  await codexApi.start();
  const s = await startServer(h);
  try {
    const project = join(h.home, "proj");
    mkdirSync(project);
    const key = "sk-ant-standin-key-0123456789";
    writeFileSync(join(h.env.HOME!, ".claude.json"), JSON.stringify({
      hasCompletedOnboarding: true, customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] }, projects: { [project]: { hasTrustDialogAccepted: true } },
    }));
    const codexHome = join(h.home, "codex-home");
    mkdirSync(codexHome);
    writeFileSync(join(codexHome, "config.toml"), `model = "gpt-5.1-codex"\nmodel_provider = "standin"\n[model_providers.standin]\nname = "standin"\nbase_url = "${codexApi.url}"\nwire_api = "responses"\nenv_key = "STANDIN_KEY"\n`);
    await s.call("agent_spawn", { name: "claude", profile: "claude", cwd: project, env: { ANTHROPIC_BASE_URL: claudeApi.url, ANTHROPIC_API_KEY: key } });
    await s.call("agent_spawn", { name: "codex", profile: "codex", cwd: project, env: { STANDIN_KEY: "k", CODEX_HOME: codexHome } });
    await turns(emit, s, "claude", claudeApi);
    await turns(emit, s, "codex", codexApi);
    // Dialogs (issue 32): a Claude Code user who keeps manual mode, a Codex that asks on request.
    const dialogs = dialogProject(h.home);
    const manualHome = join(h.home, "manual-user");
    mkdirSync(join(manualHome, ".claude"), { recursive: true });
    writeFileSync(join(manualHome, ".claude.json"), JSON.stringify({
      hasCompletedOnboarding: true, customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] }, projects: { [dialogs]: { hasTrustDialogAccepted: true } },
    }));
    writeFileSync(join(manualHome, ".claude", "settings.json"), JSON.stringify({ permissions: { defaultMode: "default" } }));
    writeFileSync(join(codexHome, "config.toml"), `model = "gpt-5.1-codex"\nmodel_provider = "standin"\napproval_policy = "on-request"\nsandbox_mode = "workspace-write"\n[model_providers.standin]\nname = "standin"\nbase_url = "${codexApi.url}"\nwire_api = "responses"\nenv_key = "STANDIN_KEY"\n`);
    await s.call("agent_spawn", { name: "claude-asks", profile: "claude", cwd: dialogs, env: { ANTHROPIC_BASE_URL: claudeApi.url, ANTHROPIC_API_KEY: key, HOME: manualHome } });
    // Its start-up question ("Make auto mode your default…?"): kept manual.
    await s.call("hive_wait", { targets: "claude-asks", for: "waiting_for_input", timeout_s: 60 });
    await s.call("hive_answer", { agent: "claude-asks", answer: "No, keep manual mode" });
    await dialogTurns(emit, s, "claude-asks", dialogs, /Do you want to proceed\?/);
    await s.call("agent_spawn", { name: "codex-asks", profile: "codex", cwd: dialogs, env: { STANDIN_KEY: "k", CODEX_HOME: codexHome } });
    await dialogTurns(emit, s, "codex-asks", dialogs, /Would you like to run the following command\?/);
  } finally {
    await s.stop();
    await claudeApi.stop();
    await codexApi.stop();
  }
}
