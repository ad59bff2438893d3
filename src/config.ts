// Every TERMHIVE_* setting, read and validated once.
import { defaultHome } from "./util/paths.js";
import { splitWords, WordListError } from "./util/words.js";
import { parseNameList, type PaneEnvPolicy } from "./util/pane-env.js";
import { checkHttpUrl, HttpUrlError } from "./util/http-url.js";

export interface TermhiveConfig {
  home: string;
  backend: "tmux" | "pty" | "iterm2" | "auto";
  tmuxPath: string;
  /** Shell for sessions opened without a command. */
  shell: string;
  /** Characters of output kept in memory per session before the oldest are dropped. */
  transcriptMaxChars: number;
  /** Lines of scrollback in each session's virtual screen. */
  scrollback: number;
  /** tmux history-limit (what a person scrolling back in tmux sees; also what an adopted session recovers). */
  historyLimit: number;
  /** Default token budget of one result. */
  maxTokens: number;
  /** Quiet time after a REPL prompt appears before a run counts as complete. */
  promptQuietMs: number;
  /** Quiet time that ends a run in a session without shell integration or known prompt. */
  idleQuietMs: number;
  /** Largest input accepted by one terminal_send. */
  maxInputBytes: number;
  /** Sessions a home may hold; terminal_open past it is refused, naming the idle ones. */
  maxSessions: number;
  /** Seconds a shell may sit at its prompt untouched (no agent bound) before it is closed; 0: never. */
  idleCloseS: number;
  /** TERMHIVE_SSH as words: the ssh command remote hosts are reached with. */
  ssh: string[];
  /** TERMHIVE_HOSTS: the destinations sessions may be opened on; null: any. */
  allowedHosts: string[] | null;
  /** TERMHIVE_SAFETY, _RULES, _DISABLE as given; safety/config.ts validates them and loads the rules. */
  safety: SafetySettings;
  /** TERMHIVE_PROFILES: a file of agent profiles (hive/programs/profiles.ts); null: the built-ins only. */
  profilesPath: string | null;
  /** Bytes the audit log may reach before it moves to audit.jsonl.1. */
  auditMaxBytes: number;
  /** Bytes one session's recording may reach before it moves to output.cast.1. */
  recordingMaxBytes: number;
  /** MCP-over-HTTP sessions held at once by `termhive serve`. */
  httpMaxSessions: number;
  /** Idle time after which `termhive serve` forgets an MCP-over-HTTP session. */
  httpSessionTtlMs: number;
  /** Open HTTP connections `termhive serve` accepts at once (each holds a descriptor). */
  httpMaxConnections: number;
  /** Time a client has to send a whole request (headers and body) to `termhive serve`. */
  httpRequestTimeoutMs: number;
  /** How long a dashboard page token opens the live channel after its issue. */
  dashboardPageTtlMs: number;
  /** TERMHIVE_DEBUG=1: stack traces of CLI errors, and a line for each failure termhive ignores (util/traced.ts). */
  debug: boolean;
  /** TERMHIVE_TOOLS: the tool families the MCP door lists (terminal, hive); all by default. */
  toolFamilies: ToolFamily[];
  /** TERMHIVE_ELICIT=off: never ask the person through the client; the model's confirm: true decides. */
  elicit: boolean;
  /** TERMHIVE_MCP_ERA: the MCP protocol eras the stdio door serves (both by default; mcp/stdio/era.ts). */
  mcpEra: McpEra;
  /** gRPC calls (streams included) one door of `termhive serve` serves at once. */
  grpcMaxCalls: number;
  /** gRPC watch streams (WatchOutput, WatchEvents) one door serves at once. */
  grpcMaxWatches: number;
  /** Output a WatchOutput stream may fall behind by before it is ended RESOURCE_EXHAUSTED. */
  grpcWatchBacklogBytes: number;
  /** TERMHIVE_PANE_ENV_DENY / TERMHIVE_PANE_ENV_ALLOW: which of termhive's variables panes inherit (util/pane-env.ts). */
  paneEnv: PaneEnvPolicy;
  /** TERMHIVE_NOTIFY_URL: webhook / ntfy topic URLs notified when an agent needs attention (hive/notify). */
  notifyUrls: string[];
  /** TERMHIVE_SANDBOX: the sandbox preset every agent gets when neither the call nor its profile names one (src/sandbox/). */
  agentSandbox: "worktree" | "readonly" | null;
}

export interface SafetySettings {
  /** "on" (default), "off"; anything else is refused by safety/config.ts, naming the variable. */
  switch: string;
  rulesPath: string | null;
  disable: string[];
}

/** The safety gate's settings from the environment (read here, like every TERMHIVE_* setting). */
export function safetySettings(env: NodeJS.ProcessEnv = process.env): SafetySettings {
  return {
    switch: env.TERMHIVE_SAFETY ?? "on",
    rulesPath: env.TERMHIVE_SAFETY_RULES?.trim() || null,
    disable: (env.TERMHIVE_SAFETY_DISABLE ?? "").split(",").map((name) => name.trim()).filter(Boolean),
  };
}

/** TERMHIVE_ITERM2_SOCKET: iTerm2's API socket named explicitly (the simulator, a moved socket), or null. */
export function iterm2SocketSetting(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.TERMHIVE_ITERM2_SOCKET || null;
}

/** TERMHIVE_PROFILES: the custom agent profiles file, or null. */
export function profilesPath(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.TERMHIVE_PROFILES || null;
}
export const TOOL_FAMILIES = ["terminal", "hive"] as const;
export type ToolFamily = (typeof TOOL_FAMILIES)[number];

export class ConfigError extends Error {
  override name = "ConfigError";
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is invalid: use a whole number from ${min} to ${max}`);
  }
  return value;
}

/** A list of variable names (util/pane-env.ts), or null when unset. */
function nameListFrom(env: NodeJS.ProcessEnv, name: string): string[] | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return null;
  try {
    return parseNameList(raw);
  } catch (error) {
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is invalid: ${(error as Error).message}; write names separated by commas, e.g. ANTHROPIC_API_KEY,AWS_*`);
  }
}

/** A size in MB, fractions allowed (0.5 = 512 KB). */
function megabytesFrom(env: NodeJS.ProcessEnv, name: string, fallbackMb: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return Math.round(fallbackMb * 1024 * 1024);
  const mb = Number(raw);
  if (!Number.isFinite(mb) || mb <= 0 || mb > 1024 * 1024) {
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is invalid: use a size in MB above 0, e.g. 10 or 0.5`);
  }
  return Math.max(1, Math.round(mb * 1024 * 1024));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<TermhiveConfig> = {}): TermhiveConfig {
  const backend = (env.TERMHIVE_BACKEND ?? "auto") as TermhiveConfig["backend"];
  if (!["tmux", "pty", "iterm2", "auto"].includes(backend)) {
    throw new ConfigError(`TERMHIVE_BACKEND=${JSON.stringify(env.TERMHIVE_BACKEND)} is invalid: use tmux, pty, iterm2 or auto`);
  }
  return {
    home: defaultHome(env),
    backend,
    tmuxPath: env.TERMHIVE_TMUX ?? "tmux",
    shell: env.TERMHIVE_SHELL ?? env.SHELL ?? "/bin/bash",
    transcriptMaxChars: intFrom(env, "TERMHIVE_TRANSCRIPT_MAX_CHARS", 16_000_000, 10_000, 1_000_000_000),
    // Only the virtual screen's viewport and cursor line are ever read (the transcript holds the
    // text); each scrollback line costs ~1.4 KB at 120 columns, so 2000 lines were ~3 MB per
    // session in every server process — 64 sessions: ~180 MB each. 100 keeps a resize's reflow.
    scrollback: intFrom(env, "TERMHIVE_SCROLLBACK", 100, 0, 1_000_000),
    historyLimit: intFrom(env, "TERMHIVE_TMUX_HISTORY", 50_000, 100, 10_000_000),
    maxTokens: intFrom(env, "TERMHIVE_MAX_TOKENS", 2000, 100, 200_000),
    promptQuietMs: intFrom(env, "TERMHIVE_PROMPT_QUIET_MS", 5, 0, 10_000),
    idleQuietMs: intFrom(env, "TERMHIVE_IDLE_QUIET_MS", 500, 10, 60_000),
    // A text is typed at the program's pace: bash's line editor takes ~19 s per MiB, so 10 MB
    // typed for minutes past any client's timeout. 1 MiB answers within a minute.
    maxInputBytes: intFrom(env, "TERMHIVE_MAX_INPUT_BYTES", 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxSessions: intFrom(env, "TERMHIVE_MAX_SESSIONS", 64, 1, 10_000),
    idleCloseS: intFrom(env, "TERMHIVE_IDLE_CLOSE_S", 0, 0, 365 * 24 * 3600),
    ssh: sshWords(env.TERMHIVE_SSH),
    allowedHosts: parseHostList(env.TERMHIVE_HOSTS),
    safety: safetySettings(env),
    profilesPath: profilesPath(env),
    auditMaxBytes: megabytesFrom(env, "TERMHIVE_AUDIT_MAX_MB", 10),
    recordingMaxBytes: megabytesFrom(env, "TERMHIVE_RECORDING_MAX_MB", 50),
    httpMaxSessions: intFrom(env, "TERMHIVE_HTTP_MAX_SESSIONS", 256, 1, 100_000),
    httpSessionTtlMs: intFrom(env, "TERMHIVE_HTTP_SESSION_TTL_S", 1800, 1, 365 * 24 * 3600) * 1000,
    httpMaxConnections: intFrom(env, "TERMHIVE_HTTP_MAX_CONNECTIONS", 512, 8, 100_000),
    httpRequestTimeoutMs: intFrom(env, "TERMHIVE_HTTP_REQUEST_TIMEOUT_S", 30, 1, 3600) * 1000,
    dashboardPageTtlMs: intFrom(env, "TERMHIVE_DASHBOARD_PAGE_TTL_S", 12 * 3600, 1, 30 * 24 * 3600) * 1000,
    debug: env.TERMHIVE_DEBUG === "1",
    toolFamilies: parseToolFamilies(env.TERMHIVE_TOOLS),
    elicit: parseSwitch(env, "TERMHIVE_ELICIT", true),
    mcpEra: parseMcpEra(env.TERMHIVE_MCP_ERA),
    grpcMaxCalls: intFrom(env, "TERMHIVE_GRPC_MAX_CALLS", 64, 1, 100_000),
    grpcMaxWatches: intFrom(env, "TERMHIVE_GRPC_MAX_WATCHES", 16, 1, 10_000),
    grpcWatchBacklogBytes: megabytesFrom(env, "TERMHIVE_GRPC_WATCH_BACKLOG_MB", 16),
    notifyUrls: notifyUrlsFrom(env.TERMHIVE_NOTIFY_URL),
    agentSandbox: sandboxPresetFrom(env.TERMHIVE_SANDBOX),
    paneEnv: { deny: nameListFrom(env, "TERMHIVE_PANE_ENV_DENY") ?? [], allow: nameListFrom(env, "TERMHIVE_PANE_ENV_ALLOW") },
    ...overrides,
  };
}

/** TERMHIVE_SANDBOX: a preset name (worktree, readonly), or unset/empty/off for none. */
export function sandboxPresetFrom(value: string | undefined): "worktree" | "readonly" | null {
  const v = value?.trim() ?? "";
  if (v === "" || v === "off") return null;
  if (v === "worktree" || v === "readonly") return v;
  throw new ConfigError(`TERMHIVE_SANDBOX=${JSON.stringify(value)} is invalid: use worktree, readonly or off`);
}

/** TERMHIVE_TOOLS: a comma list of tool families (terminal, hive); unset or empty: all. */
export function parseToolFamilies(value: string | undefined): ToolFamily[] {
  if (value === undefined || value.trim() === "") return [...TOOL_FAMILIES];
  const names = value.split(",").map((name) => name.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((name) => !(TOOL_FAMILIES as readonly string[]).includes(name));
  if (unknown.length || names.length === 0) {
    throw new ConfigError(`TERMHIVE_TOOLS=${JSON.stringify(value)} is invalid: use a comma list of ${TOOL_FAMILIES.join(", ")} (e.g. TERMHIVE_TOOLS=terminal)`);
  }
  return TOOL_FAMILIES.filter((family) => names.includes(family));
}

export type McpEra = "both" | "2025" | "2026";

/** TERMHIVE_MCP_ERA: both (default), 2025 (2025-11-25 and older only) or 2026 (2026-07-28 only). */
export function parseMcpEra(value: string | undefined): McpEra {
  const v = value?.trim().toLowerCase() ?? "";
  if (v === "" || v === "both") return "both";
  if (v === "2025" || v === "2026") return v;
  throw new ConfigError(`TERMHIVE_MCP_ERA=${JSON.stringify(value)} is invalid: use both, 2025 or 2026`);
}

function parseSwitch(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "on", "true", "yes"].includes(raw)) return true;
  if (["0", "off", "false", "no"].includes(raw)) return false;
  throw new ConfigError(`${name}=${JSON.stringify(env[name])} is invalid: use on or off`);
}

function sshWords(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return ["ssh"];
  try {
    return splitWords(value);
  } catch (error) {
    if (error instanceof WordListError) throw new ConfigError(`TERMHIVE_SSH=${JSON.stringify(value)} ${error.message}: write it as a shell command, e.g. ssh -F ~/.ssh/config`);
    throw error;
  }
}

/** TERMHIVE_HOSTS: a comma list of destinations, or null (every destination allowed). */
export function parseHostList(value: string | undefined): string[] | null {
  if (value === undefined || value.trim() === "") return null;
  return value.split(",").map((h) => h.trim()).filter(Boolean);
}

/** TERMHIVE_NOTIFY_URL: a comma list of http(s) URLs; the error names the entry, never the URL (it may hold a token). */
export function notifyUrlsFrom(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  return value.split(",").map((s) => s.trim()).filter(Boolean).map((url, i) => {
    try {
      return checkHttpUrl(url, `TERMHIVE_NOTIFY_URL entry ${i + 1}`);
    } catch (error) {
      if (error instanceof HttpUrlError) throw new ConfigError(error.message);
      throw error;
    }
  });
}
