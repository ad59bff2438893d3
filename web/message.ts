// The "Message" box (to an agent, a team or everyone, through the hive's cascade) with what
// became of it, the safety gate's refusal included; and an agent's mailbox.
import type { AgentView, MessageTarget, ServerMessage, TeamView } from "../src/dashboard/protocol.js";
import { byId, el, setOptions } from "./dom.js";
import type { Live } from "./live.js";

type Reply = Extract<ServerMessage, { t: "reply" }>;

interface Assignment {
  agent: string;
  delivered: boolean;
  queued?: boolean;
  note?: string;
}

function target(value: string): MessageTarget {
  if (value.startsWith("agent:")) return { kind: "agent", name: value.slice(6) };
  if (value.startsWith("team:")) return { kind: "team", name: value.slice(5) };
  return { kind: "everyone" };
}

function outcome(reply: Reply): HTMLElement {
  if (!reply.ok) return el("p", { class: "refused" }, reply.error ?? "failed");
  const assignments = ((reply.result as { assignments?: Assignment[] }).assignments ?? []);
  if (assignments.length === 0) return el("p", {}, "Nobody was addressed (no agent matches).");
  return el(
    "ul",
    {},
    ...assignments.map((a) =>
      el("li", { "data-agent": a.agent, class: a.queued ? "queued" : a.delivered ? "delivered" : "refused" }, `${a.agent}: ${a.queued ? "queued (busy; typed when next idle)" : a.delivered ? "delivered" : "not delivered"}${a.note ? ` — ${a.note}` : ""}`),
    ),
  );
}

export class MessageBox {
  private readonly to = byId<HTMLSelectElement>("message-to");
  private readonly text = byId<HTMLTextAreaElement>("message-text");
  private readonly confirm = byId<HTMLInputElement>("message-confirm");
  private readonly result = byId("message-result");

  constructor(private readonly live: Live) {
    byId<HTMLFormElement>("message-form").addEventListener("submit", (e) => {
      e.preventDefault();
      void this.send();
    });
  }

  targets(agents: AgentView[], teams: TeamView[]): void {
    setOptions(this.to, [
      { value: "everyone", label: "everyone" },
      ...teams.map((t) => ({ value: `team:${t.name}`, label: `team ${t.name}` })),
      ...agents.map((a) => ({ value: `agent:${a.name}`, label: `agent ${a.name}` })),
    ]);
  }

  address(agent: string): void {
    this.to.value = `agent:${agent}`;
  }

  private async send(): Promise<void> {
    const text = this.text.value;
    if (!text.trim()) return;
    this.result.replaceChildren(el("p", {}, "sending…"));
    const reply = await this.live.request({ t: "message", to: target(this.to.value), text, confirm: this.confirm.checked || undefined });
    this.result.replaceChildren(outcome(reply));
    if (reply.ok) this.text.value = "";
    this.confirm.checked = false;
  }
}

interface Mail {
  id: number;
  from: string;
  text: string;
  createdAt?: number;
  readAt?: number | null;
}

export async function showMailbox(live: Live, agent: string): Promise<void> {
  const box = byId("mailbox");
  box.replaceChildren(el("p", {}, `${agent}: loading…`));
  const reply = await live.request({ t: "mailbox", agent });
  if (!reply.ok) return void box.replaceChildren(el("p", { class: "refused" }, reply.error ?? "failed"));
  const { messages, unread_left } = reply.result as { messages: Mail[]; unread_left: number };
  box.replaceChildren(
    el("p", {}, `${agent}: ${messages.length} message(s), ${unread_left} unread`),
    el("ul", {}, ...messages.map((m) => el("li", { class: m.readAt ? "read" : "unread" }, "from ", el("b", {}, m.from), `: ${m.text}`))),
  );
}
