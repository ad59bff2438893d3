// How each agent was started, kept so agent_restore can bring it back after its
// pane is gone: a `tmux kill-server`, an out-of-memory kill, a reboot. The program's own
// conversation id (Claude Code's session_id, Codex's thread id) is what makes the restart a
// resume instead of a fresh start; it is chosen up front (`--session-id`, profile `resume.newId`)
// or learnt from the program's hooks (`termhive hook`: hive/programs/hooks.ts).
//
// Env values are not stored, only the names: a key given at spawn must come back from the
// restoring caller (agent_restore `env`, or the environment of the process that restores).
// The exception is where the program keeps its state (HOME, XDG_*_HOME, CLAUDE_CONFIG_DIR,
// CODEX_HOME, …: KEPT_ENV): a path, not a secret, and the one value a restorer's own cannot
// stand in for (the conversation to resume lives under it). Those values are kept, unless
// they look like a credential.
import type { HiveStore } from "./store.js";
import { traced } from "../../util/traced.js";
import { HiveError } from "./errors.js";
import { redactCredentials } from "../../redact.js";

/** Who told termhive the conversation id: termhive chose it up front, or the program's hook reported it. */
export type ConversationSource = "chosen" | "hook";

export interface LaunchRecord {
  agent: string;
  profile: string;
  /** The command line as given, before the hook arguments termhive appends; null: the shell. */
  command: string | null;
  cwd: string | null;
  envNames: string[];
  /** Values kept of the names in KEPT_ENV (where the program keeps its state); never secrets. */
  envKept: Record<string, string>;
  /** The team it was started in; a restore puts it in the team its agent row has by then. */
  team: string | null;
  host: string | null;
  rows: number | null;
  cols: number | null;
  /** The window the pane was in (panes restored together share one window again). */
  window: string | null;
  paneIndex: number | null;
  /** The layout kind of that window (hive_layout), to arrange it the same way. */
  layout: string | null;
  /** The pane's sandbox policy as the session meta carried it. */
  sandbox: unknown;
  conversationId: string | null;
  conversationBy: ConversationSource | null;
  /** When a hook of this launch first reported; 0: its hooks are off (its notify reported first, or a text it took went unreported); null: neither yet. */
  hooksRanAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * Env names whose values say where a program keeps its state (its config, its conversations):
 * paths, not secrets. A restore that took the restoring process's own HOME instead would start
 * the program in another home, where the conversation it resumes does not exist.
 */
export const KEPT_ENV = /^(HOME|USERPROFILE|ZDOTDIR|TMPDIR|XDG_[A-Z]+_(HOME|DIR|DIRS)|CLAUDE_CONFIG_DIR|CODEX_HOME|[A-Z][A-Z0-9_]*_(HOME|CONFIG_DIR))$/;
const MAX_KEPT_CHARS = 4096;

/** The values of `env` that are kept (KEPT_ENV, short, and not credential-shaped). */
export function keptEnv(env: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env ?? {})) {
    if (KEPT_ENV.test(name) && value !== "" && value.length <= MAX_KEPT_CHARS && redactCredentials(value) === value) kept[name] = value;
  }
  return kept;
}

// The kept values ride in env_names as one object after the names: no new column (a schema
// version an older termhive on the same home would refuse), and an older reader, which keeps
// only the strings, sees the names as before.
function keptOf(names: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(names)) return out;
  for (const item of names) {
    if (item === null || typeof item !== "object" || !("kept" in item)) continue;
    const kept = (item as { kept: unknown }).kept;
    if (kept === null || typeof kept !== "object") continue;
    for (const [k, v] of Object.entries(kept)) if (typeof v === "string" && KEPT_ENV.test(k)) out[k] = v;
  }
  return out;
}

export type LaunchInput = Omit<LaunchRecord, "createdAt" | "updatedAt" | "conversationId" | "conversationBy" | "hooksRanAt" | "envKept"> & {
  envKept?: Record<string, string>;
  conversationId?: string | null;
  conversationBy?: ConversationSource | null;
};

interface Row {
  agent: string;
  profile: string;
  command: string | null;
  cwd: string | null;
  env_names: string;
  team: string | null;
  host: string | null;
  rows: number | null;
  cols: number | null;
  window: string | null;
  pane_index: number | null;
  layout: string | null;
  sandbox: string | null;
  conversation_id: string | null;
  conversation_by: ConversationSource | null;
  hooks_ran_at: number | null;
  created_at: number;
  updated_at: number;
}

const parseJson = (text: string | null, fallback: unknown): unknown => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text);
  } catch (error) {
    traced("reading a launch record's JSON column")(error); // a damaged cell restores without it
    return fallback;
  }
};

const toRecord = (r: Row): LaunchRecord => ({
  agent: r.agent,
  profile: r.profile,
  command: r.command,
  cwd: r.cwd,
  envNames: (parseJson(r.env_names, []) as unknown[]).filter((n): n is string => typeof n === "string"),
  envKept: keptOf(parseJson(r.env_names, [])),
  team: r.team,
  host: r.host,
  rows: r.rows,
  cols: r.cols,
  window: r.window,
  paneIndex: r.pane_index,
  layout: r.layout,
  sandbox: parseJson(r.sandbox, null),
  conversationId: r.conversation_id,
  conversationBy: r.conversation_by,
  hooksRanAt: r.hooks_ran_at ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * A conversation id goes into a command line (`claude --resume <id>`): only ids made of the
 * characters the programs use (UUIDs, Codex thread ids) are kept; anything else is refused.
 */
export const CONVERSATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

export function checkConversationId(id: unknown): string {
  if (typeof id !== "string" || !CONVERSATION_ID.test(id)) {
    throw new HiveError("invalid", `conversation id ${JSON.stringify(id)} is not an id (letters, digits, . _ : -; at most 200)`);
  }
  return id;
}

/** The values record() binds (a new launch's hooks have not run: hooks_ran_at starts NULL). */
const columnsOf = ({ hooksRanAt: _hooksRanAt, ...rest }: LaunchRecord) => rest;

export class LaunchRecords {
  constructor(private readonly store: HiveStore) {}

  find(agent: string): LaunchRecord | undefined {
    const row = this.store.read(() => this.store.db.prepare("SELECT * FROM agent_launches WHERE agent = ?").get(agent)) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Records (or replaces) how an agent was started; a new start forgets the old conversation unless it names one. */
  record(input: LaunchInput): LaunchRecord {
    if (input.conversationId != null) checkConversationId(input.conversationId);
    return this.store.write(() => {
      const now = Date.now();
      const old = this.find(input.agent);
      const record: LaunchRecord = {
        ...input,
        envNames: [...new Set(input.envNames)].sort(),
        envKept: Object.fromEntries(Object.entries(input.envKept ?? {}).filter(([k]) => input.envNames.includes(k))),
        conversationId: input.conversationId ?? null,
        conversationBy: input.conversationId != null ? (input.conversationBy ?? "chosen") : null,
        hooksRanAt: null,
        createdAt: old?.createdAt ?? now,
        updatedAt: now,
      };
      this.store.db
        .prepare(
          `INSERT OR REPLACE INTO agent_launches (agent, profile, command, cwd, env_names, team, host, rows, cols, window,
             pane_index, layout, sandbox, conversation_id, conversation_by, created_at, updated_at)
           VALUES (@agent, @profile, @command, @cwd, @envNames, @team, @host, @rows, @cols, @window, @paneIndex, @layout,
             @sandbox, @conversationId, @conversationBy, @createdAt, @updatedAt)`,
        )
        .run({ ...columnsOf(record), envKept: undefined, envNames: JSON.stringify(Object.keys(record.envKept).length > 0 ? [...record.envNames, { kept: record.envKept }] : record.envNames), sandbox: record.sandbox == null ? null : JSON.stringify(record.sandbox) });
      return record;
    });
  }

  /**
   * The program reported its conversation id (a hook payload). Kept when it differs: Claude
   * Code starts a new session on /clear, and the newest is the one to resume. Returns whether
   * anything changed; an agent without a launch record (registered from an existing pane) has none to keep.
   */
  noteConversation(agent: string, id: string): boolean {
    checkConversationId(id);
    return this.store.write(() => {
      const r = this.store.db
        .prepare("UPDATE agent_launches SET conversation_id = ?, conversation_by = 'hook', updated_at = ? WHERE agent = ? AND (conversation_id IS NOT ? OR conversation_by IS NOT 'hook')")
        .run(id, Date.now(), agent, id);
      return r.changes > 0;
    });
  }

  /**
   * A hook of the agent's launch reported: its program runs hooks (kept once per launch).
   * Returns whether this was the first.
   */
  noteHooksRan(agent: string): boolean {
    return this.store.write(() => this.store.db.prepare("UPDATE agent_launches SET hooks_ran_at = ? WHERE agent = ? AND (hooks_ran_at IS NULL OR hooks_ran_at = 0)").run(Date.now(), agent).changes > 0);
  }

  /**
   * Its hooks are off (hooks_ran_at 0) until one reports: Codex's notify reported before any
   * hook of the launch, or a text the program took was reported by none (taken-report.ts).
   */
  noteHooksOff(agent: string): void {
    this.store.write(() => this.store.db.prepare("UPDATE agent_launches SET hooks_ran_at = 0 WHERE agent = ? AND hooks_ran_at IS NULL").run(agent));
  }

  remove(agent: string): void {
    this.store.write(() => this.store.db.prepare("DELETE FROM agent_launches WHERE agent = ?").run(agent));
  }
}

/**
 * Fills a profile's resume template: `{command}` is the recorded command line, `{id}` the
 * conversation id (checked: it never needs quoting).
 */
export function fillResumeTemplate(template: string, values: { command: string; id: string }): string {
  checkConversationId(values.id);
  return template.replaceAll("{command}", values.command).replaceAll("{id}", values.id);
}
