// The hive operations every door calls: layouts, agents, teams, parallel send/read, cascading
// messages, status, events, waits, watchers, mailbox, focus. State lives in the hive's SQLite
// store (src/hive); this class joins it to live sessions (TermhiveService) and keeps statuses
// current (hive/status-tracker.ts) and watchers running (hive/watch-scanner.ts).
import { focusInIterm2 } from "../iterm2/decorations.js";
import { NoSpaceForPane } from "../backends/backend.js";
import type { SafeRegex } from "../util/regex.js";
import { EventEmitter } from "node:events";
import { basename } from "node:path";
import {
  Hive, HiveError, type AgentProfile, type AgentRecord, type EventKind, type LayoutKind, type PaneSpec,
  type ResolvedTarget, type TargetSpec, parseLayoutSpec, parseStatusArgs, splitPlan,
} from "../hive/index.js";
import type { TerminalSession } from "../terminal/session.js";
import { ToolError } from "./errors.js";
import type { CallContext, TermhiveService } from "./service.js";
import { deliverText, type DeliveryResult } from "../terminal/delivery.js";
import { literalText } from "../terminal/literal-text.js";
import { waitReady } from "./hive/ready.js";
import { StatusTracker } from "./hive/status-tracker.js";
import { recordCascade, recordQueued } from "./hive/message-events.js";
import { BUSY_STATUSES, OutboxDispatcher } from "./hive/outbox-dispatcher.js";
import { hiveWait, type HiveWaitResult, type WaitFor } from "./hive/wait.js";
import { WatchScanner } from "./hive/watch-scanner.js";
import { addWorktree } from "./hive/worktree.js";
import { withProgress } from "./hive/progress.js";
import { commandWithHooks } from "./hive/hook-launch.js";
import { startNotifier } from "./hive/notify-start.js";

/** Default size of a layout window: room for four panes of useful width. */
const LAYOUT_ROWS = 50;
const LAYOUT_COLS = 200;
const READY_TIMEOUT_MS = 30_000;

export interface PerTarget<T> {
  session: string;
  name: string;
  agents: string[];
  ok: boolean;
  result?: T;
  error?: string;
}

/** What became of one session's text in hive_message. */
export interface MessageDelivery {
  session: string;
  agents: string[];
  source: string;
  level: string;
  delivered: boolean;
  /** The outbox id: the agent was busy, the text waits for its next idle moment. */
  queued?: number;
  attempts?: number;
  method?: "paste" | "typed";
  note?: string;
  error?: string;
}

export class HiveService {
  private opened: { hive: Hive; tracker: StatusTracker; scanner: WatchScanner; outbox: OutboxDispatcher; stopNotifier: () => void } | undefined;
  /** Agent status changes ("change", agent), listenable before the store is open. */
  readonly changes = new EventEmitter().setMaxListeners(0);
  private synced: Promise<void> | null = null;
  /** Last text hive_send typed per session (skip_duplicates). */
  private readonly lastSent = new Map<string, string>();

  /**
   * The store is opened on first use, not here: a server that is only asked for terminals
   * never pays for SQLite at start-up (~8 ms of the time to its first tool list), and a
   * hive database that cannot be opened fails the hive call that needs it, with the reason.
   */
  constructor(
    readonly service: TermhiveService,
    private readonly openHive: () => Hive = () => Hive.open({ home: service.config.home }),
  ) {}

  private get parts() {
    if (!this.opened) {
      const hive = this.openHive();
      const tracker = new StatusTracker(hive, this.service.backend);
      tracker.changes.on("change", (agent) => this.changes.emit("change", agent));
      const outbox = new OutboxDispatcher(hive, this.service.registry, tracker.changes, (session, text, submit) => this.typeMessage(session, text, submit), (agents, delivered) => this.turnAfterTyping(agents, delivered));
      const stopNotifier = startNotifier(hive, this.service.config, this.service.audit, tracker.changes, (id) => this.service.registry.byId(id)?.name);
      this.opened = { hive, tracker, scanner: new WatchScanner(hive, this.service.registry), outbox, stopNotifier };
    }
    return this.opened;
  }

  get hive(): Hive {
    return this.parts.hive;
  }

  get tracker(): StatusTracker {
    return this.parts.tracker;
  }

  private get scanner(): WatchScanner {
    return this.parts.scanner;
  }

  private get registry() {
    return this.service.registry;
  }

  /**
   * Binds the stored agents to live sessions (after a restart the panes are adopted) and marks
   * agents whose session is gone as exited. Cheap when nothing changed; run before each operation.
   */
  async sync(): Promise<void> {
    if (this.synced) return this.synced;
    this.synced = (async () => {
      await this.registry.ensureStarted();
      await this.registry.refresh();
      const live = new Map(this.registry.all().map((s) => [s.id, s]));
      const adopted = new Set<TerminalSession>();
      for (const agent of this.hive.agents.list()) {
        const session = live.get(agent.sessionId);
        if (session) {
          if (!this.tracker.isTracked(session)) {
            this.tracker.track(session, { ready: agent.status !== "starting", adopted: true });
            adopted.add(session);
          }
        } else if (agent.status !== "exited") {
          const changed = this.hive.agents.markSessionExited(agent.sessionId, { reason: "session is gone" });
          for (const a of changed) this.tracker.changes.emit("change", a);
        }
      }
      // The stored status may be stale (written by a process that has exited since): this
      // process's first answer is what the adopted panes show now.
      await Promise.all([...adopted].map((s) => this.tracker.evaluateNow(s)));
      // Messages queued by a process that has exited since: this one types them once their agents are idle.
      if (adopted.size > 0) this.opened?.outbox.sweep();
    })().finally(() => (this.synced = null));
    return this.synced;
  }

  private descriptors() {
    return this.registry.all().map((s) => ({ id: s.id, name: s.name, alive: s.alive }));
  }

  async resolve(targets: TargetSpec): Promise<{ targets: ResolvedTarget[]; unavailable: { ref: string; reason: string }[] }> {
    await this.sync();
    return this.hive.resolveTargets(targets, this.descriptors());
  }

  private liveSession(id: string): TerminalSession {
    const s = this.registry.byId(id);
    if (!s || s.goneReason) throw new ToolError(`session ${id} is gone`, "dead");
    return s;
  }

  private profileFor(name: string | undefined, command: string | undefined): AgentProfile {
    if (name) return this.hive.profiles.get(name);
    // No profile given: a command named like a profile (claude, codex, aider) uses it.
    const program = basename((command ?? "").trim().split(/\s+/)[0] ?? "");
    return this.hive.profiles.find(program) ?? this.hive.profiles.get("shell");
  }

  // ---- layouts -------------------------------------------------------------------------

  layout(input: { layout?: LayoutKind; panes?: PaneSpec[]; count?: number; save_as?: string; restore?: string; replace?: boolean; rows?: number; cols?: number }, ctx?: CallContext) {
    return withProgress(ctx, "opening the layout and waiting until its panes are ready", this.layoutWork(input));
  }

  private async layoutWork(input: { layout?: LayoutKind; panes?: PaneSpec[]; count?: number; save_as?: string; restore?: string; replace?: boolean; rows?: number; cols?: number }) {
    await this.sync();
    const spec = input.restore !== undefined
      ? this.hive.layouts.get(input.restore).spec
      : parseLayoutSpec({ kind: input.layout ?? "tiled", ...(input.panes ? { panes: input.panes } : {}), ...(input.count ? { count: input.count } : {}) });
    // Refuse taken agent names before any pane exists, so a refusal leaves nothing behind.
    for (const p of spec.panes) {
      const agent = p.agent ?? (p.team || p.profile ? p.name : undefined);
      if (agent && !input.replace && this.hive.agents.find(agent)) {
        throw new HiveError("duplicate", `agent '${agent}' is already registered; pass replace: true or pick another name`);
      }
      if (p.profile) this.hive.profiles.get(p.profile);
    }
    await this.service.ensureRoomFor(spec.panes.length);
    if (input.save_as !== undefined) this.hive.layouts.save(input.save_as, spec, { replace: input.replace });
    const plan = splitPlan(spec.kind, spec.panes.length);
    const sessions: TerminalSession[] = [];
    const first = spec.panes[0]!;
    // A pane that will be an agent knows its name from the start (`termhive msg` sends as it).
    const paneEnv = (p: PaneSpec) => {
      const agent = p.agent ?? (p.team || p.profile ? p.name : undefined);
      return agent ? { TERMHIVE_AGENT: agent, ...p.env } : p.env;
    };
    // An agent pane running its profile's program gets the profile's hooks (hive/hooks.ts);
    // their settings are files of this machine, so a pane on another host runs it plain.
    const paneCommand = (p: PaneSpec) => {
      const agent = p.agent ?? (p.team || p.profile ? p.name : undefined);
      return agent && !(p.host ?? first.host) ? commandWithHooks(p.command, this.profileFor(p.profile, p.command), agent, this.service.config.home) : p.command;
    };
    sessions.push(await this.registry.open({ name: first.name, command: paneCommand(first), cwd: first.cwd, env: paneEnv(first), host: first.host, rows: input.rows ?? LAYOUT_ROWS, cols: input.cols ?? LAYOUT_COLS }));
    const backend = this.service.backend;
    try {
      for (const step of plan.steps) {
        const p = spec.panes[step.creates]!;
        const open = () => this.registry.open({
          name: p.name, command: paneCommand(p), cwd: p.cwd, env: paneEnv(p), host: p.host, rows: 0, cols: 0,
          splitFrom: { session: sessions[step.splitFrom]!, direction: step.direction, percent: step.percent },
        });
        try {
          sessions.push(await open());
        } catch (error) {
          // Many panes: halving the newest pane runs out of rows/columns; even out the window
          // (pane order is kept) and split again.
          if (!(error instanceof NoSpaceForPane)) throw error;
          await backend.arrangeWindow(sessions[0]!.paneId, plan.selectLayout ?? "tiled");
          sessions.push(await open());
        }
      }
    } catch (error) {
      // All or nothing: a half-built layout would leave panes nobody asked for.
      for (const s of sessions) await this.registry.close(s).catch(() => {});
      throw new ToolError(`layout ${spec.kind} of ${spec.panes.length} panes failed after ${sessions.length}: ${(error as Error).message}${/no space/.test((error as Error).message) ? "; give a bigger window (rows/cols) or fewer panes" : ""}`);
    }
    if (plan.selectLayout) await backend.arrangeWindow(sessions[0]!.paneId, plan.selectLayout);
    await backend.showPaneBorders(sessions[0]!.paneId);
    await this.syncSizes(sessions);
    const panes = await Promise.all(spec.panes.map(async (p, i) => {
      const session = sessions[i]!;
      const agentName = p.agent ?? (p.team || p.profile ? p.name : undefined);
      const profile = this.profileFor(p.profile, p.command);
      const ready = await waitReady(session, agentName ? profile : undefined, READY_TIMEOUT_MS);
      let agent: AgentRecord | undefined;
      if (agentName) agent = this.bind(session, { name: agentName, team: p.team, profile: profile.name, replace: input.replace, ready: ready === "ready" });
      return { index: i, session: session.id, name: session.name, pane: session.paneId, rows: session.pane.rows, cols: session.pane.cols, ready, ...(agent ? { agent: agent.name, team: agent.team, profile: agent.profile } : {}) };
    }));
    return {
      layout: spec.kind,
      window: sessions[0]!.pane.windowId,
      panes,
      attach: this.service.backend.attachCommand(sessions[0]!.paneId),
      ...(input.save_as !== undefined ? { saved_as: input.save_as } : {}),
      ...(input.restore !== undefined ? { restored: input.restore } : {}),
    };
  }

  /** After splits and select-layout the panes have new sizes; the virtual screens must follow. */
  private async syncSizes(sessions: TerminalSession[]): Promise<void> {
    await Promise.all(sessions.map(async (s) => {
      const info = await this.service.backend.paneInfo(s.paneId);
      if (!info) return;
      if (info.rows !== s.screen.rows || info.cols !== s.screen.cols) s.screen.resize(info.rows, info.cols);
      s.updatePane(info);
    }));
  }

  async split(input: { session: string; direction: "left" | "right" | "above" | "below"; name?: string; command?: string; cwd?: string; percent?: number; agent?: string; team?: string; profile?: string; host?: string }) {
    await this.sync();
    const from = await this.registry.get(input.session);
    if (input.agent && this.hive.agents.find(input.agent)) throw new HiveError("duplicate", `agent '${input.agent}' is already registered`);
    await this.service.ensureRoomFor(1);
    const session = await this.registry.open({ name: input.name, command: input.command, cwd: input.cwd, env: input.agent ? { TERMHIVE_AGENT: input.agent } : undefined, host: input.host, rows: 0, cols: 0, splitFrom: { session: from, direction: input.direction, percent: input.percent } });
    await this.syncSizes([from, session]);
    const profile = this.profileFor(input.profile, input.command);
    const ready = await waitReady(session, input.agent ? profile : undefined, READY_TIMEOUT_MS);
    const agent = input.agent ? this.bind(session, { name: input.agent, team: input.team, profile: profile.name, ready: ready === "ready" }) : undefined;
    return { session: session.id, name: session.name, pane: session.paneId, split_from: from.name, direction: input.direction, ready, ...(agent ? { agent: agent.name } : {}) };
  }

  // ---- agents & teams ------------------------------------------------------------------

  private bind(session: TerminalSession, a: { name: string; team?: string | null; profile: string; replace?: boolean; ready?: boolean }): AgentRecord {
    const r = this.hive.registerAgent({ name: a.name, sessionId: session.id, sessionName: session.name, profile: a.profile, team: a.team ?? null, replace: a.replace });
    this.tracker.untrack(session.id);
    this.tracker.track(session, { ready: a.ready });
    void this.tracker.title(session);
    return r.agent;
  }

  async registerAgent(input: { name: string; session: string; team?: string; profile?: string; replace?: boolean }) {
    await this.sync();
    const session = await this.registry.get(input.session);
    const profile = this.profileFor(input.profile, session.meta.command);
    const existing = this.hive.agents.find(input.name);
    const agent = this.bind(session, { name: input.name, team: input.team, profile: profile.name, replace: input.replace });
    return { agent: this.agentView(agent), replaced: existing ? existing.sessionId : null };
  }

  spawn(input: { name: string; command?: string; team?: string; cwd?: string; env?: Record<string, string>; profile?: string; worktree?: { repo: string; branch: string }; replace?: boolean; ready_timeout_s?: number; host?: string }, ctx?: CallContext) {
    return withProgress(ctx, `starting agent ${input.name} and waiting until it is ready`, this.spawnWork(input));
  }

  private async spawnWork(input: { name: string; command?: string; team?: string; cwd?: string; env?: Record<string, string>; profile?: string; worktree?: { repo: string; branch: string }; replace?: boolean; ready_timeout_s?: number; host?: string }) {
    await this.sync();
    if (this.hive.agents.find(input.name) && !input.replace) {
      throw new HiveError("duplicate", `agent '${input.name}' is already registered; pass replace: true or pick another name`);
    }
    const profile = this.profileFor(input.profile, input.command);
    if (input.worktree && input.host) throw new HiveError("invalid", "worktree makes a local git worktree; it cannot be combined with host");
    // Hook settings are files of this machine: an agent on another host runs its program plain.
    const plain = input.command ?? (profile.command || undefined);
    const command = input.host ? plain : commandWithHooks(plain, profile, input.name, this.service.config.home);
    await this.service.ensureRoomFor(1);
    const cwd = input.worktree ? await addWorktree(input.worktree.repo, input.worktree.branch, input.name) : input.cwd;
    const session = await this.registry.open({ name: input.name, command, cwd, env: { TERMHIVE_AGENT: input.name, ...input.env }, host: input.host, rows: 40, cols: 120 });
    const started = Date.now();
    const ready = await waitReady(session, profile, (input.ready_timeout_s ?? READY_TIMEOUT_MS / 1000) * 1000);
    const agent = this.bind(session, { name: input.name, team: input.team, profile: profile.name, replace: input.replace, ready: ready === "ready" });
    return {
      agent: this.agentView(this.hive.agents.find(agent.name) ?? agent),
      ready,
      ready_ms: Date.now() - started,
      ...(input.worktree ? { worktree: { path: cwd, branch: input.worktree.branch } } : {}),
      attach: this.service.backend.attachCommand(session.paneId),
    };
  }

  agentView(a: AgentRecord) {
    const s = this.registry.byId(a.sessionId);
    return {
      name: a.name, session: a.sessionId, session_name: a.sessionName, team: a.team, profile: a.profile,
      status: a.status, detail: a.statusDetail, source: a.statusSource, exit_code: a.exitCode,
      alive: s !== undefined && s.alive, pane: s?.paneId ?? null, updated_at: a.updatedAt,
    };
  }

  async listAgents(input: { team?: string; recursive?: boolean }) {
    await this.sync();
    return { agents: this.hive.agents.list({ team: input.team, recursive: input.recursive ?? true }).map((a) => this.agentView(a)) };
  }

  async removeAgent(input: { name: string; close?: boolean }) {
    await this.sync();
    const agent = this.hive.agents.remove(input.name);
    let closed = false;
    const s = this.registry.byId(agent.sessionId);
    if (s && this.hive.agents.bySession(s.id).length === 0) {
      this.tracker.untrack(s.id);
      if (input.close) {
        await this.registry.close(s);
        closed = true;
      } else await this.service.backend.setTitle(s.paneId, s.name).catch(() => {});
    }
    return { removed: agent.name, session: agent.sessionId, closed };
  }

  createTeam(input: { name: string; parent?: string; description?: string }) {
    return { team: this.hive.teams.create(input.name, { parent: input.parent ?? null, description: input.description ?? null }) };
  }

  /** Puts an agent in a team (null: out of any team), or — without agent — moves a team under a parent. */
  async assign(input: { agent?: string; team: string | null; parent?: string | null }) {
    if (input.agent !== undefined) {
      if (input.team === null) return { agent: this.agentView(this.hive.agents.unassign(input.agent)), created_team: false };
      const r = this.hive.agents.assign(input.agent, input.team);
      const s = this.registry.byId(r.agent.sessionId);
      if (s) void this.tracker.title(s);
      return { agent: this.agentView(r.agent), created_team: r.createdTeam };
    }
    if (input.team === null || input.parent === undefined) throw new ToolError("give agent (to put an agent in team) or parent (to move team under another team, null for top level)");
    return { team: this.hive.teams.setParent(input.team, input.parent) };
  }

  listTeams() {
    return { teams: this.hive.teams.view() };
  }

  removeTeam(input: { name: string }) {
    return this.hive.teams.remove(input.name);
  }

  // ---- parallel send / read --------------------------------------------------------------

  private async fanOut<T>(targets: ResolvedTarget[], work: (t: ResolvedTarget) => Promise<T>): Promise<PerTarget<T>[]> {
    return Promise.all(targets.map(async (t) => {
      const base = { session: t.sessionId, name: t.sessionName, agents: t.agents };
      try {
        return { ...base, ok: true, result: await work(t) };
      } catch (error) {
        return { ...base, ok: false, error: (error as Error).message };
      }
    }));
  }

  async send(input: { targets: TargetSpec; text: string; enter?: boolean; skip_duplicates?: boolean; confirm?: boolean }, ctx: CallContext) {
    const { targets, unavailable } = await this.resolve(input.targets);
    const results = await this.fanOut(targets, async (t) => {
      if (input.skip_duplicates && this.lastSent.get(t.sessionId) === input.text) return { skipped: "duplicate" as const, sent_bytes: 0 };
      const r = await this.service.send({ session: t.sessionId, text: input.text, enter: input.enter ?? true, confirm: input.confirm }, ctx);
      this.lastSent.set(t.sessionId, input.text);
      return r;
    });
    return { results, unavailable, sent: results.filter((r) => r.ok && !(r.result as { skipped?: string }).skipped).length, failed: results.filter((r) => !r.ok).length };
  }

  async read(input: { targets: TargetSpec; filter?: string; lines?: number; mode?: "auto" | "new" | "screen" | "all"; context?: number; max_tokens?: number }, ctx: CallContext) {
    // Checked once before any target is read, so a bad filter is one clear error, not one per target.
    if (input.filter !== undefined) this.service.regex(input.filter, "filter");
    const { targets, unavailable } = await this.resolve(input.targets);
    const results = await this.fanOut(targets, async (t) => {
      const r = await this.service.read({ session: t.sessionId, mode: input.mode ?? "screen", filter: input.filter, context: input.context, max_tokens: input.max_tokens }, ctx);
      if (input.lines === undefined) return r;
      // Per-target limit: the last N lines of what the read returned.
      const all = r.output.split("\n");
      return { ...r, output: all.slice(-input.lines).join("\n"), truncated_lines: Math.max(0, all.length - input.lines) };
    });
    return { results, unavailable, failed: results.filter((r) => !r.ok).length };
  }

  // ---- cascade --------------------------------------------------------------------------

  async message(input: { broadcast?: string; teams?: Record<string, string>; agents?: Record<string, string>; submit?: boolean; confirm?: boolean; when?: "idle" | "now" }) {
    await this.sync();
    const plan = this.hive.planCascade({ broadcast: input.broadcast, teams: input.teams, agents: input.agents });
    const submit = input.submit ?? true;
    // Every text passes the same checks as terminal_send (size limit; safety gate when Enter
    // runs it as a command wherever the agent is a shell) before any is typed or queued, so a
    // refusal delivers nothing to anyone.
    try {
      for (const d of plan.deliveries) {
        const session = this.registry.byId(d.sessionId);
        if (session) await this.service.checkInput(d.text, session, { enter: submit, confirm: input.confirm });
      }
    } catch (error) {
      recordCascade(this.hive.events, plan.assignments, new Map(), `safety gate: ${(error as Error).message}`);
      throw error;
    }
    const when = input.when ?? "idle";
    const deliveries = await Promise.all(plan.deliveries.map(async (d): Promise<MessageDelivery> => {
      const base = { session: d.sessionId, agents: d.agents, source: d.source, level: d.level };
      // Decided in one write transaction: type now (and begin the turn, so a cascade arriving
      // a moment later sees the agent busy and queues behind) or queue for the next idle moment.
      // A shell that says (OSC 133) it is at its prompt reads the line now, whatever the screen
      // guess says; only a message still being typed to it (or queued before) goes first.
      const live = this.registry.byId(d.sessionId);
      const atPrompt = live !== undefined && live.integrated && live.phase === "prompt";
      const queued = this.hive.store.write(() => {
        const agents = d.agents.map((n) => this.hive.agents.find(n)).filter((a): a is AgentRecord => a !== undefined);
        const busy = when === "idle" && (
          this.hive.outbox.hasFor(d.sessionId) ||
          agents.some((a) => this.hive.turns.get(a.name)?.typing === true && this.hive.turns.holdsIdle(a.name)) ||
          (!atPrompt && agents.some((a) => BUSY_STATUSES.has(a.status) || this.hive.turns.holdsIdle(a.name))));
        if (busy) return this.hive.outbox.add({ sessionId: d.sessionId, agents: d.agents, text: d.text, level: d.level, source: d.source, submit });
        this.hive.turns.begin(d.agents);
        return undefined;
      });
      if (queued) return { ...base, delivered: false, queued: queued.id, note: "the agent is busy: queued, typed when it is next idle (a delivered or expired event follows)" };
      let result: DeliveryResult | undefined;
      let error: string | undefined;
      try {
        result = await this.typeMessage(this.liveSession(d.sessionId), d.text, submit);
      } catch (e) {
        error = (e as Error).message;
      }
      this.turnAfterTyping(d.agents, result?.delivered ?? false);
      return { ...base, delivered: result?.delivered ?? false, ...(result ? { attempts: result.attempts, method: result.method } : {}), ...(result?.note ? { note: result.note } : {}), ...(error ? { error } : {}) };
    }));
    const bySession = new Map(deliveries.map((d) => [d.session, d]));
    recordCascade(this.hive.events, plan.assignments, bySession);
    const assignments = plan.assignments.map((a) => {
      const d = bySession.get(a.sessionId);
      const queued = a.delivered && d?.queued !== undefined;
      return {
        agent: a.agent, source: a.source, text: a.text,
        delivered: a.delivered && (d?.delivered ?? false),
        ...(queued ? { queued: true } : {}),
        ...(a.note ? { note: a.note } : {}),
      };
    });
    const queuedCount = deliveries.filter((d) => d.queued !== undefined).length;
    const delivered = deliveries.filter((d) => d.delivered).length;
    return { deliveries, assignments, delivered, queued: queuedCount, failed: deliveries.length - delivered - queuedCount };
  }

  /** After typing: the turn starts (delivered) or there is none (not taken). */
  turnAfterTyping(agents: readonly string[], delivered: boolean): void {
    try {
      if (delivered) {
        this.hive.turns.submitted(agents, (n) => BUSY_STATUSES.has(this.hive.agents.find(n)?.status ?? ""));
        // The program took the text: its turn starts now, whatever a hook said before (Codex
        // reports only turn ends), held a few seconds against a screen that has not caught up.
        for (const name of agents) {
          const a = this.hive.agents.find(name);
          const s = a && this.registry.byId(a.sessionId);
          if (a?.status === "idle" && s) this.tracker.record(() => this.hive.agents.setStatus(name, "working", { detail: "took a typed message", source: "typed" }), s);
        }
      } else this.hive.turns.cancel(agents);
    } catch {
      // store locked: a typing row goes stale and stops holding after a while
    }
  }

  /** Every text the hive types into an agent (cascade now, or from the queue): one path, audited like terminal_send. */
  private async typeMessage(session: TerminalSession, text: string, submit: boolean, via: "hive_message" | "hive_mail" = "hive_message"): Promise<DeliveryResult> {
    const literal = literalText(text).text;
    const result = await deliverText(session, literal, submit);
    // What Enter would submit next: nothing once this Enter was pressed, else the text joins the line.
    await this.service.noteTyped(session, literal, result.attempts > 0);
    this.service.auditInput(session, text, submit, { via, delivered: result.delivered });
    return result;
  }

  /** Queued messages (all, or those reaching one agent); `cancel` takes one out of the queue first. */
  async queue(input: { agent?: string; cancel?: number }) {
    await this.sync();
    let cancelled;
    if (input.cancel !== undefined) {
      const m = this.hive.outbox.cancel(input.cancel);
      if (!m) throw new ToolError(`no queued message #${input.cancel} (delivered, expired or cancelled already; see hive_events)`);
      if (m.claimedBy !== null) throw new ToolError(`queued message #${input.cancel} is being typed right now; it cannot be cancelled`, "busy");
      recordQueued(this.hive.events, m, "cancelled");
      cancelled = this.queuedView(m);
    }
    if (input.agent !== undefined) this.hive.agents.get(input.agent);
    const queued = this.hive.outbox.list(input.agent).map((m) => this.queuedView(m));
    return { ...(cancelled ? { cancelled } : {}), queued };
  }

  private queuedView(m: import("../hive/index.js").QueuedMessage) {
    return {
      id: m.id, agents: m.agents, session: m.sessionId, level: m.level, source: m.source, text: m.text,
      queued_at: new Date(m.createdAt).toISOString(), expires_at: new Date(m.expiresAt).toISOString(), typing: m.claimedBy !== null,
    };
  }

  // ---- status, events, waits, watchers ---------------------------------------------------

  async setStatus(input: { agent: string; status: string; detail?: string }) {
    const report = parseStatusArgs([input.status, ...(input.detail ? [input.detail] : [])]);
    const agent = this.hive.agents.get(input.agent);
    const s = this.registry.byId(agent.sessionId);
    const result = s
      ? this.tracker.record(() => this.hive.applySelfStatus(input.agent, report), s)
      : this.hive.applySelfStatus(input.agent, report).agent;
    return { agent: this.agentView(result ?? this.hive.agents.get(input.agent)) };
  }

  async events(input: { since?: number; targets?: TargetSpec; kinds?: EventKind[]; limit?: number }) {
    await this.sync();
    const r = this.hive.eventsSince(input.since ?? 0, { targets: input.targets, sessions: this.descriptors(), kinds: input.kinds, limit: input.limit });
    return { events: r.events, cursor: r.cursor, more: r.more, missed: r.missed };
  }

  async wait(input: { targets: TargetSpec; for: WaitFor; pattern?: string; mode?: "any" | "all"; timeout_s?: number }, ctx?: CallContext): Promise<HiveWaitResult> {
    let pattern: SafeRegex | undefined;
    if (input.for === "pattern") {
      if (!input.pattern) throw new ToolError('for: "pattern" needs a pattern');
      pattern = this.service.regex(input.pattern, "pattern");
    }
    const { targets } = await this.resolve(input.targets);
    // An idle status does not end a message's work until the turn it started is over, and a
    // queued message is work still to come (see hive/turns.ts, hive/outbox.ts).
    const held = (a: AgentRecord) => this.hive.turns.holdsIdle(a.name) || this.hive.outbox.hasFor(a.sessionId);
    return withProgress(ctx, `waiting for ${input.for} (${input.mode ?? "any"} of ${targets.length})`, hiveWait({ hive: this.hive, registry: this.registry, tracker: this.tracker, held }, targets, {
      for: input.for, pattern, mode: input.mode ?? "any", timeoutMs: (input.timeout_s ?? 30) * 1000,
    }));
  }

  async watch(input: { targets?: TargetSpec; pattern?: string; flags?: string; label?: string; remove?: number }) {
    await this.sync();
    let added, removed;
    if (input.remove !== undefined) removed = this.hive.watchers.remove(input.remove);
    if (input.pattern !== undefined) {
      if (input.targets === undefined) throw new ToolError("a watcher needs targets (e.g. \"all\", \"team:backend\")");
      this.hive.resolveTargets(input.targets, this.descriptors()); // unknown names → error now, not silence later
      added = this.hive.watchers.add({ target: input.targets, pattern: input.pattern, flags: input.flags, label: input.label });
    } else if (input.targets !== undefined) throw new ToolError("give a pattern to watch for");
    this.scanner.invalidate();
    return { ...(added ? { added } : {}), ...(removed ? { removed } : {}), watchers: this.hive.watchers.list() };
  }

  // ---- mailbox, focus ------------------------------------------------------------------

  async mail(input: { to: string; text: string; from?: string; type_into_pane?: boolean }) {
    await this.sync();
    const message = this.hive.mailbox.send(input.from ?? "orchestrator", input.to, input.text);
    let typed: DeliveryResult | { delivered: false; note: string } | undefined;
    if (input.type_into_pane) {
      const agent = this.hive.agents.get(input.to);
      try {
        // The same path as every typed text: size limit, gate when submitted, audit.
        const session = this.liveSession(agent.sessionId);
        const text = `[message from ${message.from}] ${input.text}`;
        await this.service.checkInput(text, session, { enter: true });
        typed = await this.typeMessage(session, text, true, "hive_mail");
      } catch (error) {
        typed = { delivered: false, note: (error as Error).message };
      }
    }
    return { message, ...(typed ? { typed } : {}) };
  }

  async inbox(input: { agent: string; all?: boolean; peek?: boolean; limit?: number }) {
    const messages = this.hive.mailbox.read(input.agent, { unreadOnly: !input.all, markRead: !input.peek, limit: input.limit });
    return { agent: input.agent, messages, unread_left: this.hive.mailbox.unreadCount(input.agent) };
  }

  async focus(input: { session: string }) {
    await this.sync();
    let ref = input.session;
    const agent = this.hive.agents.find(ref);
    if (agent && !this.registry.all().some((s) => s.name === ref || s.id === ref)) ref = agent.sessionId;
    const session = await this.registry.get(ref);
    await this.service.backend.focus(session.paneId);
    await focusInIterm2(this.service, session.paneId);
    return { focused: session.name, session: session.id, pane: session.paneId, attach: this.service.backend.attachCommand(session.paneId) };
  }

  close(): void {
    if (!this.opened) return;
    this.opened.tracker.stop();
    this.opened.scanner.stop();
    this.opened.outbox.stop();
    this.opened.stopNotifier();
    this.opened.hive.close();
  }
}
