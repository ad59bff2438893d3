// What the registry's events carry (registry.ts announces them; every subscriber reads these).
import type { CommandFinished, CommandRecord, SessionExit, TerminalSession } from "../session/session.js";

export interface SessionEvent {
  session: TerminalSession;
}
export interface SessionOutputEvent extends SessionEvent {
  /** The pane's bytes, already taken in by the session (transcript, screen model, commands). */
  data: Buffer;
}
export interface CommandStartedEvent extends SessionEvent {
  record: CommandRecord;
}
export type CommandFinishedEvent = SessionEvent & CommandFinished;
export type SessionExitedEvent = SessionEvent & SessionExit;
export interface SessionClosedEvent extends SessionEvent {
  reason: string;
}
