// Keeps every agent's status in step with its pane, event-driven:
//   screen change → (debounced) profile detection → agents.setStatus when it changed;
//   OSC 1337;Custom=id=termhive:… from the pane → the agent's own report;
//   the pane's program exits / the pane vanishes → exited.
//   the agent's hooks (`termhive hook`, another process) → a status event in the store, which
//   this process follows (woken by a change of the store's WAL file, FOLLOW_MS at worst) and
//   checks against the screen (a dialog on screen beats a hook's idle) before it shows it.
// Which source wins over which: hive/precedence.ts. Each change is written to the store (an
// event for every process), shown in the tmux pane border (pane-borders.ts), then announced
// in-process through `announce` (the crew's onAgentChanged) so hive_wait wakes at once.
import { watch, type FSWatcher } from "node:fs";
import type { Hive, AgentRecord, AgentProfile } from "../index.js";
import { DIALOG_SETTLE_MS, HOOK_FRESH_MS, SELF_HOLD_MS, isReady, parseStatusOsc, questionPrompt, screenMayReplace, unknownQuestion } from "../index.js";
import type { PaneBorders } from "./pane-borders.js";
import { screenStillMs } from "./screen-still.js";
import { TypedTurns } from "./typed-turns.js";
import { hooksOffBy } from "./hook-launch.js";
import { DisposableStore } from "../../util/lifecycle.js";
import type { TerminalSession } from "../../terminal/session.js";

/** Screen events come in bursts (one per parsed chunk); detect once the burst pauses this long. */
const DEBOUNCE_MS = 20;
/**
 * Statuses written by another process (`termhive hook`, `termhive status`, a second server)
 * have no in-process event: the store's newest event id is read when its WAL file changes and
 * at least this often while sessions are tracked (one indexed read), so borders and waiters
 * follow them.
 */
const FOLLOW_MS = 250;

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
  /** Re-judges the screen when a hook's status stops being fresh (see followStore). */
  holdRecheck: NodeJS.Timeout | null;
  detach: () => void;
}

/** A quiet time past every threshold of the profile: how a settled screen is judged. */
function settledQuietMs(profile: AgentProfile): number {
  return Math.max(profile.quietIdleMs, ...profile.rules.map((r) => r.minQuietMs));
}

export class StatusTracker {
  private readonly tracked = new Map<string, Tracked>();
  private follower: NodeJS.Timeout | null = null;
  private followedCursor = 0;
  private walWatcher: FSWatcher | null = null;
  private walWake: NodeJS.Immediate | null = null;
  /** Per agent, the status+time this process last announced: a followed event it made itself is not news. */
  private readonly announced = new Map<string, string>();
  /** Per agent, when the screen last showed a rule-matched dialog (waiting_for_input). */
  private readonly dialogShownAt = new Map<string, number>();
  /** Per agent, the flag its program was started with that keeps its hooks off (read once from its launch record). */
  private readonly hooksOff = new Map<string, string | null>();
  /**
   * Per tracked session, its agents as last read from the store: a screen changes many times a
   * second in every pane, the agents bound to it hardly ever. Kept only while following the
   * store, and dropped whole when this process changes an agent (HiveStore.writesTo) or another
   * process commits anything (data_version, looked at when followStore wakes: on the WAL
   * file's change, FOLLOW_MS at worst). A status judged on a view that another process's
   * write made stale is not written (setStatus's `judged`): it is judged again on the row.
   */
  private readonly views = new Map<string, readonly AgentRecord[]>();
  private viewsAt = { ours: -1, others: -1 };
  private othersVersion = -1;
  /** When a typed message's turn is over by its shell's own marks. */
  private readonly typedTurns = new TypedTurns();

  constructor(
    private readonly hive: Hive,
    private readonly borders: PaneBorders,
    /** Tells the process of a change (Crew.onAgentChanged), after the borders show it. */
    private readonly changed: (agent: AgentRecord) => void,
  ) {}

  /** A message is being typed into the session from `at` on (its shell's prompt cycle after that ends the turn). */
  typingInto(session: TerminalSession, at: number): void {
    this.typedTurns.typingInto(session.id, at);
  }

  /**
   * The screen was held off by a status's source (a typed message, a self report, a hook): it
   * is judged again when the hold ends. Without this, a pane whose screen no longer changes
   * (a process adopted it after the one that typed died) kept the held status for ever.
   */
  private recheckWhenHoldEnds(entry: Tracked, agent: AgentRecord): void {
    const left = heldFor(agent) - (Date.now() - agent.updatedAt);
    if (left <= 0 || entry.holdRecheck) return;
    entry.holdRecheck = setTimeout(() => {
      entry.holdRecheck = null;
      this.evaluate(entry);
    }, left + DEBOUNCE_MS);
    entry.holdRecheck.unref();
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
      session, ready: options.ready ?? false, seededAt: options.adopted ? session.lastOutputAt : null, timers: [], holdRecheck: null, detach: () => {},
    };
    const wiring = new DisposableStore();
    wiring.add(session.onScreenChanged(() => this.schedule(entry)));
    wiring.add(session.onCustom(({ id, payload }) => this.onCustom(entry, id, payload)));
    wiring.add(session.onExited(({ status }) => this.exited(entry, status, undefined)));
    wiring.add(session.onClosed((reason) => this.exited(entry, entry.session.exitStatus, reason)));
    entry.detach = () => {
      for (const t of entry.timers) clearTimeout(t);
      if (entry.holdRecheck) clearTimeout(entry.holdRecheck);
      wiring.dispose();
      if (this.tracked.get(session.id) === entry) this.tracked.delete(session.id);
      this.views.delete(session.id);
      this.typedTurns.forget(session.id);
    };
    this.tracked.set(session.id, entry);
    if (options.adopted) this.typedTurns.adopted(session.id, Date.now());
    if (!session.alive) this.exited(entry, session.exitStatus, session.goneReason ?? undefined);
    else this.schedule(entry);
  }

  untrack(sessionId: string): void {
    const entry = this.tracked.get(sessionId);
    if (entry) {
      // Rebinding keeps the pane an agent's; removing the last agent takes its colours away.
      if (this.agentsOf(entry.session.id).length === 0) this.borders.clear(entry.session);
      else this.borders.forget(entry.session);
    }
    entry?.detach();
  }

  dispose(): void {
    for (const entry of [...this.tracked.values()]) entry.detach();
    if (this.follower) clearInterval(this.follower);
    this.follower = null;
    this.unwatchWal();
  }

  /** Starts following statuses other processes write (once, while this process tracks sessions). */
  private ensureFollowing(): void {
    if (this.follower) return;
    try {
      this.followedCursor = this.hive.events.latestCursor();
      this.noticeOthersWrites();
    } catch {
      return; // store unavailable: the next schedule retries
    }
    this.follower = setInterval(() => this.followStore(), FOLLOW_MS);
    this.follower.unref();
    this.watchWal();
  }

  /**
   * Another process's write lands in the store's write-ahead log: watching that file wakes the
   * follower at once instead of at its next tick (a Stop hook's idle reaches hive_wait up to
   * FOLLOW_MS sooner). The tick stays, for a file system without change events.
   */
  private watchWal(): void {
    if (this.walWatcher) return;
    try {
      this.walWatcher = watch(`${this.hive.store.path}-wal`, { persistent: false }, () => {
        if (this.walWake) return;
        // One look per burst of writes (a transaction writes several pages).
        this.walWake = setImmediate(() => {
          this.walWake = null;
          this.followStore();
        });
      });
      this.walWatcher.on("error", () => this.unwatchWal());
    } catch {
      this.walWatcher = null; // no WAL file or no inotify: the tick alone
    }
  }

  private unwatchWal(): void {
    this.walWatcher?.close();
    this.walWatcher = null;
    if (this.walWake) clearImmediate(this.walWake);
    this.walWake = null;
  }

  /** Another process committed since the last look: the views may be stale (see `views`). */
  private noticeOthersWrites(): void {
    this.othersVersion = this.hive.store.dataVersion();
  }

  private followStore(): void {
    if (this.tracked.size === 0) return;
    let events;
    try {
      const moved = this.hive.events.latestCursor() !== this.followedCursor;
      const r = moved ? this.hive.events.since(this.followedCursor, { kinds: ["status"], sessionIds: [...this.tracked.keys()], limit: 1000 }) : undefined;
      // After the events are read: every commit they came from counts, so the views below are newer.
      this.noticeOthersWrites();
      if (!r) return;
      this.followedCursor = r.cursor;
      events = r.events;
    } catch {
      return;
    }
    const sessions = new Set(events.map((e) => e.sessionId).filter((id): id is string => id !== null && id !== undefined));
    for (const id of sessions) {
      const entry = this.tracked.get(id);
      if (!entry) continue;
      // The screen first: a hook's idle that came while a dialog is up (Claude Code's
      // SessionStart under its start-up question) is replaced by the dialog before anyone
      // hears of it, so no waiter or queued message takes the agent for idle meanwhile.
      this.evaluate(entry);
      const fresh = this.agentsOf(entry.session.id).filter((a) => this.announced.get(a.name) !== `${a.status}@${a.updatedAt}`);
      if (fresh.length === 0) continue;
      void this.title(entry.session).finally(() => {
        for (const a of fresh) this.announce(a);
      });
    }
  }

  /**
   * A hook's, a self report's or a typed message's status holds the screen off for a while, and
   * the screen is otherwise judged only when it changes: a dialog already up when the hook came
   * (Claude Code's SessionStart under its start-up question), a turn the hook did not report, or
   * a command that ended during the hold would stay hidden. So the screen is judged again now (a
   * dialog replaces any hook at once) and when the hold ends.
   */
  private recheckAfterHold(entry: Tracked, holdMs: number): void {
    this.evaluate(entry);
    if (entry.holdRecheck) clearTimeout(entry.holdRecheck);
    entry.holdRecheck = setTimeout(() => {
      entry.holdRecheck = null;
      this.evaluate(entry);
    }, holdMs + DEBOUNCE_MS);
    entry.holdRecheck.unref();
  }

  private announce(agent: AgentRecord): void {
    // Heard once: a followed status and the same record's own announcement are one change.
    if (this.announced.get(agent.name) === `${agent.status}@${agent.updatedAt}`) return;
    this.announced.set(agent.name, `${agent.status}@${agent.updatedAt}`);
    this.changed(agent);
    // After the announcement: the re-check may record (and announce) what the screen shows now.
    const hold = heldFor(agent);
    const entry = hold > 0 && agent.sessionId ? this.tracked.get(agent.sessionId) : undefined;
    if (entry) this.recheckAfterHold(entry, hold);
  }

  /** The session's agents (see `views`): the caller judges them, never changes them. */
  private agentsOf(sessionId: string): readonly AgentRecord[] {
    const ours = this.hive.store.writesTo("agents");
    if (ours !== this.viewsAt.ours || this.othersVersion !== this.viewsAt.others) {
      this.views.clear();
      this.viewsAt = { ours, others: this.othersVersion };
    }
    const kept = this.views.get(sessionId);
    if (kept) return kept;
    let agents: AgentRecord[];
    try {
      agents = this.hive.agents.bySession(sessionId);
    } catch {
      return []; // store closed or locked: the next event retries
    }
    // Without following, another process's change would go unseen: read every time then.
    if (this.follower && this.tracked.has(sessionId)) this.views.set(sessionId, agents);
    return agents;
  }

  /** Re-detects after the burst settles and again when each quiet threshold of the profiles passes. */
  private schedule(entry: Tracked): void {
    for (const t of entry.timers) clearTimeout(t);
    const agents = this.agentsOf(entry.session.id);
    if (agents.length === 0) return;
    this.ensureFollowing();
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

  private evaluate(entry: Tracked, retried = false): void {
    const { session } = entry;
    if (!session.alive || session.goneReason) return;
    // Rules read the screen without the echo of input; a notice's excerpt shows it as it is.
    const screenLines = session.screen.printedLines();
    const stillMs = screenStillMs(session, screenLines);
    const seeded = entry.seededAt !== null && entry.seededAt === session.lastOutputAt;
    if (!seeded) entry.seededAt = null;
    let stale = false;
    for (const agent of this.agentsOf(entry.session.id)) {
      if (agent.status === "exited") continue;
      const profile: AgentProfile | undefined = this.hive.profiles.find(agent.profile);
      if (!profile) continue;
      // A seeded screen has been still at least since the adoption; treat it as settled (past
      // every quiet threshold). A spinner still matches its rule; a busy pane prints and ends this.
      const quietMs = seeded ? settledQuietMs(profile) : Date.now() - session.lastOutputAt;
      if (!entry.ready && isReady(profile, { screenLines, quietMs })) entry.ready = true;
      let detected = this.hive.detect(agent, { screenLines, quietMs, ready: entry.ready });
      if (detected.status === "exited") continue;
      // A shell that marks its prompts (OSC 133) says itself that it is at its prompt: idle at
      // once, not after the prompt rule's quiet (a fresh shell drawing its first prompt read as
      // "working (output is changing)" for ~200 ms, and was listed and announced so).
      // Only over a screen reading or a fresh agent: a status set by a call, the agent or its hooks keeps its precedence.
      if (detected.by === "quiet" && (agent.statusSource === "profile" || agent.status === "starting") && atMarkedPrompt(session)) detected = { status: "idle", detail: "shell prompt", by: "rule" };
      // A working the program gives no evidence of, on a still screen: a question no rule knows.
      const unknown = unknownQuestion(profile, agent, detected, { lines: screenLines, stillMs: seeded ? Infinity : stillMs });
      if (unknown.kind === "keep") continue;
      if (unknown.kind === "pending") this.settleCheck(entry, unknown.inMs);
      if (unknown.kind === "question") detected = unknown.detected;
      // A question still being drawn does not take keys yet: it is announced once it has been
      // still for DIALOG_SETTLE_MS (a timer of schedule() judges it again then).
      if (detected.status === "waiting_for_input" && detected.by === "rule" && !seeded && stillMs < DIALOG_SETTLE_MS) {
        this.settleCheck(entry, DIALOG_SETTLE_MS - stillMs);
        continue;
      }
      // Remember when the screen last showed a dialog: once a hook's waiting_for_input has been
      // seen on screen (shortly before the hook, the hook process takes a moment, or after it),
      // the dialog leaving the screen means it was answered (precedence.ts).
      if (detected.status === "waiting_for_input" && detected.by === "rule") this.dialogShownAt.set(agent.name, Date.now());
      const dialogSeen = (this.dialogShownAt.get(agent.name) ?? 0) >= agent.updatedAt - HOOK_FRESH_MS;
      const turnEnded = this.typedTurns.ended(session, agent);
      if (!screenMayReplace(agent, detected, { dialogSeen, turnEnded })) {
        this.recheckWhenHoldEnds(entry, agent);
        continue;
      }
      const question = detected.question?.digest;
      const off = this.hooksOffFor(agent, profile);
      if (off) detected = { ...detected, detail: `${detected.detail} (from the screen: ${off} keeps its hooks off)` };
      this.record(() => {
        // Written only if the row is still the one judged: another process's write (a hook's
        // status) may have come since this view was read, and outranks the screen.
        const r = this.hive.agents.setStatus(agent.name, detected.status as Exclude<typeof detected.status, "exited">, { detail: detected.detail, source: "profile", judged: agent, ...(question ? { question, prompt: questionPrompt(detected.question!, session.screen.snapshot().lines) } : {}) });
        if (r.stale) stale = true;
        return r;
      }, session);
    }
    // Judged on an older row (another process wrote since): once more, on the store's rows.
    if (stale && !retried) {
      this.views.delete(session.id);
      this.evaluate(entry, true);
    }
  }

  private hooksOffFor(agent: AgentRecord, profile: AgentProfile): string | null {
    if (!profile.hooks) return null;
    const known = this.hooksOff.get(agent.name);
    if (known !== undefined) return known;
    // No record yet (agent_spawn writes it once the program is ready) or no store: asked again next time.
    const launch = (() => { try { return this.hive.launches.find(agent.name); } catch { return undefined; } })();
    if (!launch) return null;
    // Env values are not kept (restore-records.ts): a hooks-off variable given at all counts.
    const off = hooksOffBy(launch.command ?? undefined, profile, launch.envNames);
    this.hooksOff.set(agent.name, off);
    return off;
  }

  /** Judges the screen again once a question on it may have become still (its output may not have stopped). */
  private settleCheck(entry: Tracked, inMs: number): void {
    const t = setTimeout(() => {
      entry.timers = entry.timers.filter((x) => x !== t);
      this.evaluate(entry);
    }, Math.max(DEBOUNCE_MS, inMs + 1));
    entry.timers.push(t);
  }

  private onCustom(entry: Tracked, id: string, payload: string): void {
    const parsed = parseStatusOsc(`1337;Custom=id=${id}:${payload}`);
    if (!parsed || !parsed.ok) return; // another program's OSC 1337, or malformed: never stop the stream
    const agents = this.agentsOf(entry.session.id);
    const target = parsed.value.agent ?? agents[0]?.name;
    if (!target || !agents.some((a) => a.name === target)) return;
    this.record(() => this.hive.applySelfStatus(target, parsed.value), entry.session);
  }

  private exited(entry: Tracked, exitCode: number | null, reason: string | undefined): void {
    for (const t of entry.timers) clearTimeout(t);
    try {
      const changed = this.hive.agents.markSessionExited(entry.session.id, { exitCode, reason });
      for (const agent of changed) this.announce(agent);
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
      void this.title(session).finally(() => this.announce(result.agent));
    }
    return result.agent;
  }

  /** Shows the pane's agents in its border (title, marks). */
  async title(session: TerminalSession): Promise<void> {
    if (session.goneReason) return;
    await this.borders.show(session, [...this.agentsOf(session.id)]);
  }
}

/** How long a status from this source holds the screen off (hive/precedence.ts). */
function heldFor(agent: AgentRecord): number {
  if (agent.statusSource === "hook") return HOOK_FRESH_MS;
  if (agent.statusSource === "self" || agent.statusSource === "typed") return SELF_HOLD_MS;
  return 0;
}

/** The pane's shell reported its prompt (OSC 133) and runs nothing: it waits for a command line. */
function atMarkedPrompt(session: TerminalSession): boolean {
  return session.integrated && session.phase === "prompt" && session.running === undefined;
}
