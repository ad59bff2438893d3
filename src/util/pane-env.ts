// Which of termhive's own environment variables a pane inherits. A pane gets the environment
// of the termhive process whose call opened it — never the tmux server's (that is whichever
// client started the server first: its API keys, its agent's identity) — less the variables
// that name the agent session termhive was started from. Claude Code starts every MCP stdio
// server with CLAUDECODE=1, CLAUDE_CODE_SESSION_ID, CLAUDE_CODE_ENTRYPOINT, CLAUDE_PROJECT_DIR
// (and its messaging socket and token); Codex gives its tools CODEX_* thread and sandbox ids.
// A shell or a teammate started with those runs as if inside the lead's session.
//
// TERMHIVE_PANE_ENV_DENY adds names to drop; TERMHIVE_PANE_ENV_ALLOW, when set, is the only
// list of names that pass (an allow list; HOME, PATH, USER, SHELL, LANG, LC_*, TERM, TMPDIR, TZ
// always do), and a name in it passes even when built in below.
// Names are exact or end in `*` (a prefix). A variable given with terminal_open's `env` always
// reaches the pane.

/** Agent-session identity, dropped by default. */
export const IDENTITY_VARIABLES = ["CLAUDECODE", "CLAUDE_CODE_*", "CLAUDE_PROJECT_DIR", "CLAUDE_ENV_FILE", "CODEX_*", "TERMHIVE_SESSION", "TERMHIVE_SESSION_NAME"];
/** Never dropped by the built-in list (a user's Codex configuration is theirs, not a session's). */
const KEPT_BY_DEFAULT = ["CODEX_HOME"];
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

export function passesToPane(name: string, policy: PaneEnvPolicy): boolean {
  if (matches(name, TERMINAL_VARIABLES)) return false;
  if (policy.allow) return (matches(name, policy.allow) || matches(name, ESSENTIAL)) && !matches(name, policy.deny);
  if (matches(name, policy.deny)) return false;
  return !matches(name, IDENTITY_VARIABLES) || matches(name, KEPT_BY_DEFAULT);
}

/** The part of `env` a pane inherits under `policy`. */
export function paneEnvironment(env: NodeJS.ProcessEnv, policy: PaneEnvPolicy): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && passesToPane(name, policy)) out[name] = value;
  return out;
}
