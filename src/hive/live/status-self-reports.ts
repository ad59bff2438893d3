// The status tracker's self-report job: an agent's own report, printed into its pane as
// OSC 1337;Custom=id=termhive:… (hive/rules/self-status.ts), becomes its status. Another program's
// OSC 1337, a malformed one or one naming an agent not in this pane is ignored: the stream
// never stops for it.
import { parseStatusOsc } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import type { StatusPort } from "./status-port.js";

export class SelfReports {
  constructor(private readonly port: StatusPort) {}

  /** An OSC 1337 Custom sequence the session's program printed. */
  reported(session: TerminalSession, id: string, payload: string): void {
    const parsed = parseStatusOsc(`1337;Custom=id=${id}:${payload}`);
    if (!parsed || !parsed.ok) return;
    const agents = this.port.agentsOf(session.id);
    const target = parsed.value.agent ?? agents[0]?.name;
    if (!target || !agents.some((a) => a.name === target)) return;
    this.port.record(() => this.port.hive.applySelfStatus(target, parsed.value), session);
  }
}
