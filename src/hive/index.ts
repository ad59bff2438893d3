// The hive as the service sees it: one `Hive` object per termhive process, holding the SQLite
// store and the repositories over it. The operations that combine several of them (targets
// need agents + teams, cascades need both, events filtered by targets) live here; everything
// else is reached through the repository fields (hive.agents.register(…), hive.mailbox.send(…)).
import { HiveStore, type StoreOptions } from "./store.js";
import { EventLog, type EventKind, type SinceResult } from "./events.js";
import { Teams } from "./teams.js";
import { Agents, type AgentRecord, type RegisterAgentInput, type RegisterResult } from "./agents.js";
import { Watchers } from "./watchers.js";
import { Mailbox } from "./mailbox.js";
import { Layouts } from "./layouts.js";
import { Turns } from "./turns.js";
import { Outbox } from "./outbox.js";
import { PermissionAsks } from "./permission-asks.js";
import { LaunchRecords } from "./restore-records.js";
import { PromptReports } from "./prompt-reports.js";
import { ProfileRegistry, loadProfiles } from "./profiles.js";
import { detectStatus, type DetectedStatus, type ScreenState } from "./detect.js";
import { resolveTargets, type SessionDescriptor, type TargetResolution, type TargetSpec } from "./targets.js";
import { planCascade, type CascadeInput, type CascadePlan } from "./cascade.js";
import type { SelfStatus } from "./status.js";

export interface HiveOptions extends StoreOptions {
  /** Max events kept (oldest pruned); default DEFAULT_EVENT_RETENTION. */
  eventRetention?: number;
  /** Profiles to use; default built-ins plus TERMHIVE_PROFILES. */
  profiles?: ProfileRegistry;
}

export class Hive {
  readonly store: HiveStore;
  readonly events: EventLog;
  readonly teams: Teams;
  readonly agents: Agents;
  readonly watchers: Watchers;
  readonly mailbox: Mailbox;
  readonly layouts: Layouts;
  readonly profiles: ProfileRegistry;
  readonly turns: Turns;
  readonly outbox: Outbox;
  readonly permissionAsks: PermissionAsks;
  /** How each agent was started, for agent_restore (restore-records.ts). */
  readonly launches: LaunchRecords;
  /** The prompts agent programs' hooks said they took (prompt-reports.ts). */
  readonly prompts: PromptReports;

  private constructor(store: HiveStore, options: HiveOptions) {
    this.store = store;
    this.events = new EventLog(store, { maxRows: options.eventRetention });
    this.teams = new Teams(store, this.events);
    this.agents = new Agents(store, this.events, this.teams);
    this.watchers = new Watchers(store, this.events);
    this.mailbox = new Mailbox(store, this.events, this.agents);
    this.layouts = new Layouts(store);
    this.turns = new Turns(store);
    this.outbox = new Outbox(store);
    this.permissionAsks = new PermissionAsks(store);
    this.launches = new LaunchRecords(store);
    this.prompts = new PromptReports(store);
    this.profiles = options.profiles ?? loadProfiles();
  }

  /** Opens (creating/migrating) the hive database; throws HiveStoreError when locked or corrupt. */
  static open(options: HiveOptions = {}): Hive {
    // Profiles first: a bad TERMHIVE_PROFILES file fails before any file is opened.
    const profiles = options.profiles ?? loadProfiles();
    const store = HiveStore.open(options);
    try {
      return new Hive(store, { ...options, profiles });
    } catch (err) {
      store.close(); // e.g. a bad eventRetention: do not leave the file open behind an error
      throw err;
    }
  }

  close(): void {
    this.store.close();
  }

  /** Registers an agent after checking its profile exists (agents.register itself takes any name). */
  registerAgent(input: RegisterAgentInput): RegisterResult {
    this.profiles.get(input.profile ?? "shell");
    return this.agents.register(input);
  }

  /** Resolves a target spec against the sessions the service knows and the hive's agents/teams. */
  resolveTargets(spec: TargetSpec, sessions: readonly SessionDescriptor[]): TargetResolution {
    return this.store.read(() => resolveTargets(spec, { sessions, agents: this.agents.list(), teams: this.teams.list() }));
  }

  /** Plans a cascade over the hive's current agents and teams (one consistent snapshot). */
  planCascade(input: CascadeInput): CascadePlan {
    return this.store.read(() => planCascade(input, { agents: this.agents.list(), teams: this.teams.list() }));
  }

  /**
   * Events after `cursor`; with `targets`, only those about the targeted sessions or their
   * agents (the targets must resolve, so an unknown name is an error here too).
   */
  eventsSince(
    cursor: number,
    options: { targets?: TargetSpec; sessions?: readonly SessionDescriptor[]; kinds?: readonly EventKind[]; limit?: number } = {},
  ): SinceResult {
    if (options.targets === undefined) return this.events.since(cursor, { kinds: options.kinds, limit: options.limit });
    const { targets } = this.resolveTargets(options.targets, options.sessions ?? []);
    return this.events.since(cursor, {
      sessionIds: targets.map((t) => t.sessionId),
      agents: targets.flatMap((t) => t.agents),
      kinds: options.kinds,
      limit: options.limit,
    });
  }

  /** Screen-based status for an agent, by its profile (pure; record it with agents.setStatus). */
  detect(agent: AgentRecord | string, screen: ScreenState): DetectedStatus {
    const record = typeof agent === "string" ? this.agents.get(agent) : agent;
    return detectStatus(this.profiles.get(record.profile), screen);
  }

  /** Records a status an agent reported about itself (CLI or OSC). */
  applySelfStatus(agent: string, report: SelfStatus): { agent: AgentRecord; changed: boolean } {
    return this.agents.setStatus(report.agent ?? agent, report.status, { detail: report.detail, source: "self" });
  }
}

export { HiveStore, HiveStoreError, hiveDbPath, hiveExists, translateSqliteError, DEFAULT_BUSY_TIMEOUT_MS, type StoreOptions, type HiveStoreErrorCode } from "./store.js";
export { HiveError, type HiveErrorCode } from "./errors.js";
export { checkMessageSize, MESSAGE_MAX_BYTES } from "./message-size.js";
export { SCHEMA_VERSION } from "./schema.js";
export * from "./events.js";
export * from "./teams.js";
export * from "./agents.js";
export * from "./targets.js";
export * from "./cascade.js";
export * from "./watchers.js";
export * from "./mailbox.js";
export * from "./layouts.js";
export * from "./profiles.js";
export * from "./detect.js";
export * from "./status.js";
export * from "./hooks.js";
export * from "./codex-threads.js";
export * from "./codex-hooks.js";
export * from "./hook-report.js";
export * from "./prompt-reports.js";
export * from "./versions.js";
export * from "./precedence.js";
export * from "./unknown-question.js";
export * from "./turns.js";
export * from "./outbox.js";
export * from "./busy-rule.js";
export * from "./permission-asks.js";
export * from "./question.js";
export * from "./screen-excerpt.js";
export * from "./restore-records.js";
