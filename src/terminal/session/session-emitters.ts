// The typed events of one session (see TerminalSession): the session fires them as it takes
// in its pane's output; the registry and the hive subscribe. Kept apart from the session's
// bookkeeping so the list of what a session tells is read in one place.
import { Emitter } from "../../util/event.js";
import type { CommandFinished, CommandRecord, SessionExit } from "./session-types.js";

export abstract class SessionEmitters {
  protected readonly outputEmitter = new Emitter<Buffer>();
  protected readonly screenEmitter = new Emitter<void>();
  protected readonly promptEmitter = new Emitter<void>();
  protected readonly commandStartedEmitter = new Emitter<CommandRecord>();
  protected readonly commandFinishedEmitter = new Emitter<CommandFinished>();
  protected readonly customEmitter = new Emitter<{ id: string; payload: string }>();
  protected readonly bracketedPasteEmitter = new Emitter<void>();
  protected readonly exitedEmitter = new Emitter<SessionExit>();
  protected readonly closedEmitter = new Emitter<string>();
  protected readonly outputLostEmitter = new Emitter<string>();
  /** Bytes from the pane, once screen model, transcript and command records have taken them in. */
  readonly onOutput = this.outputEmitter.event;
  /** The screen model has parsed more output. */
  readonly onScreenChanged = this.screenEmitter.event;
  /** The shell is at its prompt, waiting for input (OSC 133 B). */
  readonly onPrompt = this.promptEmitter.event;
  readonly onCommandStarted = this.commandStartedEmitter.event;
  readonly onCommandFinished = this.commandFinishedEmitter.event;
  /** OSC 1337;Custom=id=<id>:<payload> from the pane (agents report their status this way). */
  readonly onCustom = this.customEmitter.event;
  /** The program asked for bracketed paste for the first time. */
  readonly onBracketedPaste = this.bracketedPasteEmitter.event;
  /** The pane's program exited (the pane may stay, showing its last output). */
  readonly onExited = this.exitedEmitter.event;
  /** The session can no longer be used (closed, its pane vanished, the backend went away); fired once. */
  readonly onClosed = this.closedEmitter.event;
  /** The backend dropped some of this pane's output (tmux paused it: this process fell behind). */
  readonly onOutputLost = this.outputLostEmitter.event;
}
