// "Needs you": every agent whose screen asks a question, with the question, one button per
// choice and a box for a typed answer. An answer goes through hive_answer with the digest of
// the question shown, so a question that changed meanwhile is refused, not answered blindly.
// A notification's link ends in #needs-<agent>: that entry is scrolled to and marked.
import type { AgentView, ServerMessage } from "../src/dashboard/protocol.js";
import { byId, el } from "./dom.js";
import type { Live } from "./live.js";

type Reply = Extract<ServerMessage, { t: "reply" }>;
type Asking = AgentView & { question: NonNullable<AgentView["question"]> };

/**
 * The choices a question offers: its menu's, or for a question that names its answers in its
 * own words (a shell's "[y/N]", "(yes/no)") those answers.
 */
function choicesOf(q: Asking["question"]): string[] {
  if (q.choices.length > 0) return q.choices;
  const m = /[[(]\s*(y(?:es)?)\s*\/\s*(n(?:o)?)\s*[\])]/i.exec(q.text);
  return m ? [m[1]!.toLowerCase(), m[2]!.toLowerCase()] : [];
}

/** What a choice button sends: the number of a numbered choice, else its label. */
const answerFor = (choice: string) => /^(\d{1,2})\.\s/.exec(choice)?.[1] ?? choice;

function outcome(reply: Reply): { node: HTMLElement; answered?: string } {
  if (!reply.ok) return { node: el("p", { class: "refused" }, reply.error ?? "failed") };
  const r = reply.result as { gone: boolean; choice: string | null; now: { status: string } };
  if (!r.gone) return { node: el("p", { class: "refused" }, "typed, but the question is still on screen: look at the pane") };
  const answered = `answered${r.choice ? ` (${r.choice})` : ""}`;
  return { node: el("p", { class: "delivered" }, `${answered}; now ${r.now.status}`), answered };
}

export class NeedsYou {
  private readonly list = byId("needs");
  /** agent → digest of what is shown: entries are rebuilt only when that changes (typing is kept). */
  private shown = "";
  /** Outcomes stay shown after their entry leaves the list. */
  private readonly results = el("div", { id: "needs-results", role: "status" });

  constructor(private readonly live: Live) {
    window.addEventListener("hashchange", () => this.markLinked());
  }

  render(agents: AgentView[]): void {
    this.follow(agents);
    const asking = agents.filter((a): a is Asking => a.status === "waiting_for_input" && a.question !== null);
    const key = asking.map((a) => `${a.name}\u0000${a.question.digest}`).join("\u0001");
    if (key === this.shown) return;
    this.shown = key;
    const entries = asking.map((a) => this.entry(a));
    this.list.replaceChildren(...(entries.length ? entries : [el("p", { class: "empty" }, "No agent is waiting for you.")]), this.results);
    this.markLinked();
  }

  private entry(a: Asking): HTMLElement {
    const q = a.question;
    const send = (answer: string) => void this.answer(a.name, answer, q.digest);
    const buttons = choicesOf(q).map((c) => {
      const b = el("button", { type: "button", class: "choice", "data-answer": answerFor(c) }, c);
      b.addEventListener("click", () => send(answerFor(c)));
      return b;
    });
    const text = el("input", { type: "text", class: "answer-text", "aria-label": `answer for ${a.name}`, maxlength: "4096" });
    const form = el("form", { class: "answer-form" }, text, el("button", { type: "submit" }, "Answer"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (text.value.trim()) send(text.value);
    });
    return el(
      "div",
      { class: "needs", id: `needs-${a.name}`, "data-agent": a.name, "data-question": q.digest },
      el("b", {}, a.name),
      " asks: ",
      el("span", { class: "question" }, q.text || a.detail || "a question"),
      el("div", { class: "choices" }, ...buttons),
      form,
    );
  }

  private async answer(agent: string, answer: string, question: string): Promise<void> {
    const status = el("div", { "data-agent": agent }, `${agent}: answering…`);
    this.results.replaceChildren(status);
    const reply = await this.live.request({ t: "answer", agent, answer, question });
    const o = outcome(reply);
    status.replaceChildren(el("b", {}, `${agent}: `), o.node);
    if (o.answered) this.answered = { agent, text: o.answered, node: o.node };
  }

  /** The last answer's outcome says the agent's status as it is now, not as it was at the answer. */
  private answered: { agent: string; text: string; node: HTMLElement } | null = null;

  private follow(agents: AgentView[]): void {
    const a = this.answered;
    if (!a || !a.node.isConnected) return;
    const now = agents.find((x) => x.name === a.agent);
    a.node.textContent = `${a.text}; now ${now ? now.status : "gone"}`;
  }

  private markLinked(): void {
    const id = decodeURIComponent(location.hash.slice(1));
    for (const node of this.list.querySelectorAll(".needs")) node.classList.toggle("linked", node.id === id);
    if (id.startsWith("needs-")) document.getElementById(id)?.scrollIntoView({ block: "nearest" });
  }
}
