// The real agent programs under the hive (issue 23): where the pinned binaries are, the
// private HOME each test gives them (so nothing of the machine's own login or settings is
// used), the before/after every real-*.test.ts shares (realField), and small probes shared by
// those files. The programs run offline against the loopback stand-ins in standins/.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { Harness } from "./harness.js";
import type { HiveEvent } from "./fake-agent-log.js";

export const AGENTS_BIN = resolve("scripts/agents/node_modules/.bin");

/** Why the real program cannot run here (the test then skips saying so), or null. */
export function missingAgent(program: "claude" | "codex"): string | null {
  const bin = join(AGENTS_BIN, program);
  if (process.env.TERMHIVE_SKIP_REAL_AGENTS) return `TERMHIVE_SKIP_REAL_AGENTS is set`;
  if (!existsSync(bin)) return `${bin} is not installed (npm ci --prefix scripts/agents; scripts/run-tests.mjs does it for real-*.test.ts)`;
  const r = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 30_000, env: { ...process.env, HOME: "/nonexistent-home" } });
  if (r.status !== 0) return `${bin} --version failed: ${(r.stderr || r.error?.message || "").trim().split("\n")[0]}`;
  return null;
}

export const LEAD_SESSION = "0b7c1e9a-5d2f-4c3b-9a8e-1f2d3c4b5a69";
const LEAD_PROJECT = "/tmp/the-lead-s-project";

/** What Claude Code 2.1.332 gives the MCP stdio servers it starts, and a Codex thread id. */
export const LEAD_ENV: Readonly<Record<string, string>> = {
  CLAUDECODE: "1",
  CLAUDE_CODE_SESSION_ID: LEAD_SESSION,
  CLAUDE_CODE_ENTRYPOINT: "cli",
  CLAUDE_PROJECT_DIR: LEAD_PROJECT,
  CLAUDE_CODE_MESSAGING_SOCKET: "/tmp/cc-socks/4242.sock",
  CLAUDE_CODE_MESSAGING_TOKEN: "lead-messaging-token",
  CODEX_THREAD_ID: "019a0000-lead-thread-0000-000000000000",
};

/**
 * The ways the tests start termhive, each suite run under both: as a plain client starts it
 * (bare env), and as Claude Code starts its MCP stdio servers (its session's variables; issue
 * 23 "done when": every behaviour holds there too).
 */
export interface StartedBy {
  label: string;
  env: Readonly<Record<string, string>>;
}
export const STARTED_BY: readonly StartedBy[] = [
  { label: "a plain client", env: {} },
  { label: "Claude Code, as its MCP server", env: LEAD_ENV },
];

/** PATH for the termhive server (and so the panes): the pinned programs first. */
export function agentPath(): string {
  return `${AGENTS_BIN}:${process.env.PATH ?? "/usr/bin:/bin"}`;
}

/** A project folder for the agent to work in, inside the test's home. */
export function projectDir(h: Harness, name: string): string {
  const dir = join(h.home, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** What a real-agent test starts before termhive and stops after it: its API stand-ins. */
export interface StandIn {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The fixture's fields, filled in by its before(): read them inside the tests. */
export interface RealField {
  /** The termhive under test. */
  h: Harness;
  /** The folder the agents work in ("proj" in the test's home unless `start` says otherwise). */
  project: string;
}

export interface RealFieldOptions<Extra> {
  /** Started (in this order) before termhive, stopped after it is destroyed. */
  standIns: readonly StandIn[];
  /** termhive's variables besides PATH (the pinned programs first); a function is called in before(). */
  serverEnv?: Readonly<Record<string, string>> | (() => Record<string, string>);
  /** Starts termhive some other way than Harness.startField (then serverEnv is not used). */
  start?: () => Promise<RealField>;
  /** The file's own set-up once termhive runs; what it returns joins the fixture's fields. */
  setUp?: (field: RealField) => Extra | void;
}

/**
 * The before/after every real-agent describe block shares: the stand-ins started, termhive
 * started as a plain client starts it (Harness.startField: bare env) with the pinned agent
 * programs on its PATH, a project folder; afterwards termhive destroyed (its tmux server
 * ended, its folders removed), then the stand-ins stopped. Call it inside the describe: it
 * registers that block's node:test hooks (a file's own later after() runs after these).
 */
export function realField<Extra extends object = object>(options: RealFieldOptions<Extra>): RealField & Extra {
  const field = {} as RealField & Extra;
  before(async () => {
    for (const standIn of options.standIns) await standIn.start();
    Object.assign(field, options.start ? await options.start() : await startField(options.serverEnv));
    Object.assign(field, options.setUp?.(field));
  });
  after(async () => {
    await field.h?.destroy();
    for (const standIn of options.standIns) await standIn.stop();
  });
  return field;
}

async function startField(serverEnv: RealFieldOptions<unknown>["serverEnv"] = {}): Promise<RealField> {
  const h = await Harness.startField({ PATH: agentPath(), ...(typeof serverEnv === "function" ? serverEnv() : serverEnv) });
  return { h, project: projectDir(h, "proj") };
}

export function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
}

export type Agent = { name: string; status: string; source: string; detail: string | null };

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const value = await probe().catch((e) => ((last = e), undefined));
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function agentNamed(h: Harness, name: string): Promise<Agent> {
  return (await h.ok("agent_list", {})).agents.find((a: Agent) => a.name === name);
}

export function agentIs(h: Harness, name: string, status: string, timeoutMs = 30_000): Promise<Agent> {
  return until(`${name} ${status}`, async () => {
    const a = await agentNamed(h, name);
    return a?.status === status ? a : undefined;
  }, timeoutMs);
}

export async function statusEvents(h: Harness, name: string, since: number): Promise<HiveEvent[]> {
  return (await h.ok("hive_events", { since, targets: name, kinds: ["status"], limit: 1000 })).events;
}

export async function messageEvents(h: Harness, name: string, since: number): Promise<HiveEvent[]> {
  return (await h.ok("hive_events", { since, targets: name, kinds: ["message"], limit: 1000 })).events;
}

export async function cursor(h: Harness): Promise<number> {
  let since = 0;
  for (;;) {
    const r = await h.ok("hive_events", { since, limit: 1000 });
    if (!r.more) return r.cursor;
    since = r.cursor;
  }
}

/** The screen of an agent's pane (for failure messages). */
export async function screenOf(h: Harness, name: string): Promise<string> {
  const r = await h.call("terminal_read", { session: name, mode: "screen" });
  return r.text;
}

/** hive_message's delivered count; on anything but 1, the result and the screen are printed with the failure. */
export async function sentOnce(h: Harness, name: string, args: Record<string, unknown>): Promise<number> {
  const r = await h.ok("hive_message", args);
  if (r.delivered !== 1) console.error(`hive_message to ${name}: ${JSON.stringify(r)}\n${await screenOf(h, name)}`);
  return r.delivered;
}

/**
 * The first message after spawn: typed at once, or queued while the start-up screen still
 * moves (Codex 0.169 animates its logo for a while after its composer is up: "output is
 * changing" reads as working) and typed when it is still. Returns once it was typed and taken
 * (its delivered event), so a hive_wait after it waits for its turn.
 */
export async function sendFirst(h: Harness, name: string, text: string): Promise<void> {
  const since = await cursor(h);
  const r = await h.ok("hive_message", { agents: { [name]: text } });
  if (r.delivered + r.queued !== 1) assert.fail(`hive_message to ${name}: ${JSON.stringify(r)}\n${await screenOf(h, name)}`);
  if (r.queued === 1) {
    await until(`the queued text typed into ${name}`, async () => (await messageEvents(h, name, since)).find((e) => e.data.state === "delivered"), 40_000)
      .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, name)}`));
  }
}

/** The API key Claude Code is given for the stand-in (it shows the key's last 20 characters when it asks about it). */
const CLAUDE_KEY = "sk-ant-standin-key-0123456789";

/**
 * A user who set Claude Code up in `home`: onboarding done, the stand-in's key approved, the
 * `trusted` folders trusted; `extra` adds fields (a mode accepted before, …).
 */
export function claudeUser(home: string, trusted: readonly string[], extra: Record<string, unknown> = {}): void {
  writeJson(join(home, ".claude.json"), {
    hasCompletedOnboarding: true,
    theme: "dark",
    ...extra,
    customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
    projects: Object.fromEntries(trusted.map((folder) => [folder, { hasTrustDialogAccepted: true }])),
  });
}

/** The environment that sends Claude Code's requests to the stand-in. */
export function claudeEnv(standIn: { url: string }): Record<string, string> {
  return { ANTHROPIC_BASE_URL: standIn.url, ANTHROPIC_API_KEY: CLAUDE_KEY, DISABLE_AUTOUPDATER: "1" };
}

/** The environment that sends Codex's requests to the stand-in, its CODEX_HOME made in `dir`. */
export function codexEnv(dir: string, standIn: { url: string }, model?: string): Record<string, string> {
  return { STANDIN_KEY: "standin-key", CODEX_HOME: codexHome(dir, standIn, model) };
}

/** A CODEX_HOME whose config sends every request to the stand-in. */
export function codexHome(dir: string, standIn: { url: string }, model = "gpt-5.1-codex"): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.toml"), [
    `model = "${model}"`,
    `model_provider = "standin"`,
    // Asks before a command that wants to leave the sandbox (the stand-in's tool calls do).
    `approval_policy = "on-request"`,
    `sandbox_mode = "workspace-write"`,
    `[model_providers.standin]`,
    `name = "standin"`,
    `base_url = "${standIn.url}"`,
    `wire_api = "responses"`,
    `env_key = "STANDIN_KEY"`,
    "",
  ].join("\n"));
  return dir;
}
