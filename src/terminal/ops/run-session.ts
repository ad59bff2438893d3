// terminal_run in a session: one admission step (the gate, the until pattern, the run lock and
// the audit record, in that order, in one call), then the run itself (terminal/typing/command-run.ts), all
// within the call's timeout_s.
import type { SafeRegex } from "../../util/regex.js";
import { truncate } from "../typing/input-policy.js";
import { literalText, type LiteralText } from "../model/literal-text.js";
import { EMPTY_LINE } from "../model/pending-line.js";
import { runCommand, type RunResult } from "../typing/command-run.js";
import { RunTyping, withinRunTimeout } from "../typing/run-deadline.js";
import { acquireRunLock, type Release } from "../typing/run-lock.js";
import { takeInputTurn } from "../typing/input-turn.js";
import type { TerminalSession } from "../session/session.js";
import { traced } from "../../util/traced.js";
import { CallCancelledError } from "../waits/watch.js";
import { ToolError } from "../../util/tool-error.js";
import type { CallContext, RunInput } from "./inputs.js";
import { userRegex, type Terminal } from "./terminal.js";

/** A run the checks let through: its command made literal (once, here), its until pattern compiled. */
export interface JudgedRun {
  readonly command: LiteralText;
  readonly until?: SafeRegex;
}

/**
 * The checks of a run, in their one order, before anything is opened or typed: its size, the safety gate
 * on the line Enter will submit (in a session: after what termhive typed there without Enter;
 * without one: the command alone), then the until pattern.
 */
export async function judgeRun(terminal: Terminal, session: TerminalSession | undefined, input: RunInput): Promise<JudgedRun> {
  const command = literalText(input.command).text;
  terminal.policy.checkSize(command, "command");
  if (session) await terminal.policy.judgeLine(session, await terminal.policy.pending(session), command, input.confirm);
  else await terminal.policy.gate(command, input.confirm, undefined);
  return { command, ...(input.until === undefined ? {} : { until: userRegex(input.until, "until") }) };
}

/**
 * A run's admission, in one call: judged (unless it was, before its session existed), the
 * session's run lock taken, the run audited, the pending line cleared. What it returns is all
 * the run needs; `release` frees the lock once the run returns.
 */
export async function admitRun(terminal: Terminal, session: TerminalSession, input: RunInput, timeoutMs: number, judged?: JudgedRun): Promise<JudgedRun & { release: Release }> {
  const run = judged ?? (await judgeRun(terminal, session, input));
  const shown = session.redact(run.command);
  const release = await acquireRunLock(terminal.backend, session, shown, timeoutMs);
  terminal.audit.write({ event: "run", session: session.id, name: session.name, command: shown });
  // Not waited for: tmux runs this process's commands in order, so the record is cleared
  // before the command's keys arrive, and the run spares a round trip.
  void terminal.policy.setPending(session, EMPTY_LINE).catch(traced("clearing the pending line before a run"));
  return { ...run, release };
}

/** A run in a session, bounded by timeout_s from `startedAt`; its output counts as read by the caller. */
export async function runInSession(terminal: Terminal, session: TerminalSession, input: RunInput, ctx: CallContext, startedAt: number, judged?: JudgedRun): Promise<RunResult> {
  const timeoutMs = (input.timeout_s ?? 30) * 1000;
  // timeout_s bounds the whole call: a host whose link froze answers no step before the keys.
  const typing = new RunTyping();
  const result = await withinRunTimeout(admitAndRun(terminal, session, input, ctx, { startedAt, timeoutMs, typing, judged }), typing, startedAt, timeoutMs, session.meta.host).catch((error: Error) => {
    // The client gave up; the command runs on, and a person reading the log sees why no end is recorded.
    if (error instanceof CallCancelledError) terminal.audit.write({ event: "cancelled", session: session.id, name: session.name, duration_ms: Date.now() - startedAt });
    throw error;
  }).catch((error: Error) => paneGone(terminal, session, error));
  session.readCursors.set(ctx.clientId, session.transcript.end);
  terminal.audit.write({ event: "complete", session: session.id, name: session.name, reason: result.reason, exit_code: result.exit_code, duration_ms: result.duration_ms });
  return result;
}

async function admitAndRun(
  terminal: Terminal,
  session: TerminalSession,
  input: RunInput,
  ctx: CallContext,
  call: { startedAt: number; timeoutMs: number; typing: RunTyping; judged?: JudgedRun },
): Promise<RunResult> {
  // Judged and typed in this session's input turn (typing/input-turn.ts), held until its keys are all sent.
  const turn = await takeInputTurn(session);
  call.typing.onTyped(turn);
  try {
    const { command, until, release } = await admitRun(terminal, session, input, call.timeoutMs, call.judged);
    const { config } = terminal;
    return await runCommand(
      session,
      {
        command,
        timeoutMs: call.timeoutMs,
        until,
        maxTokens: input.max_tokens ?? config.maxTokens,
        raw: input.raw,
        reduce: input.reduce,
        onProgress: ctx.onProgress && ((ms) => ctx.onProgress!(ms, `waiting for ${truncate(command, 60)} (${Math.round(ms / 1000)} s)`)),
        signal: ctx.signal,
        marks: { backend: terminal.backend, home: config.home },
        startedAt: call.startedAt,
        typing: call.typing,
      },
      config,
    ).finally(release);
  } finally {
    turn();
  }
}

/**
 * tmux answered that the session's pane does not exist (its server was killed as the call
 * began, before this process heard of the end): told as the session being gone, the way the
 * next lookup tells it, not as an internal error.
 */
async function paneGone(terminal: Terminal, session: TerminalSession, error: Error): Promise<never> {
  if (!/no such pane|can't find pane/i.test(error.message)) throw error;
  await terminal.registry.get(session.name);
  throw new ToolError(`session ${JSON.stringify(session.name)} is gone: tmux no longer has its pane (${error.message})`, "not_found");
}
