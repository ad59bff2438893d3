// The status tracker's exit job: the pane's program exits, or the pane vanishes → its agents
// are exited (with the exit code or the reason), announced, and the pane's border shows it
// while the pane is still there.
import type { TerminalSession } from "../../terminal/session/session.js";
import type { StatusPort } from "./status-port.js";

export class ExitWatch {
  constructor(private readonly port: StatusPort) {}

  exited(session: TerminalSession, exitCode: number | null, reason: string | undefined): void {
    try {
      const changed = this.port.hive.agents.markSessionExited(session.id, { exitCode, reason });
      for (const agent of changed) this.port.announce(agent);
      if (changed.length && !session.goneReason) void this.port.title(session);
    } catch {
      // store unavailable: the next sync marks it
    }
  }
}
