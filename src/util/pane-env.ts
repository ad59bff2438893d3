// Which of termhive's own environment variables a pane inherits. A pane gets the environment
// of the termhive process whose call opened it — never the tmux server's (that is whichever
// client started the server first: its API keys, its agent's identity) — less the variables
// that name the agent session termhive was started from. A shell or a teammate started with
// those runs as if inside the lead's session. Only those are dropped: the user's own settings
// (CLAUDE_CODE_USE_BEDROCK, _USE_VERTEX, _MAX_OUTPUT_TOKENS, OAuth, proxies, CODEX_HOME…) are
// what their agents must run with too.
//
// TERMHIVE_PANE_ENV_DENY adds names to drop; TERMHIVE_PANE_ENV_ALLOW, when set, is the only
// list of names that pass (an allow list; HOME, PATH, USER, SHELL, LANG, LC_*, TERM, TMPDIR, TZ
// always do), and a name in it passes even when built in below.
// Names are exact or end in `*` (a prefix). A variable given with terminal_open's `env` always
// reaches the pane.

/**
 * Agent-session identity, dropped by default; each name was read in the programs' binaries.
 * Claude Code 2.1.332 sets the first group for the processes it starts (its tools, hooks and MCP
 * servers: `CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID, CLAUDE_CODE_CHILD_SESSION, …`, and the MCP
 * server's entry point, project dir, messaging socket and token); Codex 0.169 gives its tools
 * the second (thread, tool call and sandbox of the lead's turn).
 */
export const IDENTITY_VARIABLES = [
  "CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_CODE_SESSION_ATTENDED", "CLAUDE_CODE_CHILD_NOTES_DIR",
  "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS", "CLAUDE_CODE_STARTER_MAY_HOLD_CONNECTOR_FILE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_EXECPATH",
  "CLAUDE_CODE_MESSAGING_SOCKET", "CLAUDE_CODE_MESSAGING_TOKEN", "CLAUDE_CODE_INVOKED_SKILLS", "CLAUDE_PID", "CLAUDE_EFFORT",
  "CLAUDE_PROJECT_DIR", "CLAUDE_ENV_FILE",
  "CODEX_THREAD_ID", "CODEX_SESSION_ID", "CODEX_TOOL_CALL_ID", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED",
  "TERMHIVE_SESSION", "TERMHIVE_SESSION_NAME",
];
/**
 * AI_AGENT names the agent a process runs under: Claude Code sets `claude-code_<version>_agent`
 * for its tools. Dropped only when it names an agent program's session; a user's own value passes.
 */
const LEAD_AI_AGENT = /^(?:claude-code|codex)[_/]/;
/** What any program needs; an allow list always lets these through. */
const ESSENTIAL = ["HOME", "PATH", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_*", "TERM", "TMPDIR", "TZ"];
/** Set by the terminal (tmux) for the pane itself, or meaningless in another one. */
const TERMINAL_VARIABLES = ["TMUX", "TMUX_PANE"];

export interface PaneEnvPolicy {
  deny: string[];
  /** null: every variable not denied passes. */
  allow: string[] | null;
}

export const DEFAULT_PANE_ENV: PaneEnvPolicy = { deny: [], allow: null };

function matches(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : name === p));
}

/** A comma or space separated list of names (`*` only at the end), or an error naming the bad one. */
export function parseNameList(raw: string): string[] {
  const names = raw.split(/[\s,]+/).filter(Boolean);
  for (const n of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*\*?$|^\*$/.test(n)) throw new Error(`${JSON.stringify(n)} is not a variable name (letters, digits, _; a trailing * for a prefix)`);
  }
  return names;
}

/** Whether variable `name` (with `value`, when known) reaches a pane under `policy`. */
export function passesToPane(name: string, policy: PaneEnvPolicy, value?: string): boolean {
  if (matches(name, TERMINAL_VARIABLES)) return false;
  if (policy.allow) return (matches(name, policy.allow) || matches(name, ESSENTIAL)) && !matches(name, policy.deny);
  if (matches(name, policy.deny)) return false;
  if (name === "AI_AGENT" && value !== undefined && LEAD_AI_AGENT.test(value)) return false;
  return !matches(name, IDENTITY_VARIABLES);
}

/** The part of `env` a pane inherits under `policy`. */
export function paneEnvironment(env: NodeJS.ProcessEnv, policy: PaneEnvPolicy): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && passesToPane(name, policy, value)) out[name] = value;
  return out;
}
