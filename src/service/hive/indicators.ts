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

/**
 * Changes are shown in batches this long: a cascade flips 32 agents at once, and their
 * colours and one summary per window should not queue ~160 tmux commands between the
 * keystrokes the cascade is typing.
 */
const FLUSH_MS = 100;

interface PaneRef {
  paneId: string;
  windowId: string;
}

export class HiveIndicators {
  /** Last status shown per pane by this process: an alert rings on the change to waiting only. */
  private readonly shown = new Map<string, AgentStatus>();
  /** Panes to update at the next flush: the status to show (null: clear) and the ring text. */
  private readonly pending = new Map<string, { windowId: string; status: AgentStatus | null; ring: string | null }>();
  /** Windows whose session's status line shows the summary already. */
  private readonly statusLineSet = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly backend: Backend) {}

  /** Colours the pane, recounts its window's summary, and rings attached clients when it starts waiting. */
  show(pane: PaneRef, agents: readonly AgentRecord[]): void {
    const status = paneStatus(agents);
    if (!tmuxOf(this.backend) || status === null) return;
    // A detail change (most changes) leaves colour and summary as they are: no tmux traffic.
    if (this.shown.get(pane.paneId) === status) return;
    this.shown.set(pane.paneId, status);
    let ring: string | null = null;
    if (status === "waiting_for_input") {
      const who = agents.filter((a) => a.status === "waiting_for_input");
      ring = `termhive: ${who.map((a) => a.name).join(", ")} needs input${who[0]?.statusDetail ? `: ${who[0].statusDetail}` : ""}`;
    }
    this.pending.set(pane.paneId, { windowId: pane.windowId, status, ring });
    this.schedule();
  }

  /** Forgets a pane (no longer followed; tmux reuses pane ids after its server restarts). */
  forget(paneId: string): void {
    this.shown.delete(paneId);
  }

  /** The pane is no agent's any more: its border and the window's summary stop counting it. */
  clear(pane: PaneRef): void {
    this.shown.delete(pane.paneId);
    if (!tmuxOf(this.backend)) return;
    this.pending.set(pane.paneId, { windowId: pane.windowId, status: null, ring: null });
    this.schedule();
  }

  private schedule(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flushing.then(() => this.flush()).catch(() => {});
    }, FLUSH_MS);
    this.flushTimer.unref();
  }

  private async flush(): Promise<void> {
    const tmux = tmuxOf(this.backend);
    const batch = [...this.pending];
    this.pending.clear();
    if (!tmux) return;
    const windows = new Set<string>();
    await Promise.all(batch.map(async ([paneId, p]) => {
      const pane = tmuxQuote(paneId);
      const options: [string, string][] = p.status === null ? [["@termhive_status", ""], ["pane-border-style", ""], ["pane-active-border-style", ""]] : [
        ["@termhive_status", p.status],
        ["pane-border-style", `fg=${STATUS_COLOURS[p.status]}`],
        ["pane-active-border-style", `fg=${STATUS_COLOURS[p.status]},bold`],
      ];
      try {
        // Pipelined on the control client; the summary reads them back after.
        await Promise.all(options.map(([name, value]) => tmux(value === "" ? `set -p -u -t ${pane} ${name}` : `set -p -t ${pane} ${name} ${value}`)));
        windows.add(p.windowId);
      } catch {
        if (this.shown.get(paneId) === p.status) this.shown.delete(paneId); // not shown: the next change tries again
      }
    }));
    await Promise.all([...windows].map((w) => this.summary(tmux, w).catch(() => {})));
    await Promise.all(batch.map(([paneId, p]) => (p.ring ? this.ring(tmux, paneId, p.ring).catch(() => {}) : undefined)));
  }

  private async summary(tmux: TmuxRunner, windowId: string): Promise<void> {
    const window = tmuxQuote(windowId);
    const statuses = await tmux(`list-panes -t ${window} -F '#{@termhive_status}'`);
    await tmux(`set -w -t ${window} @termhive_summary ${tmuxQuote(summarize(statuses))}`);
    if (this.statusLineSet.has(windowId)) return;
    const [session] = await tmux(`display-message -p -t ${window} '#{session_id}'`);
    if (!session) return;
    // Stored literally (no -F): the status line expands it for whichever window is current.
    await tmux(`set -t ${tmuxQuote(session)} status-right ${tmuxQuote("#{?@termhive_summary,#{@termhive_summary} │ ,}%H:%M")}`);
    await tmux(`set -t ${tmuxQuote(session)} status-right-length 80`);
    this.statusLineSet.add(windowId);
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
