// The request each endpoint kind gets. One JSON body serves the common webhook receivers as
// they are: Slack incoming webhooks read `text`, Discord webhooks read `content` (both ignore
// the other fields), anything else gets the structured fields. ntfy's topic URL takes the
// message as a plain-text body with the title and tags in headers.
import type { Notice } from "./notice.js";

export interface HttpRequest {
  headers: Record<string, string>;
  body: string;
}

const TAGS: Record<Notice["kind"], string> = { waiting: "bell", error: "warning", turn_done: "white_check_mark", watch: "eyes" };

/** Discord refuses content over 2000 characters; a notice never needs more. */
const MAX_TEXT = 1900;

const clip = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

export function webhookRequest(notice: Notice): HttpRequest {
  const text = clip(`[termhive] ${notice.message}${notice.link ? `\n${notice.link}` : ""}`);
  return {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      text,
      content: text,
      termhive: { event_id: notice.id, kind: notice.kind, agent: notice.agent, team: notice.team, title: notice.title, message: notice.message, at: new Date(notice.at).toISOString(),
        ...(notice.question ? { question: notice.question } : {}), ...(notice.link ? { link: notice.link } : {}) },
    }),
  };
}

/** Header values must be Latin-1 and one line: anything else is replaced. */
const headerSafe = (s: string): string => s.replace(/[^\x20-\x7e]/g, "?").slice(0, 250);

export function ntfyRequest(notice: Notice): HttpRequest {
  return {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      Title: headerSafe(`termhive: ${notice.title}`),
      Tags: TAGS[notice.kind],
      Priority: notice.kind === "waiting" || notice.kind === "error" ? "high" : "default",
      // ntfy opens this when the notification is tapped.
      ...(notice.link ? { Click: headerSafe(notice.link) } : {}),
    },
    body: clip(notice.message),
  };
}
