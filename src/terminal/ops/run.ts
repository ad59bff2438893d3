// terminal_run: in the session named, or (without one) in a throwaway shell.
import type { RunResult } from "../typing/command-run.js";
import { ToolError } from "../../util/tool-error.js";
import type { CallContext, RunInput, ThrowawayFacts } from "./inputs.js";
import { runInSession } from "./run-session.js";
import type { Terminal } from "./terminal.js";
import { runThrowaway } from "./throwaway.js";

export async function terminalRun(terminal: Terminal, input: RunInput, ctx: CallContext): Promise<RunResult & ThrowawayFacts> {
  if (input.session === undefined) return runThrowaway(terminal, input, ctx);
  if (input.cwd !== undefined) {
    throw new ToolError(`cwd is for a run without session (it opens a throwaway session there); in session ${input.session}, put a cd in the command. Nothing was run.`);
  }
  const startedAt = Date.now();
  return runInSession(terminal, await terminal.session(input.session), input, ctx, startedAt);
}
