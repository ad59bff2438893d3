// What the terminal operations take. Every door's input is checked into these shapes by the
// verbs' zod schemas (src/verbs/terminal-*.ts, which the compiler holds to them); defined here
// so the service depends on no door.
import type { ReadMode } from "../terminal/read.js";

export interface OpenInput {
  name?: string;
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
  rows: number;
  cols: number;
  /** An ssh destination: the session runs in that host's tmux. */
  host?: string;
}

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
