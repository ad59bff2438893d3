// How a run decides it has finished, in one place. After a command is typed, the session's
// events are watched until one of these holds, first match wins:
//   osc133        the shell's OSC 133 D for this command (exact, with its exit code)
//   rejected      the shell drew a new prompt without starting it (syntax error, blank line)
//   incomplete    the shell shows its continuation prompt (OSC 133;P;k=c): it needs more of the line;
//                 or a REPL shows its own (python's "... ") once it has read every typed line
//   exit          the session's program exited
//   until         the caller's pattern showed in the command's output
//   fullscreen    a full-screen program switched to the alternate screen and drew it, or a
//                 pager waits for keys on the normal screen (pager.ts)
//   nested-prompt a REPL's prompt (python, psql, a nested shell…) is on the cursor line
//   waiting_for_input  the command asks a question ("[y/N]", a password) at the cursor and waits
//   idle          no shell integration and no known prompt: output went quiet
//   timeout       none of these within the caller's time
// terminal_wait's "completion" is the same question asked later: completedSince.
import { matchContinuationPrompt, matchNestedPrompt } from "../model/prompts.js";
import { QUESTION_QUIET_MS, questionAtCursor, replQuestionAtCursor } from "./question-wait.js";
import type { CommandRecord, TerminalSession } from "../session/session.js";
import { LIVENESS_QUIET_MS, livenessProbe, watchSession } from "./watch.js";
import { stripAnsi } from "../../util/ansi.js";
import { pagerShowing } from "./pager.js";
import type { SafeRegex } from "../../util/regex.js";

export type CompletionReason = "osc133" | "rejected" | "incomplete" | "exit" | "until" | "nested-prompt" | "waiting_for_input" | "fullscreen" | "idle" | "timeout";

/**
 * What the command was typed into: an integrated shell at its prompt, a program at its own
 * prompt (a REPL, possibly started from the shell), or anything else (judged by quiet output).
 */
export type RunMode = "shell" | "nested" | "quiet";

/** The quiet windows completion uses (TERMHIVE_PROMPT_QUIET_MS, TERMHIVE_IDLE_QUIET_MS). */
export interface CompletionTiming {
  promptQuietMs: number;
  idleQuietMs: number;
}

export interface CompletionRequest {
  mode: RunMode;
  /** Transcript offset where the command was typed (before its echo). */
  startOffset: number;
  /**
   * In a REPL started from the shell (mode "nested"): the shell's record of that program, which
   * ends when the program exits. Taken before the command is typed.
   */
  outer?: CommandRecord;
  until?: SafeRegex;
  /**
   * How many lines the typed text submits (one per Enter). A REPL echoes a line break for each,
   * so its prompt before that many is a continuation prompt between the lines of a block.
   */
  typedLines?: number;
  /**
   * This look decides: a continuation prompt means the statement did not run and gets
   * cancelled. Lines typed ahead of the REPL are echoed by the terminal while it runs the line
   * before (cooked mode), then again as it reads them: the line count runs ahead of its
   * reading, and a "... " between two of them looked final 15 ms after typing (CI, under load).
   * So that prompt must also stay quiet PARTIAL_ECHO_QUIET_MS.
   */
  decisive?: boolean;
  timeoutMs: number;
  onProgress?: (elapsedMs: number) => void;
  signal?: AbortSignal;
}

export interface Completion {
  reason: CompletionReason;
  /** The command's own record (or the outer program's, when that one ended). */
  record?: CommandRecord;
  exitCode: number | null;
  /** Which prompt a nested-prompt completion saw (or, incomplete, whose continuation prompt; waiting_for_input: the question). */
  prompt?: string;
}

/** A program started from the shell that shows a prompt must then stay quiet this long to count as waiting. */
export const SHELL_PROMPT_QUIET_MS = 50;
/** A prompt that came back without the command starting must stay quiet this long to count as a rejection. */
const REJECT_QUIET_MS = 100;

/**
 * A REPL prompt shown before every typed line was echoed counts once output has been quiet this
 * long: long past a slow machine's pause between lines, short against a caller's wait.
 */
const PARTIAL_ECHO_QUIET_MS = 1500;

type Outcome = Omit<Completion, "exitCode">;

/**
 * Waits until the command typed at `startOffset` has finished (see the reasons above).
 * Rejects with SessionGoneError when the session goes away meanwhile.
 */
export async function awaitCompletion(session: TerminalSession, request: CompletionRequest, timing: CompletionTiming): Promise<Completion> {
  const { mode, startOffset, outer, until } = request;
  // Typed at startOffset, so its output starts past it and it ends past it (a record that ended
  // at startOffset is one an adoption placed at the prompt, before this command was typed).
  const ownRecord = (): CommandRecord | undefined =>
    session.commands.find((record) => record.outputStart >= startOffset && (record.outputEnd === null || record.outputEnd > startOffset));
  const probeLiveness = livenessProbe(session);
  // The exact answer, from the shell's own marks. Asked first, and asked again before any other
  // answer is given: the checks below await (the liveness probe, the screen model catching up),
  // and under load the command can end and the shell draw its next prompt meanwhile — a shell
  // prompt on the cursor line is then the shell's own, not a program's.
  const exact = (): Outcome | undefined => {
    const record = ownRecord();
    if (mode === "shell" && record && record.outputEnd !== null) return { reason: "osc133", record };
    if (outer && outer.outputEnd !== null) return { reason: "osc133", record: outer };
    return undefined;
  };
  /** Every answer but the exact one: judged from the screen, the output's quiet, the pane's life. */
  const judge = async (): Promise<Outcome | undefined> => {
    const record = ownRecord();
    // An open quote or block, a trailing backslash: the shell waits for the rest of the line.
    if (mode === "shell" && !record && session.lastContinuationEnd > startOffset && Date.now() - session.lastOutputAt >= SHELL_PROMPT_QUIET_MS) {
      return { reason: "incomplete" };
    }
    // The shell came back to its prompt without starting the command: a syntax error (or blank line).
    // (bash redraws its prompt during a multi-line paste, so the prompt must also stay quiet.)
    if (mode === "shell" && !record && session.lastPromptEnd > startOffset && Date.now() - session.lastOutputAt >= REJECT_QUIET_MS) {
      return { reason: "rejected" };
    }
    if (!session.alive) return { reason: "exit", record };
    await probeLiveness();
    if (!session.alive) return { reason: "exit", record };
    const quietFor = Date.now() - session.lastOutputAt;
    if (until) {
      const text = stripAnsi(session.printedText(record?.outputStart ?? startOffset));
      if (await until.testAsync(text)) return { reason: "until", record };
    }
    if (await fullscreenSettled(session, startOffset, timing.idleQuietMs)) return { reason: "fullscreen", record };
    const producedOutput = session.transcript.end > startOffset;
    // A pager on the normal screen (less -X) waits for keys as a full-screen program does.
    if (producedOutput && quietFor >= timing.idleQuietMs && (await pagerShowing(session))) return { reason: "fullscreen", record };
    if (mode === "quiet") {
      if (!producedOutput || quietFor < timing.idleQuietMs) return undefined;
      // A REPL that had not drawn its prompt yet when the text was typed waits for more of it.
      await session.screen.settled();
      const waiting = matchContinuationPrompt(session.screen.cursorLinePrefix());
      return waiting ? { reason: "incomplete", prompt: waiting } : { reason: "idle" };
    }
    // The shell's command asks a question at the cursor and waits for its answer.
    if (mode === "shell" && record && record.outputEnd === null && producedOutput && quietFor >= QUESTION_QUIET_MS) {
      await session.screen.settled();
      const question = questionAtCursor(session.screen.cursorLinePrefix());
      if (question && Date.now() - session.lastOutputAt >= QUESTION_QUIET_MS) return { reason: "waiting_for_input", record, prompt: question };
    }
    // A program typed into a REPL asks for a line (python's input()) and waits for it.
    if (mode === "nested" && producedOutput && quietFor >= QUESTION_QUIET_MS && echoedLines(session, startOffset) >= Math.max(1, request.typedLines ?? 1)) {
      await session.screen.settled();
      const line = session.screen.cursorLinePrefix();
      const question = matchNestedPrompt(line) ? undefined : replQuestionAtCursor(line);
      if (question && Date.now() - session.lastOutputAt >= QUESTION_QUIET_MS) return { reason: "waiting_for_input", record, prompt: question };
    }
    // A REPL's prompt (or a program now waiting for input, when a shell command started one).
    if (producedOutput && quietFor >= timing.promptQuietMs && (mode === "nested" || record)) {
      await session.screen.settled();
      const prompt = matchNestedPrompt(session.screen.cursorLinePrefix());
      // The program echoed every line typed (at least one) since the command was typed (cheap: no
      // text copied). In a REPL a "... " prompt before then is the block still being read.
      // A REPL that redraws its input in place (no line break per line) still ends, once quiet longer.
      const needed = mode === "nested" && quietFor < PARTIAL_ECHO_QUIET_MS ? Math.max(1, request.typedLines ?? 1) : 1;
      const echoed = echoedLines(session, startOffset) >= needed;
      if (prompt && echoed && (mode === "nested" || Date.now() - session.lastOutputAt >= Math.max(timing.promptQuietMs, SHELL_PROMPT_QUIET_MS))) {
        // Its continuation prompt after the last line: the REPL still waits for the rest, nothing ran.
        const waiting = mode === "nested" ? matchContinuationPrompt(session.screen.cursorLinePrefix()) : undefined;
        if (waiting && request.decisive && Date.now() - session.lastOutputAt < PARTIAL_ECHO_QUIET_MS) return undefined;
        return waiting ? { reason: "incomplete", record, prompt: waiting } : { reason: "nested-prompt", record, prompt };
      }
    }
    return undefined;
  };
  const outcome = await watchSession<Outcome>(
    session,
    async () => {
      const ended = exact();
      if (ended) return ended;
      const guessed = await judge();
      // The caller's own pattern is no guess: it stands as it matched.
      return guessed && guessed.reason !== "until" ? (exact() ?? guessed) : guessed;
    },
    {
      timeoutMs: request.timeoutMs,
      // idleQuietMs in every mode: a full-screen program's drawn screen is recognised by it.
      quietMs:
        mode === "quiet"
          ? [timing.idleQuietMs, ...LIVENESS_QUIET_MS]
          : [timing.promptQuietMs, SHELL_PROMPT_QUIET_MS, REJECT_QUIET_MS, QUESTION_QUIET_MS, timing.idleQuietMs, PARTIAL_ECHO_QUIET_MS, ...LIVENESS_QUIET_MS],
      onProgress: request.onProgress,
      signal: request.signal,
    },
  );
  if (outcome === "timeout") return { reason: "timeout", record: ownRecord(), exitCode: null };
  const exitCode = outcome.reason === "osc133" ? (outcome.record?.exitCode ?? null) : outcome.reason === "exit" ? session.exitStatus : null;
  return { ...outcome, exitCode };
}

/**
 * True once the session shows the alternate screen, the program drew something after `since`
 * (a transcript offset) and has been quiet for idleQuietMs: TUIs draw their first screen in
 * bursts (vim redraws after the terminal answers its queries).
 */
export async function fullscreenSettled(session: TerminalSession, since: number, idleQuietMs: number): Promise<boolean> {
  if (session.transcript.end <= since || Date.now() - session.lastOutputAt < idleQuietMs) return false;
  return (await onAlternateScreen(session)) || redrawsInPlace(session, since);
}

/** Clear screen: ESC[2J, or cursor home then erase below (ESC[H ESC[J, as top draws). */
const CLEAR_SCREEN = /\x1b\[2J|\x1b\[(?:1;1)?H\x1b\[0?J/;
/** Any absolute cursor position (ESC[row;colH, ESC[H). */
const CURSOR_POSITION = /\x1b\[\d*(?:;\d*)?H/;
/** How far after the command's start its first screen is looked for. */
const REDRAW_SCAN_CHARS = 256 * 1024;

/**
 * A full-screen program that stays on the normal screen (top, watch on a terminal without an
 * alternate screen): it cleared the screen after `since` and positioned the cursor again
 * after that (it redraws in place). A `clear` followed by ordinary output does not.
 */
function redrawsInPlace(session: TerminalSession, since: number): boolean {
  const text = session.transcript.slice(since, Math.min(session.transcript.end, since + REDRAW_SCAN_CHARS)).text;
  const clear = CLEAR_SCREEN.exec(text);
  return clear !== null && CURSOR_POSITION.test(text.slice(clear.index + clear[0].length));
}

/** Whether the alternate screen is active now (the model's screen brought up to date first). */
export async function onAlternateScreen(session: TerminalSession): Promise<boolean> {
  await session.screen.settled();
  return session.screen.snapshot().alternate;
}

/**
 * terminal_wait's completion, for a reader whose unread output starts at `from`: a command
 * that was running then or started since has finished (its exit code), the program exited
 * (its status), or — no shell integration — output has been quiet idleMs (no code).
 * Returns a check to run on every session event: undefined until then.
 */
export function completedSince(session: TerminalSession, from: number, timing: { idleMs: number; promptQuietMs: number }): () => Promise<{ exitCode: number | null | undefined } | undefined> {
  const { idleMs } = timing;
  const commandsBefore = session.commands.filter((r) => r.outputEnd === null || r.outputEnd >= from);
  // A session this process adopted while a command ran (another process, e.g. an earlier CLI
  // call, started it) is "running" with no record of the command: its completion is the shell
  // coming back to its prompt (the exit code went by before this process knew the command).
  const unknownRunning = session.integrated && session.phase === "running" && !session.running;
  return async () => {
    const done = session.commands.find((r) => r.outputEnd !== null && r.outputEnd >= from && (commandsBefore.includes(r) || r.outputStart >= from));
    if (done && !session.running) return { exitCode: done.exitCode };
    if (unknownRunning && !session.running && phaseOf(session) === "prompt") return { exitCode: null };
    if (!session.alive) return { exitCode: session.exitStatus };
    if (!session.integrated && Date.now() - session.lastOutputAt >= idleMs) return { exitCode: undefined };
    // A REPL started from the shell (its command still runs): what was typed into it completed
    // once the REPL's prompt is back, as terminal_run judges it (awaitCompletion, "nested").
    if (session.running && (await replPromptBack(session, from, timing.promptQuietMs))) return { exitCode: null };
    return undefined;
  };
}

/** Line breaks the transcript holds past `offset` (each typed line a REPL read echoes one). */
function echoedLines(session: TerminalSession, offset: number): number {
  return session.transcript.lineCount - session.transcript.lineAt(offset);
}

/**
 * The REPL printed a line since `from` and now shows its own prompt (not its continuation
 * prompt) at the cursor, quiet for promptQuietMs: it has read and run what it was given.
 */
async function replPromptBack(session: TerminalSession, from: number, promptQuietMs: number): Promise<boolean> {
  if (session.transcript.end <= from || echoedLines(session, from) < 1) return false;
  if (Date.now() - session.lastOutputAt < promptQuietMs) return false;
  await session.screen.settled();
  const line = session.screen.cursorLinePrefix();
  return matchNestedPrompt(line) !== undefined && matchContinuationPrompt(line) === undefined && Date.now() - session.lastOutputAt >= promptQuietMs;
}

/** Read afresh (the phase moves between checks; a narrowed copy from before would be stale). */
function phaseOf(session: TerminalSession): TerminalSession["phase"] {
  return session.phase;
}
