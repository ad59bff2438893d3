// Waiting until a freshly started program accepts input, for every path that needs it
// (terminal_open of a program other than a shell, a run or send typed into a shell still
// starting — terminal_open returns before a shell's rc files have run —, hive spawns and layouts):
//   an integrated shell once it has drawn its first prompt (OSC 133 seen, phase past "starting");
//   a program the caller can recognise (an agent's ready pattern) once `readyWhen` says so;
//   any other program once its output has gone quiet (or, when given, it stayed silent that long).
import type { TerminalSession } from "../session/session.js";
import { LIVENESS_QUIET_MS, livenessProbe, watchSession } from "./watch.js";

export type Readiness = "ready" | "exited" | "timeout";

export interface ReadyOptions {
  timeoutMs: number;
  /** A program that printed counts as ready once its output has been quiet this long. */
  quietMs: number;
  /** A program that printed nothing at all counts as ready after this long (unset: never). */
  silentMs?: number;
  /** Recognises the program's ready screen; the quiet time is passed along for patterns that need it. */
  readyWhen?: (screenLines: string[], quietMs: number) => boolean;
}

/**
 * Resolves "exited" when the program exits or the session goes away first. A program that exits
 * at once (a refused `--resume`) can die before its pane's death is reported (a tmux server
 * started a moment ago): quiet windows ask the backend, so that costs a second, not the timeout.
 */
export async function waitUntilReady(session: TerminalSession, options: ReadyOptions): Promise<Readiness> {
  const shell = session.meta.shell !== "other";
  const windows = [...(shell ? [] : [options.quietMs, ...(options.silentMs === undefined ? [] : [options.silentMs])]), ...LIVENESS_QUIET_MS];
  const probeLiveness = livenessProbe(session);
  return watchSession<Readiness>(
    session,
    async () => {
      await probeLiveness();
      if (!session.alive) return "exited";
      if (shell) return session.phase !== "starting" ? "ready" : undefined;
      // Without output, lastOutputAt is when the session was made: quiet since the start.
      const quietMs = Date.now() - session.lastOutputAt;
      if (options.readyWhen) {
        await session.screen.settled();
        return options.readyWhen(session.screen.snapshot().lines, quietMs) ? "ready" : undefined;
      }
      if (session.transcript.end > 0) return quietMs >= options.quietMs ? "ready" : undefined;
      return options.silentMs !== undefined && quietMs >= options.silentMs ? "ready" : undefined;
    },
    { timeoutMs: options.timeoutMs, quietMs: windows },
  ).catch(() => "exited" as const);
}

/** How long a finished command's prompt may take to appear before input is typed anyway. */
const PROMPT_REDRAW_WAIT_MS = 2_000;

/**
 * An integrated shell whose last command just ended is drawing its next prompt: input typed
 * before the prompt is there would make the prompt look like a reply to it, and the shell
 * would read it before its prompt hooks ran. Waits (bounded) until the prompt is drawn.
 */
export async function promptRedrawn(session: TerminalSession): Promise<void> {
  if (!session.integrated || session.phase !== "redrawing") return;
  await watchSession(session, () => (session.phase !== "redrawing" ? true : undefined), { timeoutMs: PROMPT_REDRAW_WAIT_MS }).catch(() => undefined);
}

/**
 * What to tell the caller of an open whose program died while it was being opened (bwrap's own
 * reason, a shell's error, a program's usage line): its exit and the last lines it printed.
 */
export async function exitedWhileOpening(session: TerminalSession): Promise<string> {
  const { how, said } = await howItEnded(session);
  return `the session's program exited while it was being opened (${how})${said}\n(terminal_read keeps its output; terminal_close removes it)`;
}

/** agent_spawn's like it: an agent whose program exited before it took input. */
export async function exitedAtStart(session: TerminalSession, agent: string): Promise<string> {
  const { how, said } = await howItEnded(session);
  return `${agent}'s program exited (${how})${said}`;
}

/** Its exit, and the last lines it printed. */
async function howItEnded(session: TerminalSession): Promise<{ how: string; said: string }> {
  await session.screen.settled();
  const lines = session.screen.snapshot().lines.map((l) => l.trimEnd()).filter(Boolean).slice(-8);
  const how = session.exitSignal !== null ? `killed by signal ${session.exitSignal}` : `exit status ${session.exitStatus ?? "unknown"}`;
  return { how, said: lines.length ? `; its last lines:\n${lines.join("\n")}` : "; it printed nothing" };
}
