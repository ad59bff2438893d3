// What the terminal operations take (and the shapes they give back that several doors name).
// Every door's input is checked into these shapes by the verbs' zod schemas
// (src/verbs/terminal-*.ts, which the compiler holds to them); defined beside the operations,
// so neither they nor the service depend on a door.
import type { ReadMode } from "../views/read-view.js";
import type { KeysTakenBy } from "../waits/pager.js";
import type { OpenOptions } from "../live/registry.js";

/** What terminal_open takes: the registry's options, less its in-process ones (layout splits). */
export type OpenInput = Omit<OpenOptions, "splitFrom">;

export interface RunInput {
  /** Without it: a throwaway shell, closed once the command finishes. */
  session?: string;
  command: string;
  cwd?: string;
  timeout_s: number;
  until?: string;
  max_tokens?: number;
  raw?: boolean;
  reduce?: boolean;
  confirm?: boolean;
}

export interface SendInput {
  session: string;
  text?: string;
  enter: boolean;
  keys?: string[];
  secret?: string;
  confirm?: boolean;
}

export interface ReadInput {
  session: string;
  mode: ReadMode;
  from_line?: number;
  to_line?: number;
  raw?: boolean;
  filter?: string;
  context?: number;
  max_tokens?: number;
  reduce?: boolean;
}

export interface WaitInput {
  session: string;
  pattern?: string;
  for?: "pattern" | "completion" | "idle" | "exit";
  timeout_s: number;
  idle_ms?: number;
  max_tokens?: number;
}

export interface CloseInput {
  session: string;
  force?: boolean;
}

export interface ResizeInput {
  session: string;
  rows: number;
  cols: number;
}

/** Where a run without session ran (see throwaway.ts). */
export interface ThrowawayFacts {
  session?: string;
  session_name?: string;
  /** true: the throwaway session was closed after the command; false: kept (still running). */
  session_closed?: boolean;
}

/** Who is calling: read cursors ("new", "diff") are per client; progress goes back to it. */
export interface CallContext {
  clientId: string;
  /** The pane the caller runs in, as it names itself (util/caller-pane.ts); for the audit log. */
  pane?: string;
  onProgress?: (elapsedMs: number, message: string) => void;
  /** Aborted when the client gives the call up (a cancel, a 2026 request's stream closed): waits stop, what was typed runs on. */
  signal?: AbortSignal;
}

export type { SessionSummary } from "../views/summary.js";

export interface SendResult {
  sent_bytes: number;
  keys?: number;
  /** The keys pressed, as given. */
  key_names?: string[];
  replaced?: number;
  /** What was on screen when the input arrived, when it reads keys for itself. */
  taken_by?: KeysTakenBy;
  note?: string;
}
