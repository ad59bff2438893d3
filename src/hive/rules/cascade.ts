// Cascading messages: one call carries a broadcast, per-team texts and per-agent texts, and
// every addressed agent receives exactly one of them — its own, else the text of its nearest
// team (its team, then the parent, grandparent …), else the broadcast. Pure: it plans, the
// service types the texts into panes.
//
// De-duplication is per session: when two agent names share one session, the session gets a
// single text — the most specific one (agent > team > broadcast; ties: first agent by name) —
// and the other agents are reported as covered by it. Exited agents are reported, not typed to.
import { HiveError, nameList } from "../store/errors.js";
import { teamAncestry } from "../store/teams.js";

export interface CascadeInput {
  broadcast?: string;
  teams?: Readonly<Record<string, string>>;
  agents?: Readonly<Record<string, string>>;
}

export interface CascadeAgent {
  name: string;
  sessionId: string;
  team: string | null;
  status: string;
}

export interface CascadeTeam {
  name: string;
  parent: string | null;
}

export type CascadeLevel = "agent" | "team" | "broadcast";

/** What one agent was given and why. */
export interface CascadeAssignment {
  agent: string;
  sessionId: string;
  level: CascadeLevel;
  /** "agent:<name>", "team:<name>" or "broadcast": the key the text came from. */
  source: string;
  text: string;
  /** False when this agent's session already gets a text via another agent, or the agent exited. */
  delivered: boolean;
  note?: string;
}

/** One text to type into one session. */
export interface CascadeDelivery {
  sessionId: string;
  text: string;
  level: CascadeLevel;
  source: string;
  /** Agents this delivery reaches (more than one when names share a session). */
  agents: string[];
}

export interface CascadePlan {
  deliveries: CascadeDelivery[];
  /** Every agent that had a text, in name order. Agents without any applicable text are absent. */
  assignments: CascadeAssignment[];
}

const RANK: Record<CascadeLevel, number> = { agent: 0, team: 1, broadcast: 2 };

function checkText(where: string, text: unknown): string {
  if (typeof text !== "string" || text.length === 0) {
    throw new HiveError("invalid", `${where}: the message text must be a non-empty string`);
  }
  return text;
}

export function planCascade(
  input: CascadeInput,
  ctx: { agents: readonly CascadeAgent[]; teams: readonly CascadeTeam[] },
): CascadePlan {
  const agentTexts = input.agents ?? {};
  const teamTexts = input.teams ?? {};
  const agentNames = ctx.agents.map((a) => a.name);
  const teamNames = ctx.teams.map((t) => t.name);
  for (const [name, text] of Object.entries(agentTexts)) {
    if (!agentNames.includes(name)) throw new HiveError("unknown", `unknown agent '${name}'; valid agents: ${nameList(agentNames)}`);
    checkText(`agents.${name}`, text);
  }
  for (const [name, text] of Object.entries(teamTexts)) {
    if (!teamNames.includes(name)) throw new HiveError("unknown", `unknown team '${name}'; valid teams: ${nameList(teamNames)}`);
    checkText(`teams.${name}`, text);
  }
  if (input.broadcast !== undefined) checkText("broadcast", input.broadcast);
  if (Object.keys(agentTexts).length === 0 && Object.keys(teamTexts).length === 0 && input.broadcast === undefined) {
    throw new HiveError("empty", "nothing to send: give broadcast, teams or agents texts");
  }

  const assignments: CascadeAssignment[] = [];
  for (const agent of [...ctx.agents].sort((a, b) => a.name.localeCompare(b.name))) {
    let pick: Pick<CascadeAssignment, "level" | "source" | "text"> | undefined;
    const own = agentTexts[agent.name];
    if (own !== undefined) pick = { level: "agent", source: `agent:${agent.name}`, text: own };
    if (!pick && agent.team !== null) {
      const nearest = teamAncestry(ctx.teams, agent.team).find((t) => teamTexts[t] !== undefined);
      if (nearest !== undefined) pick = { level: "team", source: `team:${nearest}`, text: teamTexts[nearest]! };
    }
    if (!pick && input.broadcast !== undefined) pick = { level: "broadcast", source: "broadcast", text: input.broadcast };
    if (!pick) continue;
    const exited = agent.status === "exited";
    assignments.push({
      agent: agent.name,
      sessionId: agent.sessionId,
      ...pick,
      delivered: !exited,
      ...(exited ? { note: "agent has exited; not sent" } : {}),
    });
  }

  // One delivery per session: the most specific assignment wins, the others ride along.
  const bySession = new Map<string, CascadeAssignment[]>();
  for (const a of assignments) {
    if (!a.delivered) continue;
    const list = bySession.get(a.sessionId) ?? [];
    list.push(a);
    bySession.set(a.sessionId, list);
  }
  const deliveries: CascadeDelivery[] = [];
  for (const [sessionId, list] of bySession) {
    const winner = [...list].sort((x, y) => RANK[x.level] - RANK[y.level])[0]!;
    for (const other of list) {
      if (other === winner) continue;
      if (other.text !== winner.text) {
        other.delivered = false;
        other.note = `shares session ${sessionId} with ${winner.agent}, which gets the more specific ${winner.source} text`;
      } else {
        other.note = `shares session ${sessionId} with ${winner.agent}; the text is sent once`;
      }
    }
    deliveries.push({
      sessionId,
      text: winner.text,
      level: winner.level,
      source: winner.source,
      agents: list.filter((a) => a.delivered).map((a) => a.agent),
    });
  }

  if (deliveries.length === 0) {
    const why = assignments.length > 0 ? "every addressed agent has exited" : "no agent is reached by these texts (no agents, or none in those teams)";
    throw new HiveError("empty", `cascade reaches no session: ${why}`);
  }
  return { deliveries, assignments };
}
