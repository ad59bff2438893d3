// What the hive's operations ask of the terminal: typing into a pane (through the one send
// path: size limit, gate, audit), reading it, checking a pattern, the backend's pane commands
// and the input policy's check. Declared by shape, not by the terminal service's class: the
// hive sits below the service layer, and this one port is where the hive meets the terminal.
import type { KeysTakenBy } from "../../terminal/waits/pager.js";
import type { ReadMode, ReadResult } from "../../terminal/views/read-view.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import type { SafeRegex } from "../../util/regex.js";
import { terminalRead } from "../../terminal/ops/read-wait.js";
import { terminalSend } from "../../terminal/ops/send.js";
import { userRegex, type Terminal } from "../../terminal/ops/terminal.js";

/** Who is calling (read cursors are per client; progress goes back to it). */
export interface TerminalCall {
  clientId: string;
  pane?: string;
  onProgress?: (elapsedMs: number, message: string) => void;
}

export interface PaneSend {
  session: string;
  text?: string;
  enter: boolean;
  keys?: string[];
  confirm?: boolean;
}

export interface PaneSent {
  sent_bytes: number;
  keys?: number;
  replaced?: number;
  taken_by?: KeysTakenBy;
  note?: string;
}

export interface PaneRead {
  session: string;
  mode: ReadMode;
  filter?: string;
  context?: number;
  max_tokens?: number;
}

export interface TerminalPort {
  send(input: PaneSend, ctx: TerminalCall): Promise<PaneSent>;
  read(input: PaneRead, ctx: TerminalCall): Promise<ReadResult>;
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
