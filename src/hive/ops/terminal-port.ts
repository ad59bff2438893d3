// What the hive's operations ask of the terminal: typing into a pane (through the one send
// path: size limit, gate, audit), reading it, checking a pattern, the backend's pane commands
// and the input policy's check. Declared by shape, not by the terminal service's class: the
// hive sits below the service layer, and this one port is where the hive meets the terminal
// (its calls and results are the terminal operations' own types).
import type { CallContext, ReadInput, SendInput, SendResult } from "../../terminal/ops/inputs.js";
import type { ReadResult } from "../../terminal/views/read-view.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import type { SafeRegex } from "../../util/regex.js";
import { terminalRead } from "../../terminal/ops/read-wait.js";
import { terminalSend } from "../../terminal/ops/send.js";
import { userRegex, type Terminal } from "../../terminal/ops/terminal.js";

/** Who is calling, what is typed and read, and what a send reports: the terminal's own types. */
export type { CallContext as TerminalCall, SendInput as PaneSend, SendResult as PaneSent } from "../../terminal/ops/inputs.js";
/** What the hive reads of a pane: a part of terminal_read's input. */
export type PaneRead = Pick<ReadInput, "session" | "mode" | "filter" | "context" | "max_tokens">;

export interface TerminalPort {
  send(input: SendInput, ctx: CallContext): Promise<SendResult>;
  read(input: PaneRead, ctx: CallContext): Promise<ReadResult>;
  /** A pattern checked once (a bad one is the caller's error, with the reason). */
  regex(source: string, what: string, flags?: string): SafeRegex;
  readonly backend: PaneCommands;
  /** The rules a typed text passes (size limit, safety gate when it submits); returns the text to type. */
  readonly policy: { check(text: string, session: TerminalSession, options: { enter: boolean; confirm?: boolean }): Promise<string> };
}

/** The backend's commands on one pane that the hive gives. */
export interface PaneCommands {
  attachCommand(paneId: string): string | null;
  /** The pane's title, where the backend has windows with titles. */
  readonly windows?: { setTitle(paneId: string, title: string): Promise<void> };
  focus(paneId: string): Promise<void>;
}

/** The port over this process's terminal: its own send and read operations, its pattern check, backend and policy. */
export function terminalPort(terminal: Terminal): TerminalPort {
  return {
    send: (input, ctx) => terminalSend(terminal, input, ctx),
    read: (input, ctx) => terminalRead(terminal, input, ctx),
    regex: userRegex,
    backend: terminal.backend,
    policy: terminal.policy,
  };
}
