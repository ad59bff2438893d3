// The hive at work in this process: one crew per process joins the hive's store (src/hive) to
// the live sessions (terminal/). It owns the status tracker, the watch scanner, the outbox
// dispatcher and the status displays registered with it (`displays`: tmux borders, iTerm2
// tabs, notices; displays/status-display.ts), and tells the rest of the process of every agent
// status change on `onAgentChanged` (typed, disposable: util/event.ts). Cascade delivery
// (cascade-delivery.ts), layout building (layout-builder.ts) and spawning (spawn.ts) are
// built on it. It imports terminal/ and hive/, never service/ or a door.
import { basename } from "node:path";
import { mayTypeNow, isBusyStatus, TURN_GRACE_MS, type AgentProfile, type AgentRecord, type Hive, type ResolvedTarget, type TargetSpec } from "../index.js";
import type { Backend } from "../../backends/backend.js";
import { deliverLiteral, type DeliveryOptions, type DeliveryResult } from "../../terminal/typing/delivery.js";
import { inInputTurn } from "../../terminal/typing/input-turn.js";
import { markLine } from "../../terminal/live/line-marks.js";
import { Emitter, type Event } from "../../util/event.js";
import { DisposableStore, toDisposable } from "../../util/lifecycle.js";
import type { InputPolicy } from "../../terminal/typing/input-policy.js";
import { literalText } from "../../terminal/model/literal-text.js";
import type { SessionRegistry } from "../../terminal/live/registry.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { ToolError } from "../../util/tool-error.js";
import { traced } from "../../util/traced.js";
import { OutboxDispatcher } from "../messages/outbox-dispatcher.js";
import { StatusDisplays } from "../displays/status-display.js";
import { screenFacts } from "../messages/screen-facts.js";
import { StatusTracker } from "./status-tracker.js";
import { WatchScanner } from "./watch-scanner.js";
import type { SandboxOption } from "../../sandbox/policy.js";
import { RelayFollower } from "../relay/relay-follower.js";
import { takenReportFor } from "./taken-report.js";
import { notifyConfigured } from "../notify/notify-config.js";

/** How often a process that sends notifications looks for agents' panes to follow (see followHive). */
const FOLLOW_SYNC_MS = 5000;

export interface CrewDeps {
  registry: SessionRegistry;
  /** Size limit, safety gate, audit: the rules every typed text passes. */
  policy: InputPolicy;
  /** TERMHIVE_HOME (hook settings files). */
  home: string;
  /** Refuses opening `count` sessions over TERMHIVE_MAX_SESSIONS (the terminal service's check). */
  ensureRoomFor: (count: number) => Promise<void>;
  /** Opens the store; called on first use (a terminal-only process never opens SQLite). */
  openHive: () => Hive;
  /** TERMHIVE_NOTIFY_URL's URLs (notify.json under `home` adds more): notifications off the machine. */
  notifyUrls?: readonly string[];
  /** TERMHIVE_SANDBOX: the sandbox preset of agents whose call and profile name none. */
  agentSandbox?: SandboxOption | null;
}

interface Parts {
  hive: Hive;
  tracker: StatusTracker;
  scanner: WatchScanner;
  outbox: OutboxDispatcher;
  relay: RelayFollower;
}

export class Crew {
  private readonly agentChanged = new Emitter<AgentRecord>();
  /** Every agent status change this process records or follows, after the pane displays (tmux borders) show it. */
  readonly onAgentChanged: Event<AgentRecord> = this.agentChanged.event;
  /** Where agents' statuses are shown: each display is added once where the crew is built, and ends with it. */
  readonly displays = new StatusDisplays(this.onAgentChanged);
  private opened: Parts | undefined;
  /** What follows the hive on its own (followHive, followRelays): ended first. */
  private readonly followers = new DisposableStore();
  /** The parts opened with the hive, in the order they end: what uses the store, then the store. */
  private readonly owned = new DisposableStore();
  private synced: Promise<void> | null = null;
  private following: NodeJS.Timeout | null = null;

  constructor(readonly deps: CrewDeps) {}

  get registry(): SessionRegistry {
    return this.deps.registry;
  }

  get backend(): Backend {
    return this.deps.registry.backend;
  }

  private get parts(): Parts {
    if (!this.opened) {
      const hive = this.deps.openHive();
      const tracker = new StatusTracker(hive, this.displays, (agent) => this.agentChanged.fire(agent), (s) => this.hostDown(s.meta.host));
      const outbox = new OutboxDispatcher(hive, this.registry, this.onAgentChanged, (session, text, submit, options) => this.typeMessage(session, text, submit, "hive_message", options), (agents, delivered, timing) => this.turnAfterTyping(agents, delivered, timing), () => this.sync(), (s) => this.hostDown(s.meta.host));
      const relay = new RelayFollower(hive, this.deps.home, this.deps.policy.audit);
      // Followed as it opens: a sandboxed pane with no agent has no bind that would start it.
      const stopRelayOnOpen = this.registry.onOpened(({ session }) => {
        if (session.meta.sandbox) relay.follow(session);
      });
      const scanner = new WatchScanner(hive, this.registry);
      this.opened = { hive, tracker, scanner, outbox, relay };
      this.displays.start({ hive });
      for (const part of [tracker, scanner, outbox, this.displays, stopRelayOnOpen, relay, toDisposable(() => hive.close())]) this.owned.add(part);
    }
    return this.opened;
  }

  get hive(): Hive {
    return this.parts.hive;
  }

  /** The host is down or did not answer the last listing: its panes are out of reach, not closed. */
  hostDown(host: string | null | undefined): boolean {
    return host != null && (this.backend.hosts?.hostsLeftOut().has(host) ?? false);
  }

  get tracker(): StatusTracker {
    return this.parts.tracker;
  }

  get scanner(): WatchScanner {
    return this.parts.scanner;
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
      // What sandboxed panes' own `termhive` left for the hive (sandbox/relay.ts).
      for (const s of live.values()) if (s.meta.sandbox && s.alive) this.parts.relay.follow(s);
      this.parts.relay.forgetGone(new Set([...live.values()].filter((s) => s.alive).map((s) => s.id)));
      const adopted = new Set<TerminalSession>();
      const hive = this.hive;
      for (const agent of hive.agents.list()) {
        const session = live.get(agent.sessionId);
        if (session) {
          if (!this.tracker.isTracked(session)) {
            this.tracker.track(session, { ready: agent.status !== "starting", adopted: true });
            adopted.add(session);
          }
        } else if (agent.status !== "exited" && !this.hostDown(hive.launches.find(agent.name)?.host)) {
          // (An agent on a host that is down stays as it was: its pane is out of reach, not gone.)
          const changed = this.hive.agents.markSessionExited(agent.sessionId, { reason: "session is gone" });
          for (const a of changed) this.agentChanged.fire(a);
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

  /**
   * A process with notifications configured follows the hive from its start, not from its
   * first hive call: a `serve` started with TERMHIVE_NOTIFY_URL is often never called (the
   * client's own `termhive mcp` does the work). Its notifier starts now, and the agents' panes
   * are followed from now on (panes another process starts within FOLLOW_SYNC_MS).
   */
  followHive(): void {
    if (this.following || !notifyConfigured(this.deps.home, this.deps.notifyUrls ?? [])) return;
    const look = () => void this.sync().catch(traced("following the hive for notifications"));
    look();
    const following = (this.following = setInterval(look, FOLLOW_SYNC_MS));
    following.unref();
    this.followers.add(toDisposable(() => clearInterval(following)));
  }

  /**
   * Every process that has a sandboxed pane open follows its relay folder (sandbox/relay.ts),
   * not only one that runs the hive: that folder is the one place of this disk such a pane can
   * write, and its bounds (request size, count, bytes) are kept by whoever follows it. Before,
   * a process making only terminal calls left a 600 MB file there until a hive call came.
   */
  followRelays(): void {
    if (this.relayWatch) return;
    const follow = (s: TerminalSession): void => {
      if (!s.meta.sandbox || s.meta.host || !s.alive) return;
      try {
        this.parts.relay.follow(s);
      } catch (error) {
        traced("following a sandboxed pane's relay folder")(error); // the hive store cannot be opened: its next call says why
      }
    };
    this.relayWatch = this.followers.add(this.registry.onOpened(({ session }) => follow(session)));
    for (const s of this.registry.all()) follow(s);
  }

  private relayWatch: { dispose(): void } | null = null;

  descriptors() {
    return this.registry.all().map((s) => ({ id: s.id, name: s.name, alive: s.alive }));
  }

  async resolve(targets: TargetSpec): Promise<{ targets: ResolvedTarget[]; unavailable: { ref: string; reason: string }[] }> {
    await this.sync();
    return this.hive.resolveTargets(targets, this.descriptors());
  }

  liveSession(id: string): TerminalSession {
    const s = this.registry.byId(id);
    if (!s || s.goneReason) throw new ToolError(`session ${id} is gone`, "dead");
    return s;
  }

  profileFor(name: string | undefined, command: string | undefined): AgentProfile {
    if (name) return this.hive.profiles.get(name);
    // No profile given: a command named like a profile (claude, codex, aider) uses it.
    const program = basename((command ?? "").trim().split(/\s+/)[0] ?? "");
    return this.hive.profiles.find(program) ?? this.hive.profiles.get("shell");
  }

  /** Registers the session as agent `a.name` and follows its status from now on. */
  bind(session: TerminalSession, a: { name: string; team?: string | null; profile: string; replace?: boolean; keepTeam?: boolean; ready?: boolean }): AgentRecord {
    const r = this.hive.registerAgent({ name: a.name, sessionId: session.id, sessionName: session.name, profile: a.profile, team: a.team ?? null, replace: a.replace, keepTeam: a.keepTeam });
    this.tracker.untrack(session.id);
    this.tracker.track(session, { ready: a.ready });
    this.parts.relay.follow(session);
    void this.tracker.title(session);
    return r.agent;
  }

  /** Judges a followed session's status from its screen now (after it caught up). */
  judgeNow(session: TerminalSession): Promise<void> {
    return this.tracker.evaluateNow(session);
  }

  /** The busy rule's verdict for a new message to a session's agents (see hive/rules/busy-rule.ts). */
  mayTypeMessage(sessionId: string, agents: readonly AgentRecord[]): boolean {
    // A shell that says (OSC 133) it is at its prompt reads the line now, whatever the screen guess says.
    const live = this.registry.byId(sessionId);
    const atPrompt = live !== undefined && live.integrated && live.phase === "prompt";
    return mayTypeNow({
      for: "message",
      queuedBefore: this.hive.outbox.hasFor(sessionId),
      atPrompt,
      agents: agents.map((a) => {
        const turn = this.hive.turns.get(a.name);
        return { status: a.status, typing: turn?.typing === true, holdsIdle: this.hive.turns.holdsIdle(a.name), dialogOnScreen: screenFacts(this.hive, live, a).dialogOnScreen };
      }),
    });
  }

  /**
   * After typing: the turn starts (delivered) or there is none (not taken). `takenAt`: when the
   * program was seen taking the text (DeliveryResult.takenAt); `enteredAt`: when the Enter it
   * took was pressed, where its turn starts (its hooks fire after it, however late this
   * process saw the take).
   */
  turnAfterTyping(agents: readonly string[], delivered: boolean, timing: { takenAt?: number; enteredAt?: number } = {}): void {
    const takenAt = timing.takenAt ?? Date.now();
    const enteredAt = timing.enteredAt ?? takenAt;
    try {
      if (delivered) {
        this.hive.turns.submitted(agents, (n) => isBusyStatus(this.hive.agents.find(n)?.status ?? ""), enteredAt);
        // A quick turn whose Stop hook reported before this process saw the take (a loaded
        // machine): the hook's idle since the Enter is this turn's end. Made "working" here, it
        // stayed so, with no hook left to come (the cascade bench: 7 of 32 agents at load 20).
        const endedByHook = agents.filter((n) => {
          const a = this.hive.agents.find(n);
          return a?.status === "idle" && a.statusSource === "hook" && a.updatedAt >= enteredAt;
        });
        if (endedByHook.length > 0) this.hive.turns.cancel(endedByHook);
        // The program took the text: its turn starts now, whatever a hook said before (Codex
        // reports only turn ends), held a few seconds against a screen that has not caught up.
        // Not when the take was seen TURN_GRACE_MS ago or more (its hook's report waited for):
        // the screen has caught up by then, and an idle there is the turn already over.
        if (Date.now() - takenAt >= TURN_GRACE_MS) return;
        for (const name of agents) {
          if (endedByHook.includes(name)) continue;
          const a = this.hive.agents.find(name);
          const s = a && this.registry.byId(a.sessionId);
          if (a?.status === "idle" && s) this.tracker.record(() => this.hive.agents.setStatus(name, "working", { detail: "took a typed message", source: "typed" }), s);
        }
      } else this.hive.turns.cancel(agents);
    } catch {
      // store locked: a typing row goes stale and stops holding after a while
    }
  }

  /** Every text the hive types into an agent (cascade now, from the queue, a mail): one path, audited like terminal_send. */
  typeMessage(session: TerminalSession, text: string, submit: boolean, via: "hive_message" | "hive_mail" = "hive_message", options: DeliveryOptions = {}): Promise<DeliveryResult> {
    // In the session's input turn: a terminal_send or run into the same pane never mixes with it.
    return inInputTurn(session, () => this.typeMessageNow(session, text, submit, via, options));
  }

  private async typeMessageNow(session: TerminalSession, text: string, submit: boolean, via: "hive_message" | "hive_mail", options: DeliveryOptions): Promise<DeliveryResult> {
    const literal = literalText(text).text;
    // A shell agent at its prompt runs the message as a command line: its pager prints, as for terminal_run.
    if (submit && session.integrated && session.phase === "prompt") await markLine(this.backend, this.deps.home, session, "run");
    this.tracker.typingInto(session, Date.now());
    const taken = submit && !options.taken ? takenReportFor(this.hive, session.id, literal) : undefined;
    const result = await deliverLiteral(session, literal, submit, taken ? { ...options, taken } : options);
    // What Enter would submit next: nothing once this Enter was pressed, else the text joins the line.
    // An emptied line is recorded without waiting (tmux keeps this process's commands in order).
    const noted = this.deps.policy.noteTyped(session, literal, result.attempts > 0);
    if (result.attempts > 0) void noted.catch(traced("recording the emptied input line after a message"));
    else await noted;
    this.deps.policy.recordInput(session, text, submit, { via, delivered: result.delivered });
    return result;
  }

  /** Stops the followers, the tracker's, scanner's, outbox's and displays' timers and subscriptions and closes SQLite (if opened). */
  dispose(): void {
    this.followers.dispose();
    // Opened or not, the displays end with the crew (opened, they end in `owned`'s order).
    if (!this.opened) this.displays.dispose();
    this.owned.dispose();
  }

  /** The name tests knew it by. */
  close(): void {
    this.dispose();
  }
}
