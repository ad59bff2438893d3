// A status display shows agents' statuses somewhere outside the store: tmux pane borders,
// iTerm2 tabs, notices off the machine. Every display is one StatusDisplay, registered once
// with the crew (crew.displays.add, where the crew is built) and disposed with it.
//
// It hears of a change in one of two places, by what it implements:
// - showPane: the pane's agents as they are now, before the change is announced on
//   Crew.onAgentChanged. The tracker awaits every showPane first, so whoever hears of a change
//   (hive_wait, a test) sees it on that display too. For displays a person reads next to the
//   pane (tmux borders).
// - changed: the typed agent status event itself, after it is announced, never awaited. For
//   displays that may be slow or far away (iTerm2's API, notices sent over the network).
import type { AgentRecord, Hive } from "../index.js";
import type { Event } from "../../util/event.js";
import type { TerminalSession } from "../../terminal/session/session.js";

/** What a display is given when the crew opens the hive (the store is opened on first use). */
export interface DisplayContext {
  readonly hive: Hive;
}

export interface StatusDisplay {
  /** The crew opened the hive: changes may come from now on. Called once. */
  start?(context: DisplayContext): void;
  /** Shows the pane's agents as they are now; awaited before the change is announced. */
  showPane?(session: TerminalSession, agents: readonly AgentRecord[]): Promise<void>;
  /** The pane is no longer followed; `bound`: agents are still bound to it (it is being rebound). */
  leavePane?(session: TerminalSession, bound: boolean): void;
  /** An agent's status changed, as announced on Crew.onAgentChanged. */
  changed?(agent: AgentRecord): void;
  dispose(): void;
}

/** The displays as the status tracker draws on them: every showPane, awaited together. */
export interface PaneDisplay {
  show(session: TerminalSession, agents: readonly AgentRecord[]): Promise<void>;
  leave(session: TerminalSession, bound: boolean): void;
}

/** The crew's displays: each added once, started with the hive, told of every change, disposed together. */
export class StatusDisplays implements PaneDisplay {
  private readonly displays: StatusDisplay[] = [];
  private context: DisplayContext | undefined;
  private disposed = false;
  private readonly subscription: { dispose(): void };

  constructor(onAgentChanged: Event<AgentRecord>) {
    this.subscription = onAgentChanged((agent) => {
      for (const display of this.displays) display.changed?.(agent);
    });
  }

  /** Registers a display; added after the hive opened, it starts at once; added after dispose, it is disposed at once. */
  add<T extends StatusDisplay>(display: T): T {
    if (this.disposed) {
      display.dispose();
      return display;
    }
    this.displays.push(display);
    if (this.context) display.start?.(this.context);
    return display;
  }

  start(context: DisplayContext): void {
    if (this.context || this.disposed) return;
    this.context = context;
    for (const display of this.displays) display.start?.(context);
  }

  async show(session: TerminalSession, agents: readonly AgentRecord[]): Promise<void> {
    await Promise.all(this.displays.map((display) => display.showPane?.(session, agents)));
  }

  leave(session: TerminalSession, bound: boolean): void {
    for (const display of this.displays) display.leavePane?.(session, bound);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.subscription.dispose();
    for (const display of this.displays.splice(0)) {
      try {
        display.dispose();
      } catch {
        // one display failing to stop must not keep the others running
      }
    }
  }
}
