// The iTerm2 display: each agent's status colours its iTerm2 tab and sets its badge, a wait for
// input raises a notification (iterm2/decorations.ts), and hive_focus brings the pane's tab to
// the front. Told after a change is announced (iTerm2's API may be slow or gone); inert where
// iTerm2 cannot be there (not macOS and no TERMHIVE_ITERM2_SOCKET).
import type { AgentRecord } from "../index.js";
import { Iterm2Decorations, type DecoratedService } from "../../iterm2/decorations.js";
import { iterm2Unavailable } from "../../iterm2/endpoint.js";
import type { StatusDisplay } from "./status-display.js";

export class Iterm2Tabs implements StatusDisplay {
  private readonly decorations: Iterm2Decorations | undefined;
  /** Each change after the one before, so a tab never ends on an older status. */
  private chain = Promise.resolve();
  private disposed = false;

  constructor(service: DecoratedService) {
    this.decorations = iterm2Unavailable() === null ? new Iterm2Decorations(service) : undefined;
  }

  changed(agent: AgentRecord): void {
    const decorations = this.decorations;
    if (!decorations || this.disposed) return;
    this.chain = this.chain.then(() => decorations.show(agent)).catch(() => undefined); // iTerm2 gone or refusing: the next change retries
  }

  /** hive_focus's hook: also activates the pane in iTerm2 when it is shown there. Never fails the focus. */
  async focus(paneId: string): Promise<void> {
    await this.decorations?.focus(paneId).catch(() => undefined); // iTerm2 not showing the pane: the backend's focus stands
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.decorations?.dispose();
  }
}
