// The hive as the service sees it: one `Hive` object per termhive process, holding the SQLite
// store and the repositories over it. The operations that combine several of them (targets
// need agents + teams, cascades need both, events filtered by targets) live here; everything
// else is reached through the repository fields (hive.agents.register(…), hive.mailbox.send(…)).
import { HiveStore, type StoreOptions } from "./store/store.js";
import { EventLog, type EventKind, type SinceResult } from "./store/event-log.js";
import { Teams } from "./store/teams.js";
import { Agents, type AgentRecord, type RegisterAgentInput, type RegisterResult } from "./store/agents.js";
import { Watchers } from "./store/watchers.js";
import { Mailbox } from "./store/mailbox.js";
import { Layouts } from "./store/layouts.js";
import { Turns } from "./store/turns.js";
import { Outbox } from "./store/outbox.js";
import { PermissionAsks } from "./programs/permission-asks.js";
import { LaunchRecords } from "./store/launches.js";
import { PromptReports } from "./store/prompt-reports.js";
import { ProfileRegistry, loadProfiles } from "./programs/profiles.js";
import { detectStatus, type DetectedStatus, type ScreenState } from "./programs/detect.js";
import { resolveTargets, type SessionDescriptor, type TargetResolution, type TargetSpec } from "./store/targets.js";
import { planCascade, type CascadeInput, type CascadePlan } from "./rules/cascade.js";
import type { SelfStatus } from "./rules/self-status.js";

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
  /** How each agent was started, for agent_restore (launches.ts). */
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
    options: { targets?: TargetSpec; sessions?: readonly SessionDescriptor[]; kinds?: readonly EventKind[]; limit?: number; newest?: boolean } = {},
  ): SinceResult {
    if (options.targets === undefined) return this.events.since(cursor, { kinds: options.kinds, limit: options.limit, newest: options.newest });
    const { targets } = this.resolveTargets(options.targets, options.sessions ?? []);
    return this.events.since(cursor, {
      sessionIds: targets.map((t) => t.sessionId),
      agents: targets.flatMap((t) => t.agents),
      kinds: options.kinds,
      limit: options.limit,
      newest: options.newest,
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

export { HiveStore, HiveStoreError, hiveDbPath, hiveExists, translateSqliteError, DEFAULT_BUSY_TIMEOUT_MS, type StoreOptions, type HiveStoreErrorCode } from "./store/store.js";
export { HiveError, type HiveErrorCode } from "./store/errors.js";
export { checkMessageSize, MESSAGE_MAX_BYTES } from "./rules/message-size.js";
export { SCHEMA_VERSION } from "./store/schema.js";
export * from "./store/event-log.js";
export * from "./store/teams.js";
export * from "./store/agents.js";
export * from "./store/targets.js";
export * from "./rules/cascade.js";
export * from "./store/watchers.js";
export * from "./store/mailbox.js";
export * from "./store/layouts.js";
export * from "./programs/profiles.js";
export * from "./programs/detect.js";
export * from "./rules/self-status.js";
export * from "./programs/hooks.js";
export * from "./programs/codex-threads.js";
export * from "./programs/codex-hooks.js";
export * from "./hook-report.js";
export * from "./store/prompt-reports.js";
export * from "./programs/versions.js";
export * from "./rules/precedence.js";
export * from "./rules/unknown-question.js";
export * from "./store/turns.js";
export * from "./store/outbox.js";
export * from "./rules/busy-rule.js";
export * from "./programs/permission-asks.js";
export * from "./programs/question.js";
export * from "./rules/screen-excerpt.js";
export * from "./store/launches.js";
