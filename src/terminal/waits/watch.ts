// Waiting on a session without polling: a condition is re-evaluated when the session reports
// something (output, screen parsed, command end, exit) or when its output has been quiet for
// the one quiet window the condition cares about.
import { DisposableStore } from "../../util/lifecycle.js";
import type { TerminalSession } from "../session/session.js";

/**
 * After these quiet times, a wait for completion or exit asks the backend whether the pane
 * died; from the third on a dead pane counts as exited even if tmux has no status for it yet.
 * The first is short: tmux 3.3 at times marks a pane dead and fires its pane-died hook only
 * when it next reaps a child (seen ~1 run in 4 under load), so a killed or `exec`'d shell's
 * end is asked for, not waited for (one display-message per quiet stretch). The later ones
 * ask again: a backend that did not know of the end at 3 s (iTerm2 under CI's load) was
 * never asked again, and a 15 s wait for the exit of a program that had ended ran out.
 */
export const LIVENESS_QUIET_MS = [100, 1000, 3000, 6000, 12_000, 24_000, 48_000] as const;
/** From this check on (3 s of quiet) a dead pane without a status counts as exited. */
const FINAL_CHECK = 3;

/** The liveness check a waiter runs when its quiet timers fire; returns once per window. */
export function livenessProbe(session: TerminalSession): () => Promise<void> {
  let checked = 0;
  let lastOutput = -1;
  return async () => {
    if (lastOutput !== session.lastOutputAt) {
      lastOutput = session.lastOutputAt;
      checked = 0;
    }
    const quiet = Date.now() - session.lastOutputAt;
    while (checked < LIVENESS_QUIET_MS.length && quiet >= LIVENESS_QUIET_MS[checked]!) {
      checked++;
      await session.verifyAlive(checked >= FINAL_CHECK);
    }
  };
}

/**
 * Waits (bounded) for the session's program to exit, then asks the backend once: its death may
 * be known there and not yet told (a lost notification). `final`: a dead pane counts as exited
 * even before tmux has its status. Resolves whether the program is gone.
 */
export async function exitsWithin(session: TerminalSession, timeoutMs: number, final = false): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  // Asked at growing steps, not once at the end: tmux may not tell of an exit it has seen
  // until it reaps another child (see LIVENESS_QUIET_MS), and the ask makes it reap.
  for (let step = EXIT_ASK_FIRST_MS; session.alive && Date.now() < deadline; step = Math.min(step * 2, EXIT_ASK_MAX_MS)) {
    await watchSession(session, () => (session.alive ? undefined : true), { timeoutMs: Math.min(step, deadline - Date.now()) }).catch(() => undefined);
    if (session.alive && Date.now() < deadline) await session.verifyAlive(false);
  }
  if (session.alive) await session.verifyAlive(final);
  return !session.alive;
}

/** exitsWithin's first ask, and the longest step between asks. */
const EXIT_ASK_FIRST_MS = 50;
const EXIT_ASK_MAX_MS = 1000;

export class SessionGoneError extends Error {
  override name = "SessionGoneError";
}

/** The client gave the call up while it waited; nobody reads its answer. */
export class CallCancelledError extends Error {
  override name = "CallCancelledError";
  constructor() {
    super("the call was cancelled by its client; what it typed runs on");
  }
}

export interface WatchOptions {
  timeoutMs: number;
  /** Re-evaluate once the output has been quiet this long (quiet-based conditions; one or several windows). */
  quietMs?: number | number[];
  /** Called every progressMs while waiting (MCP progress notifications). */
  onProgress?: (elapsedMs: number) => void;
  progressMs?: number;
  /** The caller gave up (see CallContext.signal): the wait ends with CallCancelledError. */
  signal?: AbortSignal;
}

/**
 * Resolves with the first non-undefined value of `evaluate`, or "timeout".
 * Rejects with SessionGoneError when the session goes away.
 */
export function watchSession<T>(
  session: TerminalSession,
  evaluate: () => T | undefined | Promise<T | undefined>,
  options: WatchOptions,
): Promise<T | "timeout"> {
  return new Promise((resolve, reject) => {
    let done = false;
    const subscriptions = new DisposableStore();
    let running = false;
    let again = false;
    // One pending timer per quiet window (keyed by its length), at most.
    const quietTimers = new Map<number, NodeJS.Timeout>();
    const windows = options.quietMs === undefined ? [] : Array.isArray(options.quietMs) ? options.quietMs : [options.quietMs];
    const started = Date.now();

    const finish = (value: T | "timeout" | Error): void => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      for (const timer of quietTimers.values()) clearTimeout(timer);
      clearInterval(progress);
      subscriptions.dispose();
      if (value instanceof Error) reject(value);
      else resolve(value);
    };

    const check = async (): Promise<void> => {
      if (done) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const value = await evaluate();
          if (value !== undefined) return finish(value);
        } while (again && !done);
      } catch (error) {
        finish(error as Error);
      } finally {
        running = false;
      }
    };

    // The timers of quiet-based conditions: "nothing happened for quietMs" has no event.
    // A timer is not reset on every chunk of a flood (thousands of timers created and
    // cleared); when it fires it looks at the last output and waits on if it came since.
    const armWindow = (ms: number): void => {
      const delay = Math.max(0, session.lastOutputAt + ms - Date.now()) + 1;
      quietTimers.set(ms, setTimeout(() => onQuiet(ms), delay));
    };
    const onQuiet = (ms: number): void => {
      quietTimers.delete(ms);
      if (done) return;
      if (Date.now() - session.lastOutputAt < ms) armWindow(ms);
      else void check();
    };
    const armQuiet = (): void => {
      for (const ms of windows) if (!quietTimers.has(ms)) armWindow(ms);
    };

    const onEvent = (): void => {
      armQuiet();
      void check();
    };
    const onGone = (reason: string): void => finish(new SessionGoneError(`session ${session.name} is gone: ${reason}`));

    // The caller's deadline; a wait never outlives it.
    const deadline = setTimeout(() => finish("timeout"), options.timeoutMs);
    const progress =
      options.onProgress &&
      setInterval(() => options.onProgress!(Date.now() - started), options.progressMs ?? 1000);
    subscriptions.add(session.onOutput(onEvent));
    subscriptions.add(session.onScreenChanged(onEvent));
    subscriptions.add(session.onCommandStarted(onEvent));
    subscriptions.add(session.onCommandFinished(onEvent));
    subscriptions.add(session.onPrompt(onEvent));
    subscriptions.add(session.onExited(onEvent));
    subscriptions.add(session.onClosed(onGone));
    const cancelled = (): void => finish(new CallCancelledError());
    options.signal?.addEventListener("abort", cancelled);
    subscriptions.add({ dispose: () => options.signal?.removeEventListener("abort", cancelled) });
    if (options.signal?.aborted) return cancelled();
    if (session.goneReason) return onGone(session.goneReason);
    armQuiet();
    void check();
  });
}
