// When the turn a typed message started is over, for a shell that marks its prompts (OSC 133):
// the shell says so itself, so the typed message's hold against the screen (SELF_HOLD_MS,
// precedence.ts) is not waited out — a quick command is idle at once, and queued messages go
// out as fast as the shell runs them.
import type { AgentRecord } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";

/**
 * Two processes see one pane's output a few ms apart (each has its own tmux client): a status
 * written this long before a process adopted the pane was written before that process's first
 * look at it, so that look already holds what the writer had seen.
 */
export const ADOPTED_VIEW_LAG_MS = 250;

export class TypedTurns {
  /** Per session, when this process last began typing a message into it. */
  private readonly typedAt = new Map<string, number>();
  /** Per session, when this process began following it, adopted from another (or a dead) process. */
  private readonly adoptedAt = new Map<string, number>();

  typingInto(sessionId: string, at: number): void {
    this.typedAt.set(sessionId, at);
  }

  adopted(sessionId: string, at: number): void {
    this.adoptedAt.set(sessionId, at);
  }

  forget(sessionId: string): void {
    this.typedAt.delete(sessionId);
    this.adoptedAt.delete(sessionId);
  }

  /** The agent's typed working is over: its shell is back at its prompt after running the typed line. */
  ended(session: TerminalSession, agent: Pick<AgentRecord, "statusSource" | "updatedAt">): boolean {
    if (agent.statusSource !== "typed" || !session.integrated || session.phase !== "prompt") return false;
    // Typed by a process before this one adopted the pane (one killed while it typed a queue):
    // that status was written once the shell had taken the line (delivery waits for it), so a
    // shell at its prompt now has run it. Without this, the adopter held the agent at "took a
    // typed message" for the rest of the hold, and its queue with it. Asked first: this
    // process may have begun typing here since (a retaken message the dead one had entered,
    // found taken, or one not taken) without a command to show for it, and that says nothing
    // about the dead process's status.
    const adopted = this.adoptedAt.get(session.id);
    if (adopted !== undefined && agent.updatedAt + ADOPTED_VIEW_LAG_MS <= adopted) return true;
    // Typed here: a command that started since then has ended.
    const since = this.typedAt.get(session.id);
    return since !== undefined && session.commands.some((c) => c.startedAt >= since && c.endedAt !== null);
  }
}
