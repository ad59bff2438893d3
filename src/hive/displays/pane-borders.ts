// The tmux display of agent statuses: each agent pane's border title (every agent in it with
// its status and detail) and its marks (colour, window summary, a ring when input is needed:
// indicators.ts). Registered with the crew as the displays/tmux-borders.ts display: the
// status tracker awaits it before it announces a change on Crew.onAgentChanged, so whoever
// hears of a change sees it on screen too.
import type { AgentRecord } from "../index.js";
import type { Backend } from "../../backends/backend.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { HiveIndicators } from "./indicators.js";
import { traced } from "../../util/traced.js";

export class PaneBorders {
  private indicatorsInstance: HiveIndicators | undefined;

  constructor(private readonly backend: Backend) {}

  private get indicators(): HiveIndicators {
    return (this.indicatorsInstance ??= new HiveIndicators(this.backend));
  }

  /** Title and marks of a pane from its agents' statuses. */
  async show(session: TerminalSession, agents: readonly AgentRecord[]): Promise<void> {
    if (session.goneReason || agents.length === 0) return;
    const text = agents.map((a) => `${a.name}${a.team ? ` [${a.team}]` : ""} · ${a.status}${a.statusDetail ? `: ${a.statusDetail}` : ""}`).join(" | ");
    await this.backend.windows?.setTitle(session.paneId, text).catch(traced("pane title"));
    this.indicators.show(session.pane, agents);
  }

  /** The pane is no longer followed: its agents stay (rebinding), so only the memory goes. */
  forget(session: TerminalSession): void {
    this.indicatorsInstance?.forget(session.paneId);
  }

  /** The pane is no agent's any more: its colours and its count in the window summary go. */
  clear(session: TerminalSession): void {
    this.indicators.clear(session.pane);
  }
}
