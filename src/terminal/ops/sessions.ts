// terminal_list, terminal_close, terminal_resize, and the session limit every open checks.
import { ToolError } from "../../util/tool-error.js";
import { ownProgramInForeground } from "../live/registry.js";
import { throwIfEnding } from "../typing/command-run.js";
import type { TerminalSession } from "../session/session.js";
import { sessionSummary, type SessionSummary } from "../views/summary.js";
import type { CloseInput, ResizeInput } from "./inputs.js";
import type { Terminal } from "./terminal.js";

export function summaryOf(terminal: Terminal, s: TerminalSession): SessionSummary {
  return sessionSummary(s, terminal.backend.kind);
}

/**
 * TERMHIVE_MAX_SESSIONS, checked before every open (terminal_open, a throwaway run, agent
 * spawns, layouts, splits): refuses `count` new sessions when the home cannot take them all,
 * naming the idle ones (longest idle first) so the caller can close some. Counted from tmux
 * (refresh), so sessions of every termhive process count; two processes opening at the same
 * instant can each pass the check, which a limit meant against runaway loops can afford.
 */
export async function ensureRoomFor(terminal: Terminal, count: number): Promise<void> {
  const { registry, config } = terminal;
  await registry.ensureStarted();
  await registry.refresh();
  const sessions = registry.all();
  if (sessions.length + count <= config.maxSessions) return;
  // Idle: exited, or nothing running and the shell itself in the foreground (the pane's
  // foreground process, fresh from the refresh, also tells a process that adopted the session
  // mid-command that something runs).
  const idle = sessions
    .filter((s) => !s.alive || (!s.running && ownProgramInForeground(s.pane, s.meta)))
    .map((s) => summaryOf(terminal, s))
    .sort((a, b) => b.idle_s - a.idle_s);
  const named = idle.slice(0, 10).map((s) => `${s.name} (${s.alive ? `idle ${Math.round(s.idle_s)} s` : "exited"})`);
  const more = idle.length > named.length ? ` and ${idle.length - named.length} more` : "";
  const asked = count === 1 ? "" : `, ${count} were asked for`;
  throw new ToolError(
    `${sessions.length} sessions are open${asked}, the limit is ${config.maxSessions} (TERMHIVE_MAX_SESSIONS); nothing was opened. ` +
      (named.length ? `Idle sessions you could close with terminal_close: ${named.join(", ")}${more}.` : "None is idle: close one with terminal_close (force: true kills what it runs)."),
    "unavailable",
  );
}

export async function terminalList(terminal: Terminal): Promise<{ sessions: SessionSummary[] }> {
  await terminal.registry.ensureStarted();
  await terminal.registry.refresh();
  // Sessions of a host that did not answer within the list's budget are left out until it does.
  const leftOut = terminal.backend.hosts?.hostsLeftOut() ?? new Set<string>();
  const sessions = terminal.registry.all().filter((s) => s.meta.host === undefined || !leftOut.has(s.meta.host)).map((s) => summaryOf(terminal, s));
  return { sessions };
}

export async function terminalClose(terminal: Terminal, input: CloseInput): Promise<{ closed: boolean; session: string; name: string; exit_code?: number | null }> {
  const session = await terminal.session(input.session);
  if (session.alive && session.running && !input.force) {
    throw new ToolError(`session ${session.name} is running \`${session.running.command}\`; pass force: true to kill it, or interrupt it first with terminal_send keys ["C-c"]`, "busy");
  }
  const exitCode = session.alive ? undefined : session.exitStatus;
  await terminal.registry.close(session);
  return { closed: true, session: session.id, name: session.name, ...(exitCode !== undefined ? { exit_code: exitCode } : {}) };
}

export async function terminalResize(terminal: Terminal, input: ResizeInput): Promise<{ session: string; rows: number; cols: number }> {
  const session = await terminal.session(input.session);
  await throwIfEnding(session);
  await session.resize(input.rows, input.cols);
  return { session: session.id, rows: input.rows, cols: input.cols };
}
