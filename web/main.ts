// The dashboard page: wires the live channel to the overview, the terminals, the events
// feed and the message box.
import "@xterm/xterm/css/xterm.css";
import "./style.css";
import type { ServerMessage, SessionView } from "../src/dashboard/protocol.js";
import { byId, setOptions } from "./dom.js";
import { EventsFeed } from "./events.js";
import { Live } from "./live.js";
import { MessageBox, showMailbox } from "./message.js";
import { NeedsYou } from "./needs.js";
import { renderOverview } from "./overview.js";
import { TermView } from "./terminals.js";

type Snapshot = Extract<ServerMessage, { t: "hive" }>;

let snapshot: Snapshot | undefined;
/** The session picked on the left (or clicked in the grid): the one "Take over" acts on. */
let current: string | undefined;
let takenOver: string | undefined;
/** The agent whose mailbox is shown. */
let mailboxOf: string | undefined;
const views = new Map<string, TermView>();
const grid = byId<HTMLInputElement>("grid");
const takeover = byId<HTMLInputElement>("takeover");
const container = byId("terminals");
const events = new EventsFeed();

const live = new Live(onMessage, (state, failures) => {
  const conn = byId("conn");
  conn.textContent = state === "open" ? "live" : failures > 3 ? "disconnected (reload the page; sign in again if it asks)" : "reconnecting…";
  conn.className = `conn conn-${state}`;
  if (state === "open") {
    // A new connection starts blank on the server's side: say again what is watched.
    for (const view of views.values()) view.dispose();
    views.clear();
    takenOver = undefined;
    takeover.checked = false;
    showTerminals();
  }
});
const messageBox = new MessageBox(live);
const needsYou = new NeedsYou(live);

function sessionById(id: string | undefined): SessionView | undefined {
  return snapshot?.sessions.find((s) => s.session === id);
}

/** The sessions to show: the current one, or in grid mode every pane of its window. */
function wanted(): SessionView[] {
  const chosen = sessionById(current);
  if (!chosen) return [];
  if (!grid.checked) return [chosen];
  return snapshot!.sessions.filter((s) => s.window === chosen.window);
}

function setTakeover(on: boolean): void {
  if (takenOver && takenOver !== current) {
    live.send({ t: "takeover", session: takenOver, on: false });
    views.get(takenOver)?.setTakeover(false);
  }
  takenOver = on ? current : undefined;
  if (current) {
    live.send({ t: "takeover", session: current, on });
    views.get(current)?.setTakeover(on);
  }
  takeover.checked = on;
}

function showTerminals(): void {
  const list = wanted();
  const ids = new Set(list.map((s) => s.session));
  for (const [id, view] of views) {
    if (!ids.has(id)) {
      view.dispose();
      views.delete(id);
    }
  }
  for (const s of list) {
    if (views.has(s.session)) continue;
    const view = new TermView(s.session, s.name, (data) => takenOver === s.session && live.send({ t: "input", session: s.session, data }), () => pick(s.session));
    views.set(s.session, view);
    container.append(view.box);
  }
  container.className = list.length > 1 ? "grid" : "";
  container.style.setProperty("--grid-cols", String(Math.ceil(Math.sqrt(list.length))));
  const chosen = sessionById(current);
  byId("term-title").textContent = chosen ? `${chosen.name}${grid.checked ? ` (grid: ${list.length} panes)` : ""}` : "Pick a session on the left";
  takeover.disabled = !chosen || !chosen.alive;
  for (const view of views.values()) view.box.classList.toggle("current", view.session === current);
  live.send({ t: "watch", sessions: [...ids] });
}

function pick(session: string): void {
  if (session === current) return;
  if (takenOver) setTakeover(false);
  current = session;
  showTerminals();
  if (snapshot) renderOverview(snapshot, current, actions);
}

const actions = {
  openSession: pick,
  pickAgent(agent: { name: string; session: string }) {
    messageBox.address(agent.name);
    mailboxOf = agent.name;
    void showMailbox(live, agent.name);
    pick(agent.session);
  },
};

function onMessage(m: ServerMessage): void {
  switch (m.t) {
    case "hive": {
      const before = snapshot;
      snapshot = m;
      renderOverview(m, current, actions);
      needsYou.render(m.agents);
      messageBox.targets(m.agents, m.teams);
      const agentSelect = byId<HTMLSelectElement>("filter-agent");
      const teamSelect = byId<HTMLSelectElement>("filter-team");
      setOptionsKeeping(agentSelect, m.agents.map((a) => a.name));
      setOptionsKeeping(teamSelect, m.teams.map((t) => t.name));
      // Grid membership follows the layout's panes as they come and go.
      if (before && current && wanted().map((s) => s.session).sort().join() !== [...views.keys()].sort().join()) showTerminals();
      document.body.dataset.ready = "1";
      return;
    }
    case "events":
      events.add(m.events);
      // Mail to the agent whose mailbox is shown: show it again.
      if (mailboxOf && m.events.some((e) => e.kind === "message" && e.agent === mailboxOf && e.data.via === "mail")) void showMailbox(live, mailboxOf);
      return;
    case "screen":
      return views.get(m.session)?.picture(m.rows, m.cols, m.data);
    case "out":
      return views.get(m.session)?.write(m.data);
    case "closed":
      return views.get(m.session)?.closed(m.reason);
    case "error":
      byId("conn").textContent = `error: ${m.message}`;
      return;
    case "reply":
      return;
  }
}

function setOptionsKeeping(select: HTMLSelectElement, names: string[]): void {
  const options = [{ value: "", label: "all" }, ...names.map((n) => ({ value: n, label: n }))];
  setOptions(select, options);
}

grid.addEventListener("change", showTerminals);
takeover.addEventListener("change", () => setTakeover(takeover.checked));
window.addEventListener("resize", () => {
  for (const view of views.values()) view.fitFont();
});
live.connect();
