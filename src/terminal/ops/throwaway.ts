// terminal_run without session: a throwaway shell in the caller's folder (or cwd). It is closed
// once the command has finished, so nothing is left behind; a command still running (timeout,
// until, a full-screen program or a REPL waiting) keeps it, and the result names it.
import { randomBytes } from "node:crypto";
import { traced } from "../../util/traced.js";
import type { RunResult } from "../typing/command-run.js";
import type { CallContext, RunInput, ThrowawayFacts } from "./inputs.js";
import { waitOpened } from "./open.js";
import { judgeRun, runInSession } from "./run-session.js";
import { ensureRoomFor } from "./sessions.js";
import type { Terminal } from "./terminal.js";

export async function runThrowaway(terminal: Terminal, input: RunInput, ctx: CallContext): Promise<RunResult & ThrowawayFacts> {
  const { registry } = terminal;
  // Refusals come before anything is opened; the fresh shell's line is empty, so nothing is judged again in it.
  const judged = await judgeRun(terminal, undefined, input);
  await ensureRoomFor(terminal, 1);
  const session = await registry.open({ name: `run-${randomBytes(3).toString("hex")}`, cwd: input.cwd, rows: 40, cols: 120, refreshed: true });
  let result: RunResult;
  try {
    await waitOpened(session);
    result = await runInSession(terminal, session, input, ctx, Date.now(), judged);
  } catch (error) {
    await registry.close(session).catch(traced("closing the throwaway session after a failed run"));
    throw error;
  }
  const ref = JSON.stringify(session.name);
  if (result.running) {
    const hint = `ran in the throwaway session ${session.name} (${session.id}), kept because the command is still running; close it with terminal_close {"session":${ref},"force":true} when done.`;
    return { ...result, session: session.id, session_name: session.name, session_closed: false, hint: result.hint ? `${result.hint} ${hint}` : hint };
  }
  await registry.close(session);
  // The session is gone: a hint that sends the caller to it (terminal_read, terminal_close) would
  // answer "unknown session".
  const hint = result.reason === "exit" || result.session_ended ? "the command ended the throwaway shell; its output is above, and the session is closed." : result.hint;
  return { ...result, hint, session: session.id, session_name: session.name, session_closed: true };
}
