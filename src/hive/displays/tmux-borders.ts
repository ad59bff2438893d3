// The tmux display: each agent pane's border title and marks (pane-borders.ts), shown before a
// change is announced, so whoever hears of it sees it on screen too.
import type { AgentRecord } from "../index.js";
import type { Backend } from "../../backends/backend.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { PaneBorders } from "./pane-borders.js";
import type { StatusDisplay } from "./status-display.js";

export class TmuxBorders implements StatusDisplay {
  private readonly borders: PaneBorders;

  constructor(backend: Backend) {
    this.borders = new PaneBorders(backend);
  }

  showPane(session: TerminalSession, agents: readonly AgentRecord[]): Promise<void> {
    return this.borders.show(session, agents);
  }

  leavePane(session: TerminalSession, bound: boolean): void {
    // Rebinding keeps the pane an agent's; removing the last agent takes its colours away.
    if (bound) this.borders.forget(session);
    else this.borders.clear(session);
  }

  dispose(): void {}
}
