// One line of terminal_list: what a session is and does now, as every door reports it.
import { basename } from "node:path";
import { describePolicy } from "../../sandbox/policy.js";
import { matchNestedPrompt } from "../model/prompts.js";
import type { TerminalSession } from "../session/session.js";

export interface SessionSummary {
  session: string;
  name: string;
  backend: string;
  /** ssh destination of a session on another host. */
  host?: string;
  alive: boolean;
  exit_code?: number | null;
  /** The signal that killed its program (a session whose program was killed: exit_code is null). */
  exit_signal?: number | null;
  /** The program in the pane's foreground; once it exited, the last one seen running. */
  foreground: string;
  cwd: string | null;
  running: string | null;
  last_exit_code: number | null;
  idle_s: number;
  tui: boolean;
  pane: string;
  /** A shell still reading its rc files: it has run nothing yet. */
  starting?: true;
  /** The sandbox its program runs in, described (absent: the user's full rights). */
  sandbox?: string;
}

export function sessionSummary(s: TerminalSession, backend: string): SessionSummary {
  // A pane whose program exited runs nothing, whatever record was open when it did.
  const running = s.alive ? s.running : undefined;
  const snap = s.goneReason ? undefined : s.screen.snapshot();
  // Before its first prompt a shell runs nothing of the caller's: its own name is no command.
  const starting = s.alive && s.meta.shell !== "other" && s.phase === "starting";
  return {
    session: s.id,
    name: s.name,
    backend,
    ...(s.meta.host ? { host: s.meta.host } : {}),
    alive: s.alive,
    ...(s.alive ? {} : { exit_code: s.exitStatus, exit_signal: s.exitSignal }),
    // While it starts, tmux names the /bin/sh that launches it (backends/launch.ts).
    foreground: starting ? s.meta.shell : s.foreground,
    cwd: s.cwd ?? (s.pane.cwd || null),
    running: running ? running.command : s.integrated || !s.alive || starting ? null : (snap && matchNestedPrompt(s.screen.cursorLinePrefix()) ? null : programOf(s.meta.command)),
    last_exit_code: s.lastExitCode,
    idle_s: Math.round((Date.now() - s.lastOutputAt) / 100) / 10,
    tui: snap?.alternate ?? false,
    pane: s.paneId,
    ...(starting ? { starting: true as const } : {}),
    ...(s.meta.sandbox ? { sandbox: describePolicy(s.meta.sandbox) } : {}),
  };
}

/**
 * The program a command line runs, by name: its first word's base name ("claude" for
 * `/usr/bin/claude --settings /home/…/cc.claude.json`; the whole line's base name was the last
 * argument's file).
 */
export function programOf(command: string): string {
  const first = command.trim().split(/\s+/)[0] ?? "";
  return basename(first.replace(/^["']|["']$/g, ""));
}
