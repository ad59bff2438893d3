import { visibleText as v } from "../terminal/model/literal-text.js";
import type { SessionSummary } from "../terminal/views/summary.js";
import { READS, defineVerb } from "./verb.js";

/** An ended session says what ran and how it ended, not the launcher tmux names after it. */
function ended(s: SessionSummary): string {
  const how = s.exit_signal != null ? `killed by signal ${s.exit_signal}` : s.exit_code != null ? `exited with status ${s.exit_code}` : "exited (status unknown)";
  return `ended · ${v(s.foreground)} ${how}`;
}

export default defineVerb({
  name: "terminal_list",
  title: "List sessions",
  description: "Every session: name, id, host, alive, foreground program, cwd, running command, last exit code, idle seconds, full-screen app, sandbox.",
  input: {},
  family: "terminal",
  annotations: READS,
  run: (s) => s.terminal.list(),
  text: (r) =>
    r.sessions.length
      ? r.sessions
          .map((s) => `${s.name} (${s.session}, pane ${s.pane})${s.host ? ` on ${s.host}` : ""} ${s.alive ? `alive · ${v(s.foreground)}` : ended(s)}${s.starting ? " · starting" : ""}${s.running ? ` · running: ${v(s.running)}` : ""}${s.last_exit_code !== null ? ` · last exit ${s.last_exit_code}` : ""} · idle ${s.idle_s}s${s.tui ? " · full-screen" : ""}${s.sandbox ? ` · sandbox ${s.sandbox}` : ""}${s.cwd ? ` · ${v(s.cwd)}` : ""}`)
          .join("\n")
      : "no sessions; open one with terminal_open",
  grpc: "List",
  nullable: { "sessions[].cwd": true, "sessions[].running": true, "sessions[].last_exit_code": true, "sessions[].exit_code": (s) => !s.alive, "sessions[].exit_signal": (s) => !s.alive },
  cli: {
    command: "ls",
    description: "list sessions",
    input: () => ({}),
    // Tab-separated: one session a line for cut and awk.
    text: (r) =>
      r.sessions.length
        ? r.sessions.map((s) => `${s.name}\t${s.session}\t${s.alive ? "alive" : s.exit_signal != null ? `killed ${s.exit_signal}` : `exited ${s.exit_code ?? "?"}`}\t${v(s.running ? `running: ${s.running}` : s.foreground)}\t${v(s.cwd ?? "")}`).join("\n")
        : "no sessions",
  },
});
