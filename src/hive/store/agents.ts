// Agents: a name bound to a terminal session, with a profile, an optional team and a status.
// The binding outlives any termhive process (it is a row), so a restarted server still knows
// who "reviewer" is. An agent whose session died is marked `exited`, never deleted: only an
// explicit `remove` makes it disappear.
import type { HiveStore } from "./store.js";
import type { EventLog } from "./event-log.js";
import type { Teams } from "./teams.js";
import { teamSubtree } from "./teams.js";
import { advanceTurn } from "./turns.js";
import { HiveError, checkName, unknownName } from "./errors.js";

export const AGENT_STATUSES = ["starting", "working", "idle", "waiting_for_input", "error", "exited"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/**
 * Who decided a status: screen detection by profile, the agent itself (CLI/OSC), the agent's
 * hooks (hooks.ts), or the service. Which one wins over which: precedence.ts.
 */
/** typed: termhive typed a message and the program took it (a turn started; see precedence.ts). */
export type StatusSource = "profile" | "self" | "hook" | "service" | "typed";

/** A detail-only change (same status) is an event at most this often per agent. */
export const DETAIL_EVENT_MS = 5000;

/** Longest status detail kept; the detail lands in a tmux pane title and in tool results. */
export const MAX_STATUS_DETAIL = 200;

export interface AgentRecord {
  name: string;
  sessionId: string;
  sessionName: string | null;
  profile: string;
  team: string | null;
  status: AgentStatus;
  statusDetail: string | null;
  statusSource: StatusSource | null;
  exitCode: number | null;
  createdAt: number;
  /** Last change of binding, team or status. */
  updatedAt: number;
}

export interface RegisterAgentInput {
  name: string;
  sessionId: string;
  sessionName?: string | null;
  /** Profile name (see profiles.ts); default "shell". */
  profile?: string;
  /** Team to join; created (top level) if missing, which the result reports. */
  team?: string | null;
  /** Rebind an existing name instead of refusing it. */
  replace?: boolean;
  /**
   * With `replace`: the name keeps the team its row has now, read in the same write as the
   * rebind (`team` only if there is no row). A restored agent joined or left teams since its
   * start; another process may be assigning it while it comes back.
   */
  keepTeam?: boolean;
}

export interface RegisterResult {
  agent: AgentRecord;
  /** The record that was replaced (replace: true), else null. */
  replaced: AgentRecord | null;
  createdTeam: boolean;
}

export interface ListAgentsFilter {
  team?: string;
  /** With `team`: include agents of its child teams, recursively. */
  recursive?: boolean;
  status?: AgentStatus;
}

interface AgentRow {
  name: string;
  session_id: string;
  session_name: string | null;
  profile: string;
  team: string | null;
  status: AgentStatus;
  status_detail: string | null;
  status_source: StatusSource | null;
  exit_code: number | null;
  created_at: number;
  updated_at: number;
}

const toAgent = (r: AgentRow): AgentRecord => ({
  name: r.name,
  sessionId: r.session_id,
  sessionName: r.session_name,
  profile: r.profile,
  team: r.team,
  status: r.status,
  statusDetail: r.status_detail,
  statusSource: r.status_source,
  exitCode: r.exit_code,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function checkStatus(status: unknown): AgentStatus {
  if (typeof status !== "string" || !(AGENT_STATUSES as readonly string[]).includes(status)) {
    throw new HiveError("invalid", `unknown agent status ${JSON.stringify(status)}; valid: ${AGENT_STATUSES.join(", ")}`);
  }
  return status as AgentStatus;
}

/** The same status record: what precedence and the border look at. */
function sameStatus(a: AgentRecord, b: AgentRecord): boolean {
  return a.sessionId === b.sessionId && a.profile === b.profile && a.status === b.status && a.statusDetail === b.statusDetail && a.statusSource === b.statusSource && a.updatedAt === b.updatedAt;
}

export function clipDetail(detail: string | null | undefined): string | null {
  if (detail == null) return null;
  // One line of plain text: it is shown in a pane border.
  const flat = detail.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (flat === "") return null;
  return flat.length > MAX_STATUS_DETAIL ? flat.slice(0, MAX_STATUS_DETAIL - 1) + "…" : flat;
}

export class Agents {
  constructor(
    private readonly store: HiveStore,
    private readonly events: EventLog,
    private readonly teams: Teams,
  ) {}

  find(name: string): AgentRecord | undefined {
    const row = this.store.read(() => this.store.db.prepare("SELECT * FROM agents WHERE name = ?").get(name)) as
      | AgentRow
      | undefined;
    return row ? toAgent(row) : undefined;
  }

  get(name: string): AgentRecord {
    const agent = this.find(name);
    if (!agent) throw unknownName("agent", name, this.names());
    return agent;
  }

  names(): string[] {
    const rows = this.store.read(() => this.store.db.prepare("SELECT name FROM agents ORDER BY name").all()) as { name: string }[];
    return rows.map((r) => r.name);
  }

  /** All agents, or those of a team (and its child teams with `recursive`), ordered by name. */
  list(filter: ListAgentsFilter = {}): AgentRecord[] {
    if (filter.status !== undefined) checkStatus(filter.status);
    return this.store.read(() => {
      let teams: string[] | undefined;
      if (filter.team !== undefined) {
        this.teams.get(filter.team);
        teams = filter.recursive ? teamSubtree(this.teams.list(), filter.team) : [filter.team];
      }
      const rows = this.store.db.prepare("SELECT * FROM agents ORDER BY name").all() as AgentRow[];
      return rows
        .map(toAgent)
        .filter((a) => teams === undefined || (a.team !== null && teams.includes(a.team)))
        .filter((a) => filter.status === undefined || a.status === filter.status);
    });
  }

  /** Agents bound to a session (usually one; two names may share a session). */
  bySession(sessionId: string): AgentRecord[] {
    const rows = this.store.read(() =>
      this.store.db.prepare("SELECT * FROM agents WHERE session_id = ? ORDER BY name").all(sessionId),
    ) as AgentRow[];
    return rows.map(toAgent);
  }

  /** Binds a name to a session. Refuses a taken name unless `replace: true`. Status starts at `starting`. */
  register(input: RegisterAgentInput): RegisterResult {
    const name = checkName("agent", input.name);
    if (typeof input.sessionId !== "string" || input.sessionId === "") {
      throw new HiveError("invalid", `agent '${name}' needs a session id to bind to`);
    }
    const profile = checkName("profile", input.profile ?? "shell");
    return this.store.write(() => {
      const existing = this.find(name);
      if (existing && !input.replace) {
        throw new HiveError(
          "duplicate",
          `agent '${name}' is already registered (session ${existing.sessionId}, status ${existing.status}); ` +
            `pass replace: true to rebind it, or choose another name`,
        );
      }
      let createdTeam = false;
      const team = input.keepTeam && existing ? existing.team : (input.team ?? null);
      if (team !== null) createdTeam = this.teams.ensure(team).created;
      const now = Date.now();
      const agent: AgentRecord = {
        name,
        sessionId: input.sessionId,
        sessionName: input.sessionName ?? null,
        profile,
        team,
        status: "starting",
        statusDetail: null,
        statusSource: "service",
        exitCode: null,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      this.store.db
        .prepare(
          `INSERT INTO agents (name, session_id, session_name, profile, team, status, status_detail, status_source,
             exit_code, created_at, updated_at)
           VALUES (@name, @sessionId, @sessionName, @profile, @team, @status, @statusDetail, @statusSource,
             @exitCode, @createdAt, @updatedAt)
           ON CONFLICT(name) DO UPDATE SET session_id = excluded.session_id, session_name = excluded.session_name,
             profile = excluded.profile, team = excluded.team, status = excluded.status,
             status_detail = excluded.status_detail, status_source = excluded.status_source,
             exit_code = excluded.exit_code, updated_at = excluded.updated_at`,
        )
        .run(agent);
      this.store.wrote("agents");
      this.events.append({
        kind: "lifecycle",
        agent: name,
        sessionId: agent.sessionId,
        data: { event: existing ? "agent_replaced" : "agent_registered", team, profile, previousSession: existing?.sessionId },
      });
      return { agent, replaced: existing ?? null, createdTeam };
    });
  }

  /** Puts an agent in a team (created if missing). */
  assign(name: string, team: string): { agent: AgentRecord; createdTeam: boolean } {
    return this.store.write(() => {
      const agent = this.get(name);
      const { created } = this.teams.ensure(team);
      this.setTeam(agent, team);
      return { agent: { ...agent, team }, createdTeam: created };
    });
  }

  /** Takes an agent out of its team (no-op if it had none). */
  unassign(name: string): AgentRecord {
    return this.store.write(() => {
      const agent = this.get(name);
      if (agent.team !== null) this.setTeam(agent, null);
      return { ...agent, team: null };
    });
  }

  /** Forgets an agent. Its session is not touched (closing it is the service's job). */
  remove(name: string): AgentRecord {
    return this.store.write(() => {
      const agent = this.get(name);
      this.store.db.prepare("DELETE FROM agents WHERE name = ?").run(name);
      this.store.wrote("agents");
      // Its launch record goes too: agent_restore must not bring back a removed agent.
      this.store.db.prepare("DELETE FROM agent_launches WHERE agent = ?").run(name);
      this.events.append({ kind: "lifecycle", agent: name, sessionId: agent.sessionId, data: { event: "agent_removed" } });
      return agent;
    });
  }

  /**
   * Records a status. The row always takes the new detail (agent_list shows it), but an event
   * is appended only when the status changes, when the agent reports itself (source "self" or "hook"),
   * or — a detected detail alone changed — when this agent's last status event is at least
   * DETAIL_EVENT_MS old: a spinner redraws its detail many times
   * a second and would otherwise drown the log. An exited agent stays exited: only
   * `register(…, replace: true)` brings the name back. `judged`: the record the caller's verdict
   * was made on; if the row has changed since (another process wrote), nothing is written and
   * the result says `stale` with the current row.
   */
  setStatus(
    name: string,
    status: AgentStatus,
    options: { detail?: string | null; source?: StatusSource; question?: string; prompt?: string; judged?: AgentRecord } = {},
  ): { agent: AgentRecord; changed: boolean; stale?: true } {
    checkStatus(status);
    const detail = clipDetail(options.detail);
    const source = options.source ?? "service";
    return this.store.write(() => {
      const agent = this.get(name);
      // The caller judged an older record (another process wrote since): its verdict may no
      // longer hold (a hook's fresh status outranks the screen), so nothing is written.
      if (options.judged && !sameStatus(options.judged, agent)) return { agent, changed: false, stale: true };
      if (agent.status === "exited") return { agent, changed: false };
      if (agent.status === status && agent.statusDetail === detail) return { agent, changed: false };
      const now = Date.now();
      this.store.db
        .prepare("UPDATE agents SET status = ?, status_detail = ?, status_source = ?, updated_at = ? WHERE name = ?")
        .run(status, detail, source, now, name);
      this.store.wrote("agents");
      advanceTurn(this.store, name, status, now);
      // A permission request a hook holds open (permission-asks.ts) is open only while the
      // agent waits: answered in its own dialog, the agent moves on, and the ask goes.
      if (status !== "waiting_for_input") this.store.db.prepare("DELETE FROM permission_asks WHERE agent = ? AND decision IS NULL").run(name);
      // An agent's own report or hook is deliberate, never spinner noise: always an event. So is
      // a new question on screen (its digest is what hive_answer checks).
      const question = options.question;
      if (agent.status !== status || source === "self" || source === "hook" || question !== undefined || now - this.lastStatusEventAt(agent) >= DETAIL_EVENT_MS) {
        this.events.append({
          kind: "status",
          agent: name,
          sessionId: agent.sessionId,
          // `prompt`: the question's lines on screen, for a notice (notify/notice.ts).
          data: { status, detail, source, previous: agent.status, ...(question !== undefined ? { question } : {}), ...(options.prompt ? { prompt: options.prompt } : {}) },
        });
      }
      return { agent: { ...agent, status, statusDetail: detail, statusSource: source, updatedAt: now }, changed: true };
    });
  }

  /** When this agent's newest status event was appended (0: none kept). Uses the (session_id, id) index. */
  private lastStatusEventAt(agent: AgentRecord): number {
    const row = this.store.db
      .prepare("SELECT at FROM events WHERE session_id = ? AND kind = 'status' AND agent = ? ORDER BY id DESC LIMIT 1")
      .get(agent.sessionId, agent.name) as { at: number } | undefined;
    return row?.at ?? 0;
  }

  /** The session died: every agent bound to it becomes `exited` (with its exit code), with an event each. */
  markSessionExited(sessionId: string, options: { exitCode?: number | null; reason?: string } = {}): AgentRecord[] {
    return this.store.write(() => {
      const changed: AgentRecord[] = [];
      const now = Date.now();
      for (const agent of this.bySession(sessionId)) {
        if (agent.status === "exited") {
          // Its SessionEnd hook said so first; the exit code arrives only now.
          if (agent.exitCode === null && options.exitCode != null) {
            this.store.db.prepare("UPDATE agents SET exit_code = ? WHERE name = ?").run(options.exitCode, agent.name);
            this.store.wrote("agents");
          }
          continue;
        }
        const detail = clipDetail(options.reason ?? (options.exitCode != null ? `exit code ${options.exitCode}` : "session ended"));
        this.store.db
          .prepare(
            "UPDATE agents SET status = 'exited', status_detail = ?, status_source = 'service', exit_code = ?, updated_at = ? WHERE name = ?",
          )
          .run(detail, options.exitCode ?? null, now, agent.name);
        this.store.wrote("agents");
        advanceTurn(this.store, agent.name, "exited", now);
        this.events.append({
          kind: "status",
          agent: agent.name,
          sessionId,
          data: { status: "exited", detail, source: "service", previous: agent.status, exitCode: options.exitCode ?? null },
        });
        changed.push({ ...agent, status: "exited", statusDetail: detail, statusSource: "service", exitCode: options.exitCode ?? null, updatedAt: now });
      }
      return changed;
    });
  }

  private setTeam(agent: AgentRecord, team: string | null): void {
    this.store.db.prepare("UPDATE agents SET team = ?, updated_at = ? WHERE name = ?").run(team, Date.now(), agent.name);
    this.store.wrote("agents");
    this.events.append({
      kind: "lifecycle",
      agent: agent.name,
      sessionId: agent.sessionId,
      data: { event: "agent_team", from: agent.team, to: team },
    });
  }
}
