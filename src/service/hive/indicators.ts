// Agent state at a glance for a person attached with tmux:
//  - each hive pane's border takes its status colour (pane options pane-border-style and
//    pane-active-border-style, plus @termhive_status for formats and other processes);
//  - the window's summary ("3 working · 1 waiting") is the window option @termhive_summary,
//    shown by the session's status-right (each window shows its own: the format is evaluated
//    for the current window);
//  - an agent that starts waiting for input rings: BEL and an OSC 9 notification are written
//    to the tty of every client attached to the pane's session (tmux keeps OSC 9 from a pane
//    to itself, and a person's terminal turns it into a desktop notification).
// Everything is tmux state, so the summary is counted from the panes' @termhive_status as tmux
// holds them, whichever termhive process set them. Backends without tmux commands: no-op.
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import type { AgentRecord, AgentStatus } from "../../hive/index.js";
import type { Backend } from "../../backends/backend.js";
import { tmuxQuote } from "../../backends/tmux/quote.js";

/** Border colour per status (tmux colour names). */
export const STATUS_COLOURS: Readonly<Record<AgentStatus, string>> = {
  starting: "blue",
  working: "yellow",
  idle: "green",
  waiting_for_input: "magenta",
  error: "red",
  exited: "colour244",
};

/** Most urgent first: a pane hosting several agents shows the one a person must see. */
const URGENCY: readonly AgentStatus[] = ["waiting_for_input", "error", "working", "starting", "idle", "exited"];
const LABEL: Readonly<Record<AgentStatus, string>> = {
  waiting_for_input: "waiting", error: "error", working: "working", starting: "starting", idle: "idle", exited: "exited",
};

export function paneStatus(agents: readonly Pick<AgentRecord, "status">[]): AgentStatus | null {
  for (const s of URGENCY) if (agents.some((a) => a.status === s)) return s;
  return null;
}

/** "3 working · 1 waiting" from the statuses of a window's panes (unknown values are skipped). */
export function summarize(statuses: readonly string[]): string {
  const counts = new Map<AgentStatus, number>();
  for (const s of statuses) if ((URGENCY as readonly string[]).includes(s)) counts.set(s as AgentStatus, (counts.get(s as AgentStatus) ?? 0) + 1);
  return URGENCY.filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${LABEL[s]}`).join(" · ");
}

/** The bytes that ring an attached person's terminal: BEL, then OSC 9 (desktop notification). */
export function alertBytes(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim().slice(0, 200);
  return `\x07\x1b]9;${clean}\x07`;
}

type TmuxRunner = (command: string) => Promise<string[]>;

/** The backend's way to run a tmux command, when it is tmux. */
function tmuxOf(backend: Backend): TmuxRunner | null {
  return backend.tmuxCommand ? backend.tmuxCommand.bind(backend) : null;
}

export class HiveIndicators {
  /** Last status shown per pane by this process: an alert rings on the change to waiting only. */
  private readonly shown = new Map<string, AgentStatus>();
  private readonly statusLineSet = new Set<string>();

  constructor(private readonly backend: Backend) {}

  /** Colours the pane, recounts its window's summary, and rings attached clients when it starts waiting. */
  async show(paneId: string, agents: readonly AgentRecord[]): Promise<void> {
    const tmux = tmuxOf(this.backend);
    const status = paneStatus(agents);
    if (!tmux || status === null) return;
    const previous = this.shown.get(paneId);
    // A detail change (most changes) leaves colour and summary as they are: no tmux traffic.
    if (previous === status) return;
    this.shown.set(paneId, status);
    const pane = tmuxQuote(paneId);
    const colour = STATUS_COLOURS[status];
    try {
      // Pipelined on the control client; the summary reads them back after.
      await Promise.all([
        tmux(`set -p -t ${pane} @termhive_status ${status}`),
        tmux(`set -p -t ${pane} pane-border-style fg=${colour}`),
        tmux(`set -p -t ${pane} pane-active-border-style fg=${colour},bold`),
      ]);
      await this.summary(tmux, paneId);
    } catch (error) {
      this.shown.delete(paneId); // not shown: the next change tries again
      throw error;
    }
    if (status === "waiting_for_input" && previous !== "waiting_for_input") {
      const who = agents.filter((a) => a.status === "waiting_for_input");
      const text = `termhive: ${who.map((a) => a.name).join(", ")} needs input${who[0]?.statusDetail ? `: ${who[0].statusDetail}` : ""}`;
      await this.ring(tmux, paneId, text);
    }
  }

  /** Forgets a pane (no longer followed; tmux reuses pane ids after its server restarts). */
  forget(paneId: string): void {
    this.shown.delete(paneId);
  }

  /** The pane is no agent's any more: its border and the window's summary stop counting it. */
  async clear(paneId: string): Promise<void> {
    this.shown.delete(paneId);
    const tmux = tmuxOf(this.backend);
    if (!tmux) return;
    const pane = tmuxQuote(paneId);
    await Promise.all(["@termhive_status", "pane-border-style", "pane-active-border-style"].map((o) => tmux(`set -p -u -t ${pane} ${o}`)));
    await this.summary(tmux, paneId);
  }

  private async summary(tmux: TmuxRunner, paneId: string): Promise<void> {
    const pane = tmuxQuote(paneId);
    const statuses = await tmux(`list-panes -t ${pane} -F '#{@termhive_status}'`);
    await tmux(`set -w -t ${pane} @termhive_summary ${tmuxQuote(summarize(statuses))}`);
    const [session] = await tmux(`display-message -p -t ${pane} '#{session_id}'`);
    if (session && !this.statusLineSet.has(session)) {
      // Stored literally (no -F): the status line expands it for whichever window is current.
      await tmux(`set -t ${tmuxQuote(session)} status-right ${tmuxQuote("#{?@termhive_summary,#{@termhive_summary} │ ,}%H:%M")}`);
      await tmux(`set -t ${tmuxQuote(session)} status-right-length 80`);
      this.statusLineSet.add(session);
    }
  }

  private async ring(tmux: TmuxRunner, paneId: string, text: string): Promise<void> {
    const clients = await tmux(`list-clients -t ${tmuxQuote(paneId)} -F '#{client_control_mode} #{client_tty}'`);
    const bytes = alertBytes(text);
    await Promise.all(
      clients
        .map((line) => line.split(" "))
        .filter(([control, tty]) => control === "0" && tty?.startsWith("/dev/"))
        .map(async ([, tty]) => {
          // Non-blocking and without taking it as a controlling terminal: a stuck tty must not
          // hold the server, and the server must never adopt a person's terminal.
          const handle = await open(tty!, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK).catch(() => null);
          if (!handle) return;
          await handle.write(bytes).catch(() => {});
          await handle.close().catch(() => {});
        }),
    );
  }
}
