// Which hive events are worth a person's attention off the machine, and what to tell them.
// A notice is derived from one row of the event log (hive/store/event-log.ts), so its id is the event's
// id: the key every process claims it by (claim.ts).
// Every notice leaves the machine (ntfy.sh is public): its words are masked as results are
// (credential shapes, src/redact.ts) and cut to a length a phone shows.
import type { HiveEvent } from "../store/event-log.js";
import { redactCredentials } from "../../redact.js";
import { inQuietHours, type NoticeKind, type NotifyEndpoint } from "./notify-config.js";

/** Longest notice message: enough for a dialog's lines, short of what a phone cuts anyway. */
export const MAX_NOTICE_CHARS = 1000;
const MAX_TITLE_CHARS = 120;

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Masked and cut: the form every notice leaves in. */
function finished(n: Notice): Notice {
  return { ...n, title: clip(redactCredentials(n.title), MAX_TITLE_CHARS), message: clip(redactCredentials(n.message), MAX_NOTICE_CHARS) };
}

export interface Notice {
  /** The event id it comes from. */
  id: number;
  kind: NoticeKind;
  agent: string | null;
  team: string | null;
  title: string;
  message: string;
  at: number;
  /** A waiting notice: the digest of the question on screen (hive_answer's question), when the event had it. */
  question?: string;
  /** The agent's "Needs you" entry on the dashboard, when a serve runs for this home. */
  link?: string;
}

/** The notice an event makes, or null when it is not one (spinner details, lifecycle, messages…). */
export function noticeOf(event: HiveEvent, teamOf: (agent: string) => string | null, sessionName: (id: string) => string | undefined = () => undefined): Notice | null {
  const n = rawNoticeOf(event, teamOf, sessionName);
  return n && finished(n);
}

function rawNoticeOf(event: HiveEvent, teamOf: (agent: string) => string | null, sessionName: (id: string) => string | undefined): Notice | null {
  const agent = event.agent;
  const team = agent ? teamOf(agent) : null;
  const base = { id: event.id, agent, team, at: event.at };
  const detail = typeof event.data.detail === "string" && event.data.detail !== "" ? `: ${event.data.detail}` : "";
  if (event.kind === "status" && agent) {
    const { status, previous } = event.data;
    if (status === previous) return null; // a detail update of the same status
    if (status === "waiting_for_input") {
      const question = typeof event.data.question === "string" ? { question: event.data.question } : {};
      // What the screen shows of the question (its lines, the permission's tool and command):
      // what a person needs to decide without opening a terminal.
      const prompt = typeof event.data.prompt === "string" && event.data.prompt !== "" ? `:\n${event.data.prompt}` : detail;
      return { ...base, ...question, kind: "waiting", title: `${agent} needs you`, message: `${agent} is waiting for input${prompt}` };
    }
    if (status === "error") return { ...base, kind: "error", title: `${agent} hit an error`, message: `${agent} reports an error${detail}` };
    const exitCode = event.data.exitCode;
    if (status === "exited" && typeof exitCode === "number" && exitCode !== 0) {
      // The detail of an exit is "exit code N" unless a reason was given: said once.
      const reason = event.data.detail === `exit code ${exitCode}` ? "" : detail;
      return { ...base, kind: "error", title: `${agent} exited with code ${exitCode}`, message: `${agent} ended with exit code ${exitCode}${reason}` };
    }
    if (status === "idle" && previous === "working") return { ...base, kind: "turn_done", title: `${agent} finished its turn`, message: `${agent} finished a turn and is idle` };
    return null;
  }
  if (event.kind === "watch" && event.data.disabled !== true) {
    const label = typeof event.data.label === "string" && event.data.label ? event.data.label : `/${String(event.data.pattern)}/`;
    const line = typeof event.data.line === "string" ? event.data.line : "";
    const where = agent ?? (event.sessionId ? (sessionName(event.sessionId) ?? event.sessionId) : "a session");
    return { ...base, kind: "watch", title: `watcher ${label} fired`, message: `${label} matched in ${where}: ${line}` };
  }
  return null;
}

/** Whether this endpoint wants this notice now (its events, agent/team filters, quiet hours). */
export function wants(endpoint: NotifyEndpoint, notice: Notice, now: Date = new Date()): boolean {
  if (!endpoint.events.includes(notice.kind)) return false;
  if (endpoint.agents || endpoint.teams) {
    const byAgent = notice.agent !== null && (endpoint.agents ?? []).includes(notice.agent);
    const byTeam = notice.team !== null && (endpoint.teams ?? []).includes(notice.team);
    if (!byAgent && !byTeam) return false;
  }
  return !inQuietHours(endpoint.quiet, now);
}
