// The hive operations every door calls: layouts, agents, teams, parallel send/read, cascading
// messages, status, events, waits, watchers, mailbox, focus. State lives in the hive's SQLite
// store (src/hive); the hive at work with live panes is the crew (src/hive/live/crew.ts), and
// the operations over it are src/hive/ops/: this class only wires them to this process's crew
// and terminal, built once by the composition root (root.ts).
import type { AgentRecord, EventKind, TargetSpec } from "../hive/index.js";
import type { Crew } from "../hive/live/crew.js";
import { deliverCascade, type CascadeInput } from "../hive/ops/cascade-delivery.js";
import { buildLayout, splitPane, type LayoutInput, type SplitInput } from "../hive/launch/layout-builder.js";
import type { SpawnInput } from "../hive/launch/spawn.js";
import { restoreAgents, type RestoreInput } from "../hive/launch/restore.js";
import type { HiveWaitResult } from "../hive/ops/hive-wait.js";
import { withProgress } from "../hive/ops/progress.js";
import type { AnswerInput } from "../hive/ops/answer.js";
import { agentSeen, assign, listAgents, registerAgent, removeAgent, spawnAndShow } from "../hive/ops/agents.js";
import { answerThroughSend } from "../hive/ops/answer-typing.js";
import { readTargets, sendToTargets, type HiveReadInput, type HiveSendInput } from "../hive/ops/fan-out.js";
import { eventsSince, waitForTargets, watch, type HiveWaitInput } from "../hive/ops/follow.js";
import { focusPane, type FocusDisplay } from "../hive/ops/focus.js";
import { mailAndType, statusThroughPane } from "../hive/ops/mail.js";
import { listQueue } from "../hive/ops/queue.js";
import { readInbox, recordOwnStatus, type MailInput } from "../hive/ops/store-only.js";
import type { CallContext } from "./inputs.js";
import { terminalPort } from "../hive/ops/terminal-port.js";
import type { Terminal } from "../terminal/ops/terminal.js";

export type { MessageDelivery } from "../hive/ops/cascade-delivery.js";
export type { PerTarget } from "../hive/ops/fan-out.js";
export type { FocusDisplay } from "../hive/ops/focus.js";

export class HiveService {
  /** Last text hive_send typed per session (skip_duplicates). */
  private readonly lastSent = new Map<string, string>();

  /**
   * The store is opened on first use (by the crew), not here: a server that is only asked for
   * terminals never pays for SQLite at start-up (~8 ms of the time to its first tool list), and
   * a hive database that cannot be opened fails the hive call that needs it, with the reason.
   * `service` is the terminal as the hive's operations type into and read it (hive/ops/terminal-port.ts).
   */
  constructor(
    readonly terminal: Terminal,
    readonly crew: Crew,
    private readonly focusDisplays: readonly FocusDisplay[] = [],
    private readonly service = terminalPort(terminal),
  ) {}

  get hive() {
    return this.crew.hive;
  }

  /** Agent status changes (typed, disposable), listenable before the store is open. */
  get onAgentChanged() {
    return this.crew.onAgentChanged;
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

  registerAgent(input: { name: string; session: string; team?: string; profile?: string; replace?: boolean }) {
    return registerAgent(this.crew, input);
  }

  spawn(input: SpawnInput, ctx?: CallContext) {
    return withProgress(ctx, `starting agent ${input.name} and waiting until it is ready`, spawnAndShow(this.crew, this.service.backend, input));
  }

  /** agent_restore: agents whose pane is gone come back resuming their conversations (hive/launch/restore.ts). */
  restore(input: RestoreInput, ctx?: CallContext) {
    return withProgress(ctx, input.name ? `restoring agent ${input.name}` : "restoring the agents whose panes are gone", restoreAgents(this.crew, input));
  }

  agentView(a: AgentRecord) {
    return agentSeen(this.crew.registry, a);
  }

  listAgents(input: { team?: string; recursive?: boolean }) {
    return listAgents(this.crew, input);
  }

  /** Answers the question an agent shows (hive/ops/answer.ts); typed through the one send path (gate, audit). */
  answer(input: AnswerInput, ctx: CallContext) {
    return answerThroughSend(this.crew, this.service, input, ctx);
  }

  removeAgent(input: { name: string; close?: boolean }) {
    return removeAgent(this.crew, this.service.backend, input);
  }

  createTeam(input: { name: string; parent?: string; description?: string }) {
    return { team: this.hive.teams.create(input.name, { parent: input.parent ?? null, description: input.description ?? null }) };
  }

  /** Puts an agent in a team (null: out of any team), or — without agent — moves a team under a parent. */
  assign(input: { agent?: string; team: string | null; parent?: string | null }) {
    return assign(this.crew, input);
  }

  listTeams() {
    return { teams: this.hive.teams.view() };
  }

  removeTeam(input: { name: string }) {
    return this.hive.teams.remove(input.name);
  }

  // ---- parallel send / read --------------------------------------------------------------

  send(input: HiveSendInput, ctx: CallContext) {
    return sendToTargets(this.crew, this.service, this.lastSent, input, ctx);
  }

  read(input: HiveReadInput, ctx: CallContext) {
    return readTargets(this.crew, this.service, input, ctx);
  }

  // ---- cascade --------------------------------------------------------------------------

  message(input: CascadeInput) {
    return deliverCascade(this.crew, input);
  }

  /** Queued messages (all, or those reaching one agent); `cancel` takes one out of the queue first. */
  queue(input: { agent?: string; cancel?: number }) {
    return listQueue(this.crew, input);
  }

  // ---- status, events, waits, watchers ---------------------------------------------------

  async setStatus(input: { agent: string; status: string; detail?: string }) {
    return recordOwnStatus(() => this.hive, input, statusThroughPane(this.crew));
  }

  events(input: { since?: number; targets?: TargetSpec; kinds?: EventKind[]; limit?: number }) {
    return eventsSince(this.crew, input);
  }

  wait(input: HiveWaitInput, ctx?: CallContext): Promise<HiveWaitResult> {
    return waitForTargets(this.crew, this.service, input, ctx);
  }

  watch(input: { targets?: TargetSpec; pattern?: string; flags?: string; label?: string; remove?: number }) {
    return watch(this.crew, input);
  }

  // ---- mailbox, focus ------------------------------------------------------------------

  mail(input: MailInput) {
    return mailAndType(this.crew, this.service, input);
  }

  async inbox(input: { agent: string; all?: boolean; peek?: boolean; limit?: number }) {
    return readInbox(this.hive, input);
  }

  focus(input: { session: string }) {
    return focusPane(this.crew, this.service.backend, this.focusDisplays, input);
  }
}
