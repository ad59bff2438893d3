// terminal_read and terminal_wait: the caller's options turned into the session's read and wait.
import { readSession, type ReadResult } from "../views/read-view.js";
import { waitSession, type WaitResult } from "../waits/wait-for.js";
import type { CallContext, ReadInput, WaitInput } from "./inputs.js";
import { userRegex, type Terminal } from "./terminal.js";

export async function terminalRead(terminal: Terminal, input: ReadInput, ctx: CallContext): Promise<ReadResult> {
  const session = await terminal.session(input.session);
  const filter = input.filter === undefined ? undefined : userRegex(input.filter, "filter");
  return readSession(session, {
    mode: input.mode ?? "auto",
    clientId: ctx.clientId,
    fromLine: input.from_line,
    toLine: input.to_line,
    raw: input.raw,
    filter,
    context: input.context,
    maxTokens: input.max_tokens ?? terminal.config.maxTokens,
    reduce: input.reduce,
  });
}

export async function terminalWait(terminal: Terminal, input: WaitInput, ctx: CallContext): Promise<WaitResult> {
  const session = await terminal.session(input.session);
  const pattern = input.pattern === undefined ? undefined : userRegex(input.pattern, "pattern");
  const waitFor = input.for ?? (pattern ? "pattern" : "completion");
  return waitSession(
    session,
    {
      for: waitFor,
      pattern,
      timeoutMs: (input.timeout_s ?? 30) * 1000,
      idleMs: input.idle_ms ?? terminal.config.idleQuietMs,
      clientId: ctx.clientId,
      maxTokens: input.max_tokens ?? terminal.config.maxTokens,
      onProgress: ctx.onProgress && ((ms) => ctx.onProgress!(ms, `waiting for ${waitFor} (${Math.round(ms / 1000)} s)`)),
      signal: ctx.signal,
    },
    terminal.config,
  );
}
