// The hive at a glance: the team tree with each agent's status, the sessions with what they
// run and how long they have been idle, and the messages waiting in the queue.
import type { AgentView, QueuedView, ServerMessage, SessionView, TeamView } from "../src/dashboard/protocol.js";
import { byId, duration, el } from "./dom.js";

type Snapshot = Extract<ServerMessage, { t: "hive" }>;

export interface OverviewActions {
  openSession(session: string): void;
  pickAgent(agent: AgentView): void;
}

const STATUS_WORDS: Record<string, string> = { waiting_for_input: "waiting for input" };

function statusBadge(status: string): HTMLElement {
  return el("span", { class: `status status-${status}`, "data-status": status }, STATUS_WORDS[status] ?? status);
}

/**
 * When each agent's status word last changed, as this page saw it: the store's updated_at
 * moves with every new detail (a spinner's frame), not only with the status.
 */
const statusSince = new Map<string, { status: string; since: number }>();

function since(a: AgentView, now: number): number {
  const known = statusSince.get(a.name);
  if (known && known.status === a.status) return known.since;
  const at = known ? now : a.updated_at;
  statusSince.set(a.name, { status: a.status, since: at });
  return at;
}

function agentRow(a: AgentView, now: number, actions: OverviewActions): HTMLElement {
  const duringStatus = duration((now - since(a, now)) / 1000);
  const row = el(
    "li",
    { class: "agent", "data-agent": a.name, tabindex: "0", title: `session ${a.session_name ?? a.session}` },
    el("span", { class: "agent-name" }, a.name),
    a.host ? el("span", { class: "host" }, ` on ${a.host}`) : "",
    " ",
    statusBadge(a.status),
    " ",
    el("span", { class: "since" }, `for ${duringStatus}`),
    a.source ? el("span", { class: "source" }, ` (${a.source})`) : "",
    a.detail ? el("div", { class: "detail" }, a.detail) : "",
  );
  const pick = () => actions.pickAgent(a);
  row.addEventListener("click", pick);
  row.addEventListener("keydown", (e) => e.key === "Enter" && pick());
  return row;
}

function teamNode(team: TeamView, teams: Map<string, TeamView>, agents: Map<string, AgentView>, now: number, actions: OverviewActions, depth: number): HTMLElement {
  const members = team.members.map((n) => agents.get(n)).filter((a): a is AgentView => a !== undefined);
  const children = depth < 16 ? team.children.map((c) => teams.get(c)).filter((t): t is TeamView => t !== undefined) : [];
  return el(
    "li",
    { class: "team", "data-team": team.name },
    el("span", { class: "team-name" }, `team ${team.name}`),
    team.description ? el("span", { class: "team-description" }, ` — ${team.description}`) : "",
    el("ul", {}, ...members.map((a) => agentRow(a, now, actions)), ...children.map((t) => teamNode(t, teams, agents, now, actions, depth + 1))),
  );
}

function renderAgents(s: Snapshot, actions: OverviewActions): void {
  const now = Date.now();
  const teams = new Map(s.teams.map((t) => [t.name, t]));
  const agents = new Map(s.agents.map((a) => [a.name, a]));
  const roots = s.teams.filter((t) => t.parent === null || !teams.has(t.parent));
  const loose = s.agents.filter((a) => a.team === null || !teams.has(a.team));
  for (const name of statusSince.keys()) if (!agents.has(name)) statusSince.delete(name);
  const tree = el("ul", { class: "tree" }, ...roots.map((t) => teamNode(t, teams, agents, now, actions, 0)), ...loose.map((a) => agentRow(a, now, actions)));
  byId("agents").replaceChildren(s.agents.length || s.teams.length ? tree : el("p", { class: "empty" }, "No agents yet (agent_spawn, agent_register)."));
}

function renderSessions(sessions: SessionView[], current: string | undefined, actions: OverviewActions): void {
  const rows = sessions.map((s) => {
    const runs = !s.alive ? "exited" : (s.running ?? s.foreground);
    const row = el(
      "tr",
      { "data-session": s.session, "data-name": s.name, class: s.session === current ? "current" : "", tabindex: "0" },
      el("td", {}, s.name),
      el("td", {}, runs + (s.tui ? " · full screen" : "")),
      el("td", {}, duration(s.idle_s)),
    );
    const open = () => actions.openSession(s.session);
    row.addEventListener("click", open);
    row.addEventListener("keydown", (e) => e.key === "Enter" && open());
    return row;
  });
  byId("sessions").querySelector("tbody")!.replaceChildren(...rows);
}

function renderQueue(queue: QueuedView[]): void {
  const items = queue.map((q) =>
    el("li", { "data-queued": String(q.id) }, el("b", {}, `#${q.id} → ${q.agents.join(", ") || q.session}`), ` (${q.level}${q.typing ? ", being typed" : ""}): `, q.text),
  );
  byId("queue").replaceChildren(...(items.length ? items : [el("li", { class: "empty" }, "Nothing queued.")]));
}

/** The row keyboard focus is on, to put it back on the row's successor after a re-render. */
function focusedRow(): string | undefined {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement)) return undefined;
  if (active.dataset.agent) return `#agents li.agent[data-agent="${CSS.escape(active.dataset.agent)}"]`;
  if (active.dataset.session && active.closest("#sessions")) return `#sessions tr[data-session="${CSS.escape(active.dataset.session)}"]`;
  return undefined;
}

export function renderOverview(s: Snapshot, current: string | undefined, actions: OverviewActions): void {
  const focused = focusedRow();
  renderAgents(s, actions);
  renderSessions(s.sessions, current, actions);
  if (focused) document.querySelector<HTMLElement>(focused)?.focus();
  renderQueue(s.queue);
  const busy = s.agents.filter((a) => a.status === "working").length;
  byId("counts").textContent = `${s.sessions.length} sessions · ${s.agents.length} agents (${busy} working) · ${s.teams.length} teams · ${s.queue.length} queued` + (s.error ? ` · error: ${s.error}` : "");
}
