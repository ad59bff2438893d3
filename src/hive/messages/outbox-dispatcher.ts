// Types queued messages (hive/store/outbox.ts) when their agent is next idle. Every termhive process
// with the hive open runs one; the claim in SQLite makes each message typed by one of them.
//
// Wake-ups: a status change this process records (an agent became idle: the common case, no
// delay), and a sweep every SWEEP_MS for what has no in-process event — a status written by
// another process, a queue left by a process that died, and TTL expiry.
import { randomBytes } from "node:crypto";
import { mayTypeNow, type AgentRecord, type Hive, type QueuedMessage } from "../index.js";
import type { Event } from "../../util/event.js";
import type { Disposable } from "../../util/lifecycle.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import type { SessionRegistry } from "../../terminal/live/registry.js";
import { pendingOnInputLine, type DeliveryOptions, type DeliveryResult } from "../../terminal/typing/delivery.js";
import { literalText } from "../../terminal/model/literal-text.js";
import { recordQueued } from "./message-log.js";
import { screenFacts, type ScreenFacts } from "./screen-facts.js";

const SWEEP_MS = 1000;
/** A message the program did not take is retried at the next idle moment, but not sooner than this. */
const RETRY_MS = 5000;
/** A re-drain waiting for the screen to be still comes this much after it may be (timer slack). */
const SETTLE_SLACK_MS = 10;
/** How often, at most, a queue waiting for panes this process cannot reach asks for a resync. */
const RESYNC_MS = 2000;

/** `retry`: typed before and it did not show in time; `entered`: Enter was pressed for it before (see deliverText). */
export type TypeMessage = (session: TerminalSession, text: string, submit: boolean, options: DeliveryOptions) => Promise<DeliveryResult>;

export class OutboxDispatcher {
  private readonly claimer = `${process.pid}:${randomBytes(4).toString("hex")}`;
  /** Sessions this process is typing into now (one at a time per session). */
  private readonly typing = new Set<string>();
  private readonly failedAt = new Map<string, number>();
  /** Queued messages this process typed that did not show in time (ids; dropped once delivered). */
  private readonly tried = new Set<number>();
  /** Re-drains waiting for a screen to be still (see drainLater). */
  private readonly later = new Map<string, NodeJS.Timeout>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly subscription: Disposable;
  private resyncedAt = 0;

  constructor(
    private readonly hive: Hive,
    private readonly registry: SessionRegistry,
    onAgentChanged: Event<AgentRecord>,
    private readonly type: TypeMessage,
    private readonly afterTyping: (agents: readonly string[], delivered: boolean, timing: { takenAt?: number; enteredAt?: number }) => void,
    /**
     * Binds the hive to the panes again (Crew.sync): a pane on a host that was down comes back
     * only through a listing, and no status change says when; the sync sweeps once it adopts.
     */
    private readonly resync: () => Promise<void> = async () => {},
    /** The session's host is left out (down, or its listing went unanswered): nothing is typed there until it answers. */
    private readonly outOfReach: (session: TerminalSession) => boolean = () => false,
  ) {
    this.subscription = onAgentChanged((agent) => {
      if (agent.status === "idle") void this.drain(agent.sessionId);
    });
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref(); // a queue is no reason to keep a finished CLI process alive
  }

  dispose(): void {
    clearInterval(this.sweeper);
    for (const timer of this.later.values()) clearTimeout(timer);
    this.later.clear();
    this.subscription.dispose();
  }

  sweep(): void {
    try {
      for (const m of this.hive.outbox.expire()) {
        this.tried.delete(m.id);
        recordQueued(this.hive.events, m, "expired", "not typed before its time ran out (the agent stayed busy)");
      }
      const waiting = this.hive.outbox.sessions();
      for (const sessionId of waiting) void this.drain(sessionId);
      const unreachable = waiting.some((id) => {
        const session = this.registry.byId(id);
        return session ? this.outOfReach(session) : this.hive.agents.bySession(id).some((a) => a.status !== "exited");
      });
      if (unreachable && Date.now() - this.resyncedAt >= RESYNC_MS) {
        this.resyncedAt = Date.now();
        void this.resync().catch(() => {}); // the host is still down: the next sweep asks again
      }
    } catch {
      // store locked or closed: the next sweep retries
    }
  }

  private drainLater(sessionId: string, ms: number): void {
    if (this.later.has(sessionId)) return;
    const timer = setTimeout(() => {
      this.later.delete(sessionId);
      void this.drain(sessionId);
    }, ms + SETTLE_SLACK_MS);
    timer.unref();
    this.later.set(sessionId, timer);
  }

  /** Types the oldest queued message for a session once all its agents are idle and its input box is still on screen. */
  async drain(sessionId: string): Promise<void> {
    if (this.typing.has(sessionId)) return;
    if (Date.now() - (this.failedAt.get(sessionId) ?? 0) < RETRY_MS) return;
    const session = this.registry.byId(sessionId);
    if (!session || !session.alive || session.goneReason || this.outOfReach(session)) return;
    this.typing.add(sessionId);
    let message: QueuedMessage | undefined;
    // Set inside the claim's check: how long until an idle agent's screen may be still.
    const settle: { inMs: number | null } = { inMs: null };
    try {
      // The screen is judged before the write lock is taken (the profiles' regexes over a whole
      // screen, per agent, would otherwise hold every other process's write back). It cannot go
      // stale on the way in: this process's screen only changes in an event-loop callback, and
      // from here to the check below nothing yields, so the check sees the very screen judged
      // here (only its quiet time is a few µs short: it may say "not settled yet", never the
      // reverse). What another process can change — statuses, turns, the queue head and its
      // claim — is still read under the lock, so the claim stays one process's and one
      // message's, as before.
      // Most idle moments have nothing queued: no screen to judge then (the claim checks again).
      if (!this.hive.outbox.hasFor(sessionId)) return;
      const screens = this.screensOf(session);
      message = this.hive.outbox.claim(sessionId, this.claimer, (head) => {
        const agents = this.hive.agents.bySession(sessionId).filter((a) => a.status !== "exited");
        // Retaken from a process that died after typing it and before the program took it: its
        // text on the input line is what makes the agent look busy (a shell's line no longer
        // ends in its prompt), and it was idle when that process claimed it. It needs its Enter
        // only; waiting for idle would leave it, and the queue behind it, there for good.
        // Entered by that process and gone from the input line, the program took it: it is only
        // recorded as delivered (nothing is typed), so neither the agents' status nor the turn
        // that process began (holding idle up to TURN_GRACE_MS) has to be waited out.
        if (head.orphan && head.submit && (head.orphan.entered || pendingOnInputLine(session, literalText(head.text).text))) {
          this.hive.turns.begin(agents.map((a) => a.name));
          return true;
        }
        const facts = agents.map((a) => {
          // An agent bound or rebound since (another profile): judged here, the rare way.
          const screen = screens.get(screenKey(a)) ?? screenFacts(this.hive, session, a);
          if (a.status === "idle" && screen.settlesInMs !== null) settle.inMs = Math.max(settle.inMs ?? 0, screen.settlesInMs);
          return { status: a.status, typing: false, holdsIdle: this.hive.turns.holdsIdle(a.name), inputSettled: screen.inputSettled };
        });
        if (!mayTypeNow({ for: "queued", agents: facts })) return false;
        // Claimed and the turn begun in one transaction: a cascade arriving now sees the turn and queues behind.
        this.hive.turns.begin(agents.map((a) => a.name));
        return true;
      });
      if (!message) {
        // Idle, but the screen is still redrawing (a dialog just closed, a turn just ended):
        // no status change will say when it is still, so ask again once it may be.
        if (settle.inMs !== null) this.drainLater(sessionId, settle.inMs);
        return;
      }
      let result: DeliveryResult | undefined;
      let error: string | undefined;
      try {
        // A message retaken from a process that died typing it may sit on the input line
        // (retry: submitted, not typed again) or have been taken already (entered).
        const claimed = message;
        result = await this.type(session, message.text, message.submit, {
          retry: this.tried.has(message.id) || message.orphan !== undefined,
          entered: message.orphan?.entered === true,
          onEnter: () => {
            try {
              this.hive.outbox.entering(claimed.id, this.claimer);
            } catch {
              // store locked: a process retaking the claim types it as not entered (retry)
            }
          },
        });
      } catch (e) {
        error = (e as Error).message;
      }
      // Taken before this process came (Enter pressed by one that died): its turn is not this one's to start.
      const takenBefore = message.orphan?.entered === true && result?.attempts === 0;
      this.afterTyping(message.agents, (result?.delivered ?? false) && !takenBefore, result ?? {});
      if (result?.delivered) {
        this.tried.delete(message.id);
        this.hive.outbox.done(message.id);
        recordQueued(this.hive.events, message, "delivered", undefined, result.attempts, result.confirmedBy);
      } else {
        // Not seen where input goes (no Enter pressed), or not taken after two Enters: back in
        // the queue for the agent's next idle moment.
        this.tried.add(message.id);
        this.hive.outbox.release(message.id);
        this.failedAt.set(sessionId, Date.now());
        recordQueued(this.hive.events, message, "undelivered", `${error ?? result?.note ?? "not taken"}; stays queued, typed again at the next idle moment`);
      }
    } catch {
      // store locked or closed: the claim (if any) goes stale and is retaken
    } finally {
      this.typing.delete(sessionId);
    }
    // A message the dead process had entered leaves the queue with no turn begun here: the agent
    // stays idle, and no status change comes to type the next one (it waited for the sweep).
    if (message?.orphan?.entered === true) setImmediate(() => void this.drain(sessionId));
  }

  /** What the pane shows, per live agent's name and profile (read outside any transaction). */
  private screensOf(session: TerminalSession): Map<string, ScreenFacts> {
    const screens = new Map<string, ScreenFacts>();
    for (const a of this.hive.agents.bySession(session.id)) {
      if (a.status !== "exited") screens.set(screenKey(a), screenFacts(this.hive, session, a));
    }
    return screens;
  }
}

/** The screen is judged by the agent's profile: facts are kept per name and profile. */
const screenKey = (a: AgentRecord): string => `${a.name}\u0000${a.profile}`;
