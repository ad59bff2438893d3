// The status tracker's screen job: a screen change → (debounced) profile detection → a status
// write when it changed, and again when each quiet threshold of the agents' profiles passes
// (nothing printed for 1.5 s has no event: timers are that event). A status held off by its
// source (a hook, a self report, a typed message; hive/rules/precedence.ts) is judged again when its
// hold ends.
import type { AgentProfile, AgentRecord } from "../index.js";
import { DIALOG_SETTLE_MS, HOOK_FRESH_MS, SELF_HOLD_MS, isReady, questionPrompt, screenMayReplace, unknownQuestion } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { hooksOffBy } from "./hook-launch.js";
import { screenStillMs } from "./screen-still.js";
import type { StatusPort } from "./status-port.js";
import { TypedTurns } from "./typed-turns.js";

/** Screen events come in bursts (one per parsed chunk); detect once the burst pauses this long. */
export const DEBOUNCE_MS = 20;

/** One followed session as the screen job sees it. */
export interface ScreenEntry {
  readonly session: TerminalSession;
  ready: boolean;
  /**
   * Adopted from another process: the screen is a settled snapshot of unknown age, seeded at
   * this lastOutputAt. Until the pane prints again, its quiet time is unknown, and counting it
   * from the adoption would call every idle agent "working" for the first seconds.
   */
  seededAt: number | null;
  timers: NodeJS.Timeout[];
  /** Re-judges the screen when a held status stops holding (see recheckAfterHold). */
  holdRecheck: NodeJS.Timeout | null;
}

/** A quiet time past every threshold of the profile: how a settled screen is judged. */
function settledQuietMs(profile: AgentProfile): number {
  return Math.max(profile.quietIdleMs, ...profile.rules.map((r) => r.minQuietMs));
}

/** How long a status from this source holds the screen off (hive/rules/precedence.ts). */
export function heldFor(agent: AgentRecord): number {
  if (agent.statusSource === "hook") return HOOK_FRESH_MS;
  if (agent.statusSource === "self" || agent.statusSource === "typed") return SELF_HOLD_MS;
  return 0;
}

/** The pane's shell reported its prompt (OSC 133) and runs nothing: it waits for a command line. */
function atMarkedPrompt(session: TerminalSession): boolean {
  return session.integrated && session.phase === "prompt" && session.running === undefined;
}

export class ScreenDetection {
  /** Per agent, when the screen last showed a rule-matched dialog (waiting_for_input). */
  private readonly dialogShownAt = new Map<string, number>();
  /** Per agent, the flag its program was started with that keeps its hooks off (read once from its launch record). */
  private readonly hooksOff = new Map<string, string | null>();
  /** When a typed message's turn is over by its shell's own marks. */
  private readonly typedTurns = new TypedTurns();

  constructor(
    private readonly port: StatusPort,
    /** Called whenever a session with agents is scheduled (the tracker starts following the store then). */
    private readonly scheduling: () => void = () => {},
  ) {}

  /** A new entry for a session; `adopted`: this process did not see its output so far (ScreenEntry.seededAt). */
  entry(session: TerminalSession, options: { ready?: boolean; adopted?: boolean } = {}): ScreenEntry {
    if (options.adopted) this.typedTurns.adopted(session.id, Date.now());
    return { session, ready: options.ready ?? false, seededAt: options.adopted ? session.lastOutputAt : null, timers: [], holdRecheck: null };
  }

  /** A message is being typed into the session from `at` on (its shell's prompt cycle after that ends the turn). */
  typingInto(session: TerminalSession, at: number): void {
    this.typedTurns.typingInto(session.id, at);
  }

  /** Stops judging this entry's screen (its pending timers). */
  cancel(entry: ScreenEntry): void {
    for (const t of entry.timers) clearTimeout(t);
  }

  /** The session is no longer followed. */
  forget(entry: ScreenEntry): void {
    this.cancel(entry);
    if (entry.holdRecheck) clearTimeout(entry.holdRecheck);
    this.typedTurns.forget(entry.session.id);
  }

  /** Re-detects after the burst settles and again when each quiet threshold of the profiles passes. */
  schedule(entry: ScreenEntry): void {
    this.cancel(entry);
    const agents = this.port.agentsOf(entry.session.id);
    if (agents.length === 0) return;
    this.scheduling();
    const thresholds = new Set<number>([DEBOUNCE_MS]);
    for (const a of agents) {
      const p = this.port.hive.profiles.find(a.profile);
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
   * A hook's, a self report's or a typed message's status holds the screen off for a while, and
   * the screen is otherwise judged only when it changes: a dialog already up when the hook came
   * (Claude Code's SessionStart under its start-up question), a turn the hook did not report, or
   * a command that ended during the hold would stay hidden. So the screen is judged again now (a
   * dialog replaces any hook at once) and when the hold ends.
   */
  recheckAfterHold(entry: ScreenEntry, holdMs: number): void {
    this.evaluate(entry);
    if (entry.holdRecheck) clearTimeout(entry.holdRecheck);
    entry.holdRecheck = setTimeout(() => {
      entry.holdRecheck = null;
      this.evaluate(entry);
    }, holdMs + DEBOUNCE_MS);
    entry.holdRecheck.unref();
  }

  /**
   * The screen was held off by a status's source: it is judged again when the hold ends.
   * Without this, a pane whose screen no longer changes (a process adopted it after the one
   * that typed died) kept the held status for ever.
   */
  private recheckWhenHoldEnds(entry: ScreenEntry, agent: AgentRecord): void {
    const left = heldFor(agent) - (Date.now() - agent.updatedAt);
    if (left <= 0 || entry.holdRecheck) return;
    entry.holdRecheck = setTimeout(() => {
      entry.holdRecheck = null;
      this.evaluate(entry);
    }, left + DEBOUNCE_MS);
    entry.holdRecheck.unref();
  }

  /** Judges the screen again once a question on it may have become still (its output may not have stopped). */
  private settleCheck(entry: ScreenEntry, inMs: number): void {
    const t = setTimeout(() => {
      entry.timers = entry.timers.filter((x) => x !== t);
      this.evaluate(entry);
    }, Math.max(DEBOUNCE_MS, inMs + 1));
    entry.timers.push(t);
  }

  /** Detects and records the session's statuses from its screen now. */
  evaluate(entry: ScreenEntry, retried = false): void {
    const { session } = entry;
    if (!session.alive || session.goneReason) return;
    // Rules read the screen without the echo of input; a notice's excerpt shows it as it is.
    const screenLines = session.screen.printedLines();
    const stillMs = screenStillMs(session, screenLines);
    const seeded = entry.seededAt !== null && entry.seededAt === session.lastOutputAt;
    if (!seeded) entry.seededAt = null;
    let stale = false;
    for (const agent of this.port.agentsOf(entry.session.id)) {
      if (agent.status === "exited") continue;
      const profile: AgentProfile | undefined = this.port.hive.profiles.find(agent.profile);
      if (!profile) continue;
      // A seeded screen has been still at least since the adoption; treat it as settled (past
      // every quiet threshold). A spinner still matches its rule; a busy pane prints and ends this.
      const quietMs = seeded ? settledQuietMs(profile) : Date.now() - session.lastOutputAt;
      if (!entry.ready && isReady(profile, { screenLines, quietMs })) entry.ready = true;
      let detected = this.port.hive.detect(agent, { screenLines, quietMs, ready: entry.ready });
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
      this.port.record(() => {
        // Written only if the row is still the one judged: another process's write (a hook's
        // status) may have come since this view was read, and outranks the screen.
        const r = this.port.hive.agents.setStatus(agent.name, detected.status as Exclude<typeof detected.status, "exited">, { detail: detected.detail, source: "profile", judged: agent, ...(question ? { question, prompt: questionPrompt(detected.question!, session.screen.snapshot().lines) } : {}) });
        if (r.stale) stale = true;
        return r;
      }, session);
    }
    // Judged on an older row (another process wrote since): once more, on the store's rows.
    if (stale && !retried) {
      this.port.rereadAgents(session.id);
      this.evaluate(entry, true);
    }
  }

  private hooksOffFor(agent: AgentRecord, profile: AgentProfile): string | null {
    if (!profile.hooks) return null;
    const known = this.hooksOff.get(agent.name);
    if (known !== undefined) return known;
    // No record yet (agent_spawn writes it once the program is ready) or no store: asked again next time.
    const launch = (() => { try { return this.port.hive.launches.find(agent.name); } catch { return undefined; } })();
    if (!launch) return null;
    // Env values are not kept (launches.ts): a hooks-off variable given at all counts.
    const off = hooksOffBy(launch.command ?? undefined, profile, launch.envNames);
    this.hooksOff.set(agent.name, off);
    return off;
  }
}
