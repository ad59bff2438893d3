// The live events feed: newest first, filterable by agent, team and kind. The page keeps at
// most MAX_EVENTS (older ones are dropped), so a page left open does not grow.
import type { EventView } from "../src/dashboard/protocol.js";
import { byId, el } from "./dom.js";

export const MAX_EVENTS = 500;

/** Text from an event's data as a line shows it: no control characters (a line is cleaned like output already; this is the page's own guard). */
function text(v: unknown): string {
  const s = typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v);
  return s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "").replace(/\s+/g, " ").trim();
}

function cut(s: string, max = 200): string {
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** One readable line per event: what happened, not the event's JSON. */
export function summary(e: EventView): string {
  const d = e.data;
  switch (e.kind) {
    case "status":
      return `${text(d.status)}${d.detail ? ` — ${text(d.detail)}` : ""}`;
    case "message":
      return `${text(d.state)} (${text(d.level)}${d.via ? `, ${text(d.via)}` : ""})${d.text ? `: ${text(d.text)}` : ""}${d.note ? ` — ${text(d.note)}` : ""}`;
    case "watch": {
      const watcher = d.label ? `${text(d.label)} (/${text(d.pattern)}/)` : `/${text(d.pattern)}/`;
      if (d.disabled) return `watcher ${watcher} is off: ${cut(text(d.reason))}`;
      return `${watcher} matched${e.session ? ` in ${e.session}` : ""}: ${cut(text(d.line), 300)}`;
    }
    case "lifecycle": {
      const what = text(d.event).replace(/_/g, " ");
      const rest = Object.entries(d)
        .filter(([key, value]) => key !== "event" && value !== null && value !== undefined && value !== "")
        .map(([key, value]) => `${key.replace(/_/g, " ")} ${text(value)}`);
      return cut(rest.length ? `${what} (${rest.join(", ")})` : what);
    }
    default:
      return cut(Object.entries(d).map(([key, value]) => `${key}: ${text(value)}`).join(", "));
  }
}

export class EventsFeed {
  private events: EventView[] = [];
  private readonly list = byId<HTMLOListElement>("events");
  private readonly agent = byId<HTMLSelectElement>("filter-agent");
  private readonly team = byId<HTMLSelectElement>("filter-team");
  private readonly kind = byId<HTMLSelectElement>("filter-kind");

  constructor() {
    for (const select of [this.agent, this.team, this.kind]) select.addEventListener("change", () => this.renderAll());
  }

  add(events: EventView[]): void {
    const known = new Set(this.events.map((e) => e.id));
    const fresh = events.filter((e) => !known.has(e.id));
    this.events.push(...fresh);
    if (this.events.length > MAX_EVENTS) this.events = this.events.slice(-MAX_EVENTS);
    for (const e of fresh) if (this.shown(e)) this.list.prepend(this.row(e));
    while (this.list.childElementCount > MAX_EVENTS) this.list.lastElementChild!.remove();
  }

  private shown(e: EventView): boolean {
    return (!this.agent.value || e.agent === this.agent.value) && (!this.team.value || e.team === this.team.value) && (!this.kind.value || e.kind === this.kind.value);
  }

  private renderAll(): void {
    this.list.replaceChildren(...this.events.filter((e) => this.shown(e)).reverse().map((e) => this.row(e)));
  }

  private row(e: EventView): HTMLElement {
    const time = new Date(e.at).toLocaleTimeString();
    return el(
      "li",
      { class: `event event-${e.kind}`, "data-kind": e.kind, "data-agent": e.agent ?? "", "data-session": e.session ?? "" },
      el("time", {}, time),
      " ",
      el("span", { class: "kind" }, e.kind),
      " ",
      el("b", {}, e.agent ?? "—"),
      e.team ? el("span", { class: "team" }, ` [${e.team}]`) : "",
      " ",
      summary(e),
    );
  }
}
