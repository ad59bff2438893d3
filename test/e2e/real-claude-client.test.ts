// What a model reads through the real Claude Code (pinned in scripts/agents) as termhive's MCP
// client: Claude Code runs in print mode, offline, against a loopback stand-in of the Messages
// API (standins/messages-api.ts) whose scripted model calls termhive's tools. The stand-in
// records each tool_result block Claude Code hands its model; a tee between Claude Code and
// termhive records what termhive sent. Target (issue 24): the model reads ≤ 1.05× the tokens of
// termhive's text over the session, with tool search on (Claude Code's default: tools deferred)
// and off (every schema sent).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { startMessagesApi, type ModelTurn, type MessagesRequest } from "./standins/messages-api.js";
import { CLI } from "./harness.js";
import { VERBS } from "../../src/verbs/index.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";
import { endTmuxServer } from "../tmux-server.js";

const CLAUDE = resolve("scripts/agents/node_modules/.bin/claude");
const skip = process.env.TERMHIVE_SKIP_REAL_AGENTS
  ? "TERMHIVE_SKIP_REAL_AGENTS is set"
  : existsSync(CLAUDE) ? false : "Claude Code is not installed in scripts/agents (npm ci --prefix scripts/agents needs the npm registry once)";

const PREFIX = "mcp__termhive__";
const tokens = (text: string) => encode(text).length;

/** The scripted session: ≥ 20 calls across the terminal and hive tools. */
const CALLS: [string, Record<string, unknown>][] = [
  ["terminal_open", { name: "w" }],
  ["terminal_run", { session: "w", command: "echo hello; printf 'a\\nb\\n'" }],
  ["terminal_run", { session: "w", command: "ls -l /usr/bin | head -60" }],
  ["terminal_run", { session: "w", command: "seq 1 200000" }],
  ["terminal_run", { session: "w", command: "ls /nonexistent-dir" }],
  ["terminal_send", { session: "w", text: "python3 -q" }],
  ["terminal_wait", { session: "w", pattern: ">>> ", timeout_s: 15 }],
  ["terminal_send", { session: "w", text: "print(6*7)" }],
  ["terminal_wait", { session: "w", pattern: "42", timeout_s: 15 }],
  ["terminal_send", { session: "w", keys: ["C-d"] }],
  ["terminal_wait", { session: "w", for: "idle", timeout_s: 10 }],
  ["terminal_read", { session: "w", mode: "screen" }],
  ["terminal_read", { session: "w", mode: "lines", from_line: 1, to_line: 6 }],
  ["terminal_list", {}],
  ["terminal_resize", { session: "w", rows: 30, cols: 100 }],
  ["terminal_run", { command: "git --version" }],
  ["team_create", { name: "red" }],
  ["agent_register", { name: "a1", session: "w", team: "red", profile: "shell" }],
  ["agent_list", {}],
  ["hive_send", { targets: "team:red", text: "echo from-hive" }],
  ["hive_read", { targets: "a1", mode: "new" }],
  ["hive_events", { since: 0 }],
  ["team_list", {}],
  ["hive_status", { agent: "a1", status: "working", detail: "testing" }],
  ["agent_remove", { name: "a1" }],
  ["terminal_close", { session: "w", force: true }],
];

/** A stdio tee: Claude Code ↔ termhive, writing each line termhive sends to a log. */
const TEE = `
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
const [log, ...command] = process.argv.slice(2);
const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
let buffered = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf("\\n")) !== -1) { appendFileSync(log, buffered.slice(0, end + 1)); buffered = buffered.slice(end + 1); }
});
child.on("exit", (code) => process.exit(code ?? 0));
`;

interface Session {
  requests: MessagesRequest[];
  /** Per call: tokens the model read, tokens of termhive's text, the tool. */
  rows: { tool: string; model: number; text: number; modelText: string }[];
}

async function runSession(toolSearch: boolean): Promise<Session> {
  const root = tempFolder("termhive-claude-");
  const home = join(root, "home");
  const work = join(root, "work");
  mkdirSync(home);
  mkdirSync(work);
  writeFileSync(join(home, ".bashrc"), "");
  // What Claude Code needs to run headless: onboarding done, the folder trusted.
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ hasCompletedOnboarding: true, projects: { [work]: { hasTrustDialogAccepted: true } } }));
  const log = join(root, "termhive-out.jsonl");
  writeFileSync(join(root, "tee.mjs"), TEE);
  writeFileSync(join(root, "mcp.json"), JSON.stringify({
    mcpServers: {
      termhive: {
        command: process.execPath,
        args: [join(root, "tee.mjs"), log, process.execPath, CLI, "mcp"],
        env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", TERMHIVE_HOME: join(root, "th"), SHELL: "/bin/bash" },
      },
    },
  }));

  const script: ModelTurn[] = [];
  // With tool search on, the model loads the schemas it needs first (Claude Code's ToolSearch).
  if (toolSearch) script.push({ tool: "ToolSearch", input: { query: `select:${[...new Set(CALLS.map(([name]) => PREFIX + name))].join(",")}`, max_results: 30 } });
  for (const [name, input] of CALLS) script.push({ tool: PREFIX + name, input });
  script.push({ text: "done" });
  const api = await startMessagesApi((turn) => script[Math.min(turn, script.length - 1)]!);
  try {
    const child = spawn(CLAUDE, ["-p", "use termhive", "--mcp-config", join(root, "mcp.json"), "--strict-mcp-config", "--allowedTools", "mcp__termhive", "--output-format", "json"], {
      cwd: work,
      env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "sk-ant-standin", ENABLE_TOOL_SEARCH: String(toolSearch), DISABLE_AUTOUPDATER: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    const status = await new Promise<number | null>((done) => child.on("exit", done));
    assert.equal(status, 0, `claude exited ${status}: ${out.slice(-2000)} ${err.slice(-2000)}`);

    // termhive's answers to tools/call, in order (ids are Claude Code's).
    const sent = readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as { id?: number; result?: { content?: { type: string; text: string }[]; _meta?: unknown } });
    const answers = sent.filter((m) => m.result?.content !== undefined);
    const results = api.results.filter((r) => r.tool.startsWith(PREFIX));
    assert.equal(results.length, CALLS.length, `every scripted call reached the model: ${results.map((r) => r.tool).join(", ")}`);
    assert.equal(answers.length, CALLS.length, "termhive answered every call");
    const rows = results.map((r, i) => {
      const text = answers[i]!.result!.content!.map((c) => c.text).join("\n");
      return { tool: r.tool.slice(PREFIX.length), model: tokens(r.text), text: tokens(text), modelText: r.text };
    });
    if (process.env.TERMHIVE_DUMP_REQUESTS) writeFileSync(process.env.TERMHIVE_DUMP_REQUESTS, JSON.stringify(api.requests));
    return { requests: api.requests, rows };
  } finally {
    await api.close();
    await endTmuxServer(join(root, "th", "tmux.sock"));
    removeTempFolder(root);
  }
}

/** o200k tokens of termhive's tools as Claude Code put them in a request (name, description, schema). */
function toolListTokens(request: MessagesRequest, only?: Set<string>): { all: number; terminal: number; count: number } {
  // With tool search on, Claude Code sends every schema marked defer_loading: the API expands
  // one into the model's context when a tool_reference names it (ToolSearch's answer).
  const ours = (request.tools ?? []).filter((t) => t.name.startsWith(PREFIX) && (only ? only.has(t.name) : !t.defer_loading));
  const count = (list: typeof ours) => list.reduce((sum, t) => sum + tokens(JSON.stringify(t)), 0);
  return { all: count(ours), terminal: count(ours.filter((t) => t.name.startsWith(`${PREFIX}terminal_`))), count: ours.length };
}

function report(label: string, session: Session): number {
  const model = session.rows.reduce((sum, r) => sum + r.model, 0);
  const text = session.rows.reduce((sum, r) => sum + r.text, 0);
  const ratio = model / text;
  const worst = [...session.rows].sort((a, b) => b.model / b.text - a.model / a.text).slice(0, 3).map((r) => `${r.tool} ${r.text}→${r.model}`).join(", ");
  console.log(`${label}: ${session.rows.length} calls, model read ${model} tokens, termhive text ${text} → ratio ${ratio.toFixed(3)} (highest: ${worst})`);
  return ratio;
}

describe("the real Claude Code as termhive's MCP client", { skip }, () => {
  test("tool search off: every schema sent; the model reads ≤ 1.05× termhive's text over ≥ 20 calls", { timeout: 240_000 }, async () => {
    const session = await runSession(false);
    const ratio = report("tool search off", session);
    const last = session.requests.filter((r) => (r.tools?.length ?? 0) > 0).at(-1)!;
    const list = toolListTokens(last);
    console.log(`tool list as Claude Code sends it: ${list.count} termhive tools, ${list.all} tokens (terminal_* ${list.terminal})`);
    assert.ok(session.rows.length >= 20);
    assert.ok(ratio <= 1.05, `ratio ${ratio.toFixed(3)}`);
    assert.equal(list.count, VERBS.length, "every tool was sent");
    assert.ok(list.all <= 4000, `tool list ${list.all} tokens`);
    assert.ok(list.terminal <= 1800, `terminal_* ${list.terminal} tokens`);
    // The fold markers and footers reach the model as written: text, with line breaks.
    const seq = session.rows.find((r) => r.modelText.includes("200000"))!;
    assert.match(seq.modelText, /^1\n2\n/);
    assert.match(seq.modelText, /terminal_read \{"session":"w","mode":"lines"/);
    assert.match(seq.modelText, /\[exit 0 · osc133 ·/);
  });

  test("tool search on (Claude Code's default): names and instructions per request, schemas when loaded; same ratio", { timeout: 240_000 }, async () => {
    const session = await runSession(true);
    const ratio = report("tool search on", session);
    const first = session.requests.find((r) => (r.tools?.length ?? 0) > 0)!;
    const context = JSON.stringify(first.messages);
    const names = [...context.matchAll(/mcp__termhive__\w+/g)].map((m) => m[0]).join("\n");
    const instructions = JSON.parse(`"${context.match(/## termhive\\n(.*?)\\n\\n/)?.[1] ?? ""}"`) as string;
    const last = session.requests.at(-1)!;
    const referenced = new Set([...JSON.stringify(last.messages).matchAll(/"tool_reference","tool_name":"(mcp__termhive__\w+)"/g)].map((m) => m[1]!));
    const loaded = toolListTokens(last, referenced);
    console.log(`tool search: ${tokens(names)} tokens of names + ${tokens(instructions)} of server instructions per request; ${loaded.count} schemas loaded by ToolSearch: ${loaded.all} tokens (terminal_* ${loaded.terminal})`);
    assert.equal(loaded.count, referenced.size);
    assert.ok(instructions.length > 0, "Claude Code passed termhive's instructions to its model");
    assert.ok(ratio <= 1.05, `ratio ${ratio.toFixed(3)}`);
  });
});
