// The terminal operations every door (MCP, gRPC, CLI) calls, built once per process by the
// composition root (root.ts). No door holds behaviour of its own, and neither does this class:
// the terminal's object and its operations are in terminal/ops/ (where HiveService calls them
// too). It stays as the doors' facade, one line per operation, because the verbs, the gRPC
// server and client, the CLI engine and the dashboard all name its shape (TerminalOps,
// TermhiveClient); having each call the operations directly would touch every door for no gain.
import type { ReadResult } from "../terminal/views/read-view.js";
import type { RunResult } from "../terminal/typing/command-run.js";
import type { TerminalSession } from "../terminal/session/session.js";
import type { WaitResult } from "../terminal/waits/wait-for.js";
import { terminalOpen } from "../terminal/ops/open.js";
import { terminalRead, terminalWait } from "../terminal/ops/read-wait.js";
import { terminalRun } from "../terminal/ops/run.js";
import { terminalSend } from "../terminal/ops/send.js";
import { ensureRoomFor, summaryOf, terminalClose, terminalList, terminalResize } from "../terminal/ops/sessions.js";
import { Terminal, stopTerminal, userRegex } from "../terminal/ops/terminal.js";
import type { SafeRegex } from "../util/regex.js";
import type { CallContext, CloseInput, OpenInput, ReadInput, ResizeInput, RunInput, SendInput, SendResult, SessionSummary, ThrowawayFacts, WaitInput } from "./inputs.js";

export type { CallContext, SessionSummary, ThrowawayFacts } from "./inputs.js";

// The facade is the terminal object itself (its registry, policy, config and audit, as every
// door reads them) plus the operations as methods.
export class TermhiveService extends Terminal {
  open(input: OpenInput) {
    return terminalOpen(this, input);
  }

  ensureRoomFor(count: number): Promise<void> {
    return ensureRoomFor(this, count);
  }

  run(input: RunInput, ctx: CallContext): Promise<RunResult & ThrowawayFacts> {
    return terminalRun(this, input, ctx);
  }

  send(input: SendInput, ctx: CallContext): Promise<SendResult> {
    return terminalSend(this, input, ctx);
  }

  read(input: ReadInput, ctx: CallContext): Promise<ReadResult> {
    return terminalRead(this, input, ctx);
  }

  wait(input: WaitInput, ctx: CallContext): Promise<WaitResult> {
    return terminalWait(this, input, ctx);
  }

  list(): Promise<{ sessions: SessionSummary[] }> {
    return terminalList(this);
  }

  summary(s: TerminalSession): SessionSummary {
    return summaryOf(this, s);
  }

  close(input: CloseInput) {
    return terminalClose(this, input);
  }

  resize(input: ResizeInput) {
    return terminalResize(this, input);
  }

  regex(source: string, what: string, flags?: string): SafeRegex {
    return userRegex(source, what, flags);
  }

  /** The last part of the root to end: recordings closed, run ends written, backend stopped. */
  dispose(): Promise<void> {
    return stopTerminal(this);
  }
}
