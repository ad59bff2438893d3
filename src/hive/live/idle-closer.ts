// TERMHIVE_IDLE_CLOSE_S: closes shells left sitting at their prompt, untouched and with no agent
// bound, so forgotten sessions do not pile up against TERMHIVE_MAX_SESSIONS.
//
// Why a timer (DESIGN: events, not polling; a timer only with a reason): "nothing happened for
// N seconds" is the absence of events — tmux sends no notification for it — so only a clock
// can observe it. It is one timer per process, not one per session, armed for the earliest
// moment a session could become due (its last output + the limit), so it fires about once per
// limit plus once per session that actually goes idle; a firing is one pass over this
// process's sessions. Typed input that echoes counts as output; a running command, a REPL or
// full-screen program, an exited pane and an agent's pane are never closed.
//
// Several termhive processes may run this over the same sessions: closing is idempotent. tmux
// runs kill-pane once; the process whose kill fails (the pane was already gone) records nothing,
// so one close makes one event and one audit line.
import type { TerminalSession } from "../../terminal/session/session.js";
import type { Crew } from "./crew.js";
import type { Terminal } from "../../terminal/ops/terminal.js";

export class IdleCloser {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly limitMs: number;

  constructor(
    private readonly service: Terminal,
    private readonly crew: Crew,
  ) {
    this.limitMs = service.config.idleCloseS * 1000;
    this.arm(Date.now() + this.limitMs);
  }

  dispose(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(at: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sweep(), Math.max(50, at - Date.now()));
    // The closer never keeps a process alive on its own (a CLI call exits when done).
    this.timer.unref();
  }

  /** At its shell prompt with nothing running: the only state a close cannot lose work in. */
  private atRest(s: TerminalSession): boolean {
    return s.alive && s.integrated && s.phase === "prompt" && !s.running;
  }

  private agentBound(sessionId: string): boolean {
    try {
      return this.crew.hive.agents.bySession(sessionId).some((a) => a.status !== "exited");
    } catch {
      return true; // the hive cannot be read: keep the session rather than guess
    }
  }

  private async sweep(): Promise<void> {
    this.timer = null;
    const now = Date.now();
    let next = now + this.limitMs;
    try {
      for (const session of this.service.registry.all()) {
        if (!this.atRest(session)) continue;
        const due = session.lastOutputAt + this.limitMs;
        if (due > now) next = Math.min(next, due);
        else if (!this.agentBound(session.id)) await this.close(session, now - session.lastOutputAt);
      }
    } finally {
      this.arm(next);
    }
  }

  private async close(session: TerminalSession, idleMs: number): Promise<void> {
    const idle_s = Math.round(idleMs / 1000);
    try {
      await this.service.registry.close(session);
    } catch {
      return; // already closed by another process (or tmux is gone): nothing of ours to record
    }
    const reason = `idle at its prompt for ${idle_s} s (TERMHIVE_IDLE_CLOSE_S=${this.service.config.idleCloseS})`;
    this.service.audit.write({ event: "idle-close", session: session.id, name: session.name, idle_s, reason });
    try {
      this.crew.hive.events.append({
        kind: "lifecycle",
        sessionId: session.id,
        data: { event: "session_closed", session: session.id, name: session.name, reason: "idle", idle_s, detail: reason },
      });
    } catch {
      // the audit line above still says what happened
    }
  }
}
