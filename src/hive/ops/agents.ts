// The agent verbs that bind, list, move and remove agents: agent_register, agent_list (with the
// question a waiting agent shows), agent_spawn's answer, agent_remove, agent_assign.
import { agentView } from "../rules/agent-view.js";
import type { AgentRecord } from "../index.js";
import type { Crew } from "../live/crew.js";
import { askQuestion, questionOnScreen } from "./answer.js";
import { recordLaunch } from "../live/launch-facts.js";
import { spawnAgent, type SpawnInput } from "../launch/spawn.js";
import type { SessionRegistry } from "../../terminal/live/registry.js";
import { ToolError } from "../../util/tool-error.js";
import { traced } from "../../util/traced.js";
import type { PaneCommands } from "./terminal-port.js";

/** An agent as this process sees it: with its pane when this process follows it. */
export function agentSeen(registry: Pick<SessionRegistry, "byId">, a: AgentRecord) {
  const s = registry.byId(a.sessionId);
  return agentView(a, s && { alive: s.alive, paneId: s.paneId, sandbox: s.meta.sandbox, host: s.meta.host });
}

export async function registerAgent(crew: Crew, input: { name: string; session: string; team?: string; profile?: string; replace?: boolean }) {
  await crew.sync();
  const session = await crew.registry.get(input.session);
  const profile = crew.profileFor(input.profile, session.meta.command);
  const existing = crew.hive.agents.find(input.name);
  const agent = crew.bind(session, { name: input.name, team: input.team, profile: profile.name, replace: input.replace });
  // What is known of a pane termhive did not start: its program and folder (no env, no conversation id).
  recordLaunch(crew, session, { agent: agent.name, profile: profile.name, command: session.meta.command, cwd: undefined, env: undefined, team: input.team, host: session.meta.host, conversationId: null });
  return { agent: agentSeen(crew.registry, agent), replaced: existing ? existing.sessionId : null };
}

/** agent_spawn's answer: the agent, whether it is ready, and how to attach to its pane. */
export async function spawnAndShow(crew: Crew, backend: Pick<PaneCommands, "attachCommand">, input: SpawnInput) {
  const r = await spawnAgent(crew, input);
  return {
    agent: agentSeen(crew.registry, r.agent),
    ready: r.ready,
    ready_ms: r.ready_ms,
    ...(input.worktree ? { worktree: { path: r.cwd, branch: input.worktree.branch } } : {}),
    ...(r.warning ? { warning: r.warning } : {}),
    attach: backend.attachCommand(r.session.paneId),
  };
}

export async function listAgents(crew: Crew, input: { team?: string; recursive?: boolean }) {
  await crew.sync();
  const agents = crew.hive.agents.list({ team: input.team, recursive: input.recursive ?? true });
  // An agent whose host is down has no pane here: where it runs is its launch's host.
  const hostOf = (a: AgentRecord) => {
    const host = crew.registry.byId(a.sessionId) ? null : crew.hive.launches.find(a.name)?.host;
    return host ? { host } : {};
  };
  return { agents: await Promise.all(agents.map(async (a) => ({ ...agentSeen(crew.registry, a), ...hostOf(a), question: await questionOf(crew, a) }))) };
}

/** The question a waiting agent's screen shows now (its digest is what hive_answer checks), or null. */
async function questionOf(crew: Crew, a: AgentRecord) {
  if (a.status !== "waiting_for_input") return null;
  const s = crew.registry.byId(a.sessionId);
  if (!s || !s.alive || s.goneReason) return null;
  const ask = crew.hive.permissionAsks.pending(a.name);
  const q = ask ? askQuestion(ask) : (await questionOnScreen(crew, a, s)).question;
  return q && { digest: q.digest, text: q.text, choices: q.choices.map((c) => (c.number !== null ? `${c.number}. ${c.label}` : c.label)) };
}

export async function removeAgent(crew: Pick<Crew, "sync" | "hive" | "registry" | "tracker">, backend: Pick<PaneCommands, "windows">, input: { name: string; close?: boolean }) {
  await crew.sync();
  const agent = crew.hive.agents.remove(input.name);
  let closed = false;
  const s = crew.registry.byId(agent.sessionId);
  if (s && crew.hive.agents.bySession(s.id).length === 0) {
    crew.tracker.untrack(s.id);
    if (input.close) {
      await crew.registry.close(s);
      closed = true;
    } else await backend.windows?.setTitle(s.paneId, s.name).catch(traced("pane title after removing its agent"));
  }
  return { removed: agent.name, session: agent.sessionId, closed };
}

/** Puts an agent in a team (null: out of any team), or — without agent — moves a team under a parent. */
export async function assign(crew: Pick<Crew, "hive" | "registry" | "tracker">, input: { agent?: string; team: string | null; parent?: string | null }) {
  if (input.agent !== undefined) {
    if (input.team === null) return { agent: agentSeen(crew.registry, crew.hive.agents.unassign(input.agent)), created_team: false };
    const r = crew.hive.agents.assign(input.agent, input.team);
    const s = crew.registry.byId(r.agent.sessionId);
    if (s) void crew.tracker.title(s);
    return { agent: agentSeen(crew.registry, r.agent), created_team: r.createdTeam };
  }
  if (input.team === null || input.parent === undefined) throw new ToolError("give agent (to put an agent in team) or parent (to move team under another team, null for top level)");
  return { team: crew.hive.teams.setParent(input.team, input.parent) };
}
