// The hive operations every door calls: layouts, agents, teams, parallel send/read, cascading
// messages, status, events, waits, watchers, mailbox, focus. State lives in the hive's SQLite
// store (src/hive); the hive at work with live panes is the crew (src/hive/live/crew.ts): this
// class is the thin verb side of it, built once by the composition root (root.ts).
import type { SafeRegex } from "../util/regex.js";
import { checkMessageSize, parseStatusArgs, type AgentRecord, type EventKind, type QueuedMessage, type ResolvedTarget, type TargetSpec } from "../hive/index.js";
import type { Crew } from "../hive/live/crew.js";
import { deliverCascade, type CascadeInput } from "../hive/live/cascade-delivery.js";
import { buildLayout, splitPane, type LayoutInput, type SplitInput } from "../hive/live/layout-builder.js";
import { agentView } from "../hive/agent-view.js";
import { spawnAgent, type SpawnInput } from "../hive/live/spawn.js";
import { restoreAgents, type RestoreInput } from "../hive/live/restore.js";
import { recordLaunch } from "../hive/live/restore-record.js";
import { recordQueued } from "../hive/live/message-events.js";
import { hiveWait, type HiveWaitResult, type WaitFor } from "../hive/live/wait.js";
import { withProgress } from "../hive/live/progress.js";
import { answerAgent, askQuestion, questionOnScreen, type AnswerInput } from "../hive/live/answer.js";
import type { DeliveryResult } from "../terminal/delivery.js";
import { traced } from "../util/traced.js";
import { ToolError } from "./errors.js";
import type { CallContext, TermhiveService } from "./service.js";

export type { MessageDelivery } from "../hive/live/cascade-delivery.js";

export interface PerTarget<T> {
  session: string;
  name: string;
  agents: string[];
  ok: boolean;
  result?: T;
  error?: string;
}

/** What the hive's displays add to hive_focus (iTerm2 brings the pane's tab to the front). */
export interface FocusDisplay {
  focus(paneId: string): Promise<void>;
}

export class HiveService {
  /** Last text hive_send typed per session (skip_duplicates). */
  private readonly lastSent = new Map<string, string>();

  /**
   * The store is opened on first use (by the crew), not here: a server that is only asked for
   * terminals never pays for SQLite at start-up (~8 ms of the time to its first tool list), and
   * a hive database that cannot be opened fails the hive call that needs it, with the reason.
   */
  constructor(
    readonly service: TermhiveService,
    readonly crew: Crew,
    private readonly focusDisplays: readonly FocusDisplay[] = [],
  ) {}

  get hive() {
    return this.crew.hive;
  }

  /** Agent status changes (typed, disposable), listenable before the store is open. */
  get onAgentChanged() {
    return this.crew.onAgentChanged;
  }

  private get registry() {
    return this.service.registry;
  }

  sync(): Promise<void> {
    return this.crew.sync();
  }

  resolve(targets: TargetSpec) {
    return this.crew.resolve(targets);
  }

  // ---- layouts, agents & teams ---------------------------------------------------------

  layout(input: LayoutInput, ctx?: CallContext) {
    return withProgress(ctx, "opening the layout and waiting until its panes are ready", buildLayout(this.crew, input));
  }

  split(input: SplitInput) {
    return splitPane(this.crew, input);
  }

  async registerAgent(input: { name: string; session: string; team?: string; profile?: string; replace?: boolean }) {
    await this.sync();
    const session = await this.registry.get(input.session);
    const profile = this.crew.profileFor(input.profile, session.meta.command);
    const existing = this.hive.agents.find(input.name);
    const agent = this.crew.bind(session, { name: input.name, team: input.team, profile: profile.name, replace: input.replace });
    // What is known of a pane termhive did not start: its program and folder (no env, no conversation id).
    recordLaunch(this.crew, session, { agent: agent.name, profile: profile.name, command: session.meta.command, cwd: undefined, env: undefined, team: input.team, host: session.meta.host, conversationId: null });
    return { agent: this.agentView(agent), replaced: existing ? existing.sessionId : null };
  }

  spawn(input: SpawnInput, ctx?: CallContext) {
    return withProgress(ctx, `starting agent ${input.name} and waiting until it is ready`, spawnAgent(this.crew, input).then((r) => ({
      agent: this.agentView(r.agent),
      ready: r.ready,
      ready_ms: r.ready_ms,
      ...(input.worktree ? { worktree: { path: r.cwd, branch: input.worktree.branch } } : {}),
      ...(r.warning ? { warning: r.warning } : {}),
      attach: this.service.backend.attachCommand(r.session.paneId),
    })));
  }

  /** agent_restore: agents whose pane is gone come back resuming their conversations (hive/live/restore.ts). */
  restore(input: RestoreInput, ctx?: CallContext) {
    return withProgress(ctx, input.name ? `restoring agent ${input.name}` : "restoring the agents whose panes are gone", restoreAgents(this.crew, input));
  }

  agentView(a: AgentRecord) {
    const s = this.registry.byId(a.sessionId);
    return agentView(a, s && { alive: s.alive, paneId: s.paneId, sandbox: s.meta.sandbox });
  }

  async listAgents(input: { team?: string; recursive?: boolean }) {
    await this.sync();
    const agents = this.hive.agents.list({ team: input.team, recursive: input.recursive ?? true });
    return { agents: await Promise.all(agents.map(async (a) => ({ ...this.agentView(a), question: await this.questionOf(a) }))) };
  }

  /** The question a waiting agent's screen shows now (its digest is what hive_answer checks), or null. */
  private async questionOf(a: AgentRecord) {
    if (a.status !== "waiting_for_input") return null;
    const s = this.registry.byId(a.sessionId);
    if (!s || !s.alive || s.goneReason) return null;
    const ask = this.hive.permissionAsks.pending(a.name);
    const q = ask ? askQuestion(ask) : (await questionOnScreen(this.crew, a, s)).question;
    return q && { digest: q.digest, text: q.text, choices: q.choices.map((c) => (c.number !== null ? `${c.number}. ${c.label}` : c.label)) };
  }

  /** Answers the question an agent shows (hive/live/answer.ts); typed through the one send path (gate, audit). */
  answer(input: AnswerInput, ctx: CallContext) {
    return answerAgent(this.crew, input, async (session, plan) => {
      // A digit is typed as text (it is no key name); arrows and Enter go as keys.
      if (plan.kind === "choice" && plan.keys.length === 1 && /^\d$/.test(plan.keys[0]!)) await this.service.send({ session: session.id, text: plan.keys[0]!, enter: false }, ctx);
      else if (plan.kind === "choice") await this.service.send({ session: session.id, keys: plan.keys, enter: false }, ctx);
      else await this.service.send({ session: session.id, text: plan.text, enter: true }, ctx);
    }, ctx);
  }

  async removeAgent(input: { name: string; close?: boolean }) {
    await this.sync();
    const agent = this.hive.agents.remove(input.name);
    let closed = false;
    const s = this.registry.byId(agent.sessionId);
    if (s && this.hive.agents.bySession(s.id).length === 0) {
      this.crew.tracker.untrack(s.id);
      if (input.close) {
        await this.registry.close(s);
        closed = true;
      } else await this.service.backend.windows?.setTitle(s.paneId, s.name).catch(traced("pane title after removing its agent"));
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
      if (s) void this.crew.tracker.title(s);
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
    checkMessageSize(input.text, "text");
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

  message(input: CascadeInput) {
    return deliverCascade(this.crew, input);
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

  private queuedView(m: QueuedMessage) {
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
      ? this.crew.tracker.record(() => this.hive.applySelfStatus(input.agent, report), s)
      : this.hive.applySelfStatus(input.agent, report).agent;
    return { agent: this.agentView(result ?? this.hive.agents.get(input.agent)) };
  }

  async events(input: { since?: number; targets?: TargetSpec; kinds?: EventKind[]; limit?: number }) {
    await this.sync();
    const r = this.hive.eventsSince(input.since ?? 0, { targets: input.targets, sessions: this.crew.descriptors(), kinds: input.kinds, limit: input.limit });
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
    return withProgress(ctx, `waiting for ${input.for} (${input.mode ?? "any"} of ${targets.length})`, hiveWait({ hive: this.hive, registry: this.registry, onAgentChanged: this.onAgentChanged, held }, targets, {
      for: input.for, pattern, mode: input.mode ?? "any", timeoutMs: (input.timeout_s ?? 30) * 1000,
    }));
  }

  async watch(input: { targets?: TargetSpec; pattern?: string; flags?: string; label?: string; remove?: number }) {
    await this.sync();
    let added, removed;
    if (input.remove !== undefined) removed = this.hive.watchers.remove(input.remove);
    if (input.pattern !== undefined) {
      if (input.targets === undefined) throw new ToolError("a watcher needs targets (e.g. \"all\", \"team:backend\")");
      this.hive.resolveTargets(input.targets, this.crew.descriptors()); // unknown names → error now, not silence later
      added = this.hive.watchers.add({ target: input.targets, pattern: input.pattern, flags: input.flags, label: input.label });
    } else if (input.targets !== undefined) throw new ToolError("give a pattern to watch for");
    this.crew.scanner.invalidate();
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
        const session = this.crew.liveSession(agent.sessionId);
        const text = `[message from ${message.from}] ${input.text}`;
        await this.service.policy.check(text, session, { enter: true });
        typed = await this.crew.typeMessage(session, text, true, "hive_mail");
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
    // A display's focus never fails hive_focus.
    for (const d of this.focusDisplays) await d.focus(session.paneId).catch(traced("focusing the pane in a display"));
    return { focused: session.name, session: session.id, pane: session.paneId, attach: this.service.backend.attachCommand(session.paneId) };
  }
}
