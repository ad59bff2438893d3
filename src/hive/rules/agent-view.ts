// An agent as every door shows it: its stored record, and what the asking process knows of its
// pane. A server knows the panes it follows; the in-pane CLI (cli/pane-hive.ts) follows none.
import { describePolicy, type SandboxPolicy } from "../../sandbox/policy.js";
import type { AgentRecord } from "../store/agents.js";

/** The agent's pane as the asking process sees it; absent: it follows no such pane (not alive here). */
export interface PaneSeen {
  alive: boolean;
  paneId: string;
  sandbox?: SandboxPolicy;
  /** The ssh host the pane runs on; absent: this machine. */
  host?: string;
}

export function agentView(a: AgentRecord, pane?: PaneSeen) {
  return {
    name: a.name, session: a.sessionId, session_name: a.sessionName, team: a.team, profile: a.profile,
    status: a.status, detail: a.statusDetail, source: a.statusSource, exit_code: a.exitCode,
    alive: pane !== undefined && pane.alive, pane: pane?.paneId ?? null, updated_at: a.updatedAt,
    ...(pane?.host ? { host: pane.host } : {}),
    ...(pane?.sandbox ? { sandbox: describePolicy(pane.sandbox) } : {}),
  };
}
