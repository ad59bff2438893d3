// Keeps every agent's status in step with its pane, event-driven:
//   screen change → (debounced) profile detection → agents.setStatus when it changed;
//   OSC 1337;Custom=id=termhive:… from the pane → the agent's own report;
//   the pane's program exits / the pane vanishes → exited.
// Each change is written to the store (an event for every process) and shown in the tmux pane
// border title, and announced in-process on `changes` so hive_wait wakes at once.
import { EventEmitter } from "node:events";
import type { Hive, AgentRecord, AgentProfile } from "../../hive/index.js";
import { isReady, parseStatusOsc } from "../../hive/index.js";
import type { Backend } from "../../backends/backend.js";
import { DisposableStore } from "../../terminal/events.js";
import type { TerminalSession } from "../../terminal/session.js";

/** Screen events come in bursts (one per parsed chunk); detect once the burst pauses this long. */
const DEBOUNCE_MS = 20;
/**
 * An agent's own report (`termhive status`, OSC) outranks screen guesses for this long; only
 * waiting_for_input and error (a person must look) and exited override it sooner.
 */
export const SELF_HOLD_MS = 5000;

interface Tracked {
  session: TerminalSession;
  ready: boolean;
  /**
   * Adopted from another process: the screen is a settled snapshot of unknown age, seeded at
   * this lastOutputAt. Until the pane prints again, its quiet time is unknown, and counting it
   * from the adoption would call every idle agent "working" for the first seconds.
   */
  seededAt: number | null;
  timers: NodeJS.Timeout[];
  detach: () => void;
}

/** A quiet time past every threshold of the profile: how a settled screen is judged. */
function settledQuietMs(profile: AgentProfile): number {
  return Math.max(profile.quietIdleMs, ...profile.rules.map((r) => r.minQuietMs));
}

export class StatusTracker {
  /** "change" (agent: AgentRecord) after every status change this process records. */
  readonly changes = new EventEmitter();
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    private readonly hive: Hive,
    private readonly backend: Backend,
  ) {
    this.changes.setMaxListeners(0);
  }

  isTracked(session: TerminalSession): boolean {
    return this.tracked.get(session.id)?.session === session;
  }

  /**
   * Starts following a session (idempotent). `ready`: the program was seen ready already.
   * `adopted`: this process did not see the session's output so far (see Tracked.seededAt).
   */
  track(session: TerminalSession, options: { ready?: boolean; adopted?: boolean } = {}): void {
    const existing = this.tracked.get(session.id);
    if (existing?.session === session) return;
    existing?.detach();
    const entry: Tracked = {
      session, ready: options.ready ?? false, seededAt: options.adopted ? session.lastOutputAt : null, timers: [], detach: () => {},
    };
    const wiring = new DisposableStore();
    wiring.add(session.onScreenChanged(() => this.schedule(entry)));
    wiring.add(session.onCustom(({ id, payload }) => this.onCustom(entry, id, payload)));
    wiring.add(session.onExited(({ status }) => this.exited(entry, status, undefined)));
    wiring.add(session.onClosed((reason) => this.exited(entry, entry.session.exitStatus, reason)));
    entry.detach = () => {
      for (const t of entry.timers) clearTimeout(t);
      wiring.dispose();
      if (this.tracked.get(session.id) === entry) this.tracked.delete(session.id);
    };
    this.tracked.set(session.id, entry);
    if (!session.alive) this.exited(entry, session.exitStatus, session.goneReason ?? undefined);
    else this.schedule(entry);
  }

  untrack(sessionId: string): void {
    this.tracked.get(sessionId)?.detach();
  }

  stop(): void {
    for (const entry of [...this.tracked.values()]) entry.detach();
  }

  private agentsOf(entry: Tracked): AgentRecord[] {
    try {
      return this.hive.agents.bySession(entry.session.id);
    } catch {
      return []; // store closed or locked: the next event retries
    }
  }

  /** Re-detects after the burst settles and again when each quiet threshold of the profiles passes. */
  private schedule(entry: Tracked): void {
    for (const t of entry.timers) clearTimeout(t);
    const agents = this.agentsOf(entry);
    if (agents.length === 0) return;
    // The quiet thresholds have no event ("nothing printed for 1.5 s"): these timers are that event.
    const thresholds = new Set<number>([DEBOUNCE_MS]);
    for (const a of agents) {
      const p = this.hive.profiles.find(a.profile);
      if (!p) continue;
      thresholds.add(p.quietIdleMs);
      for (const r of p.rules) if (r.minQuietMs > 0) thresholds.add(r.minQuietMs);
    }
    const since = Date.now() - entry.session.lastOutputAt;
    entry.timers = [...thresholds]
      .filter((ms) => ms === DEBOUNCE_MS || ms + 1 > since)
      .map((ms) => setTimeout(() => this.evaluate(entry), ms === DEBOUNCE_MS ? ms : Math.max(DEBOUNCE_MS, ms + 1 - since)));
  }

  /**
   * Detects and records the session's statuses now, once its screen has caught up: a process
   * that just adopted the pane answers with what the pane shows, not with what the store last
   * heard from a process that may have exited since.
   */
  async evaluateNow(session: TerminalSession): Promise<void> {
    const entry = this.tracked.get(session.id);
    if (entry?.session !== session) return;
    await session.screen.settled();
    this.evaluate(entry);
  }

  private evaluate(entry: Tracked): void {
    const { session } = entry;
    if (!session.alive || session.goneReason) return;
    const screenLines = session.screen.snapshot().lines;
    const seeded = entry.seededAt !== null && entry.seededAt === session.lastOutputAt;
    if (!seeded) entry.seededAt = null;
    for (const agent of this.agentsOf(entry)) {
      if (agent.status === "exited") continue;
      const profile: AgentProfile | undefined = this.hive.profiles.find(agent.profile);
      if (!profile) continue;
      // A seeded screen has been still at least since the adoption; treat it as settled (past
      // every quiet threshold). A spinner still matches its rule; a busy pane prints and ends this.
      const quietMs = seeded ? settledQuietMs(profile) : Date.now() - session.lastOutputAt;
      if (!entry.ready && isReady(profile, { screenLines, quietMs })) entry.ready = true;
      const detected = this.hive.detect(agent, { screenLines, quietMs, ready: entry.ready });
      if (detected.status === "exited") continue;
      const selfHeld =
        agent.statusSource === "self" &&
        Date.now() - agent.updatedAt < SELF_HOLD_MS &&
        detected.status !== "waiting_for_input" &&
        detected.status !== "error";
      if (selfHeld) continue;
      this.record(() => this.hive.agents.setStatus(agent.name, detected.status as Exclude<typeof detected.status, "exited">, { detail: detected.detail, source: "profile" }), session);
    }
  }

  private onCustom(entry: Tracked, id: string, payload: string): void {
    const parsed = parseStatusOsc(`1337;Custom=id=${id}:${payload}`);
    if (!parsed || !parsed.ok) return; // another program's OSC 1337, or malformed: never stop the stream
    const agents = this.agentsOf(entry);
    const target = parsed.value.agent ?? agents[0]?.name;
    if (!target || !agents.some((a) => a.name === target)) return;
    this.record(() => this.hive.applySelfStatus(target, parsed.value), entry.session);
  }

  private exited(entry: Tracked, exitCode: number | null, reason: string | undefined): void {
    for (const t of entry.timers) clearTimeout(t);
    try {
      const changed = this.hive.agents.markSessionExited(entry.session.id, { exitCode, reason });
      for (const agent of changed) this.changes.emit("change", agent);
      if (changed.length && !entry.session.goneReason) void this.title(entry.session);
    } catch {
      // store unavailable: the next sync marks it
    }
  }

  /** Runs a status write; on a change, tells waiters and updates the pane title. */
  record(write: () => { agent: AgentRecord; changed: boolean }, session: TerminalSession): AgentRecord | undefined {
    let result: { agent: AgentRecord; changed: boolean };
    try {
      result = write();
    } catch {
      return undefined;
    }
    if (result.changed) {
      // The border title is updated first, so whoever hears of the change sees it on screen too.
      void this.title(session).finally(() => this.changes.emit("change", result.agent));
    }
    return result.agent;
  }

  /** Pane border title: every agent in the pane with its status and detail. */
  async title(session: TerminalSession): Promise<void> {
    if (session.goneReason) return;
    const agents = this.agentsOf({ session } as Tracked);
    if (agents.length === 0) return;
    const text = agents.map((a) => `${a.name}${a.team ? ` [${a.team}]` : ""} · ${a.status}${a.statusDetail ? `: ${a.statusDetail}` : ""}`).join(" | ");
    await this.backend.setTitle(session.paneId, text).catch(() => {});
  }
}
