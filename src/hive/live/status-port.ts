// What each of the status tracker's jobs (screen detection, self reports, exits, following the
// store) needs of the tracker: the store, the session's agents as last read, and the one way a
// change is recorded and announced. The jobs see this and nothing else, so each is tested
// alone on a fake session with a fake port.
import type { AgentRecord, Hive } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";

export type StatusWrite = () => { agent: AgentRecord; changed: boolean };

export interface StatusPort {
  readonly hive: Hive;
  /** The session's agents, possibly from a kept view (StoreFollower.agentsOf): judge them, never change them. */
  agentsOf(sessionId: string): readonly AgentRecord[];
  /** The kept view of the session was judged stale: the next agentsOf reads the store. */
  rereadAgents(sessionId: string): void;
  /** Runs a status write; on a change, the displays show it, then it is announced. */
  record(write: StatusWrite, session: TerminalSession): AgentRecord | undefined;
  /** Tells the process of a change (once per status and time). */
  announce(agent: AgentRecord): void;
  /** Whether this status of the agent was not announced yet. */
  isNews(agent: AgentRecord): boolean;
  /** Shows the pane's agents on the displays that must be current before an announcement. */
  title(session: TerminalSession): Promise<void>;
}
