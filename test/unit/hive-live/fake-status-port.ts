// The status tracker as one of its jobs sees it (StatusPort), played by the test: a real hive
// in a temp home, every write recorded, every announcement, display and re-read listed in order.
import type { AgentRecord, Hive } from "../../../src/hive/index.js";
import type { StatusPort } from "../../../src/hive/live/status-port.js";
import type { TerminalSession } from "../../../src/terminal/session/session.js";

export interface FakeStatusPort extends StatusPort {
  /** What happened, in order: "record <agent> <status>", "announce …", "title <session>", "reread <session>". */
  readonly log: string[];
  readonly announced: AgentRecord[];
}

export function fakeStatusPort(hive: Hive, overrides: Partial<StatusPort> = {}): FakeStatusPort {
  const log: string[] = [];
  const announced: AgentRecord[] = [];
  return {
    hive,
    log,
    announced,
    agentsOf: (id) => hive.agents.bySession(id),
    rereadAgents: (id) => void log.push(`reread ${id}`),
    record: (write) => {
      const r = write();
      if (r.changed) log.push(`record ${r.agent.name} ${r.agent.status}`);
      return r.agent;
    },
    announce: (agent) => {
      log.push(`announce ${agent.name} ${agent.status}`);
      announced.push(agent);
    },
    isNews: () => true,
    title: async (session: TerminalSession) => void log.push(`title ${session.id}`),
    ...overrides,
  };
}
