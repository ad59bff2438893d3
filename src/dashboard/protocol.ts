// What travels on the dashboard's WebSocket (/live), as JSON text frames. Types (and the
// handshake's names): the page (web/) imports them too. The server checks what it receives
// in client-messages.ts.

/** The subprotocol the server answers /live with. */
export const LIVE_PROTOCOL = "termhive-live";
/** The page offers its page token as a second subprotocol: this prefix, then the token. */
export const PAGE_TOKEN_PROTOCOL = "termhive-page.";
/** The meta tag of index.html the server writes the page token into. */
export const PAGE_TOKEN_META = "termhive-page-token";

export interface SessionView {
  session: string;
  name: string;
  alive: boolean;
  /** The command running (integrated shells) or the pane's program; null at a prompt. */
  running: string | null;
  foreground: string;
  idle_s: number;
  tui: boolean;
  pane: string;
  /** Panes of one layout share it (grid mode). */
  window: string;
  rows: number;
  cols: number;
}

export interface AgentView {
  name: string;
  session: string;
  session_name: string | null;
  team: string | null;
  profile: string | null;
  status: string;
  detail: string | null;
  source: string | null;
  updated_at: number;
  alive: boolean;
  /** The ssh host its pane runs on; absent: the machine termhive runs on. */
  host?: string;
  /** The question a waiting agent's screen shows (hive_answer's digest), or null. */
  question: QuestionView | null;
}

export interface QuestionView {
  digest: string;
  text: string;
  /** "1. Yes", or an unnumbered menu's labels. */
  choices: string[];
}

export interface TeamView {
  name: string;
  parent: string | null;
  description: string | null;
  members: string[];
  children: string[];
}

export interface QueuedView {
  id: number;
  agents: string[];
  session: string;
  level: string;
  source: string;
  text: string;
  queued_at: string;
  expires_at: string;
  typing: boolean;
}

export interface EventView {
  id: number;
  at: number;
  kind: string;
  agent: string | null;
  team: string | null;
  /** The name of the session it happened in (a watcher's hit), when it has one. */
  session: string | null;
  data: Record<string, unknown>;
}

export type ServerMessage =
  | { t: "hive"; at: number; sessions: SessionView[]; agents: AgentView[]; teams: TeamView[]; queue: QueuedView[]; error?: string }
  | { t: "events"; events: EventView[] }
  /** A fresh picture of a session's terminal: the page resets its xterm and writes data. */
  | { t: "screen"; session: string; rows: number; cols: number; data: string }
  /** Output since the last frame (coalesced: one frame may hold many of tmux's chunks). */
  | { t: "out"; session: string; data: string }
  | { t: "closed"; session: string; reason: string }
  | { t: "reply"; id: number; ok: boolean; result?: unknown; error?: string }
  | { t: "error"; message: string }
  /** A fresh page token for the page's next reconnect (page tokens expire; see page-token.ts). */
  | { t: "page-token"; token: string };

export type { ClientMessage, MessageTarget } from "./client-messages.js";
