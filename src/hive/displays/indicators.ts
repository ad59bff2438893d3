// Agent state at a glance for a person watching the panes: each hive pane is marked with its
// status (tmux: the border takes its colour), each window shows a summary ("3 working · 1
// waiting", counted from the marks as the backend holds them, whichever termhive process set
// them), and an agent that starts waiting for input rings the attached terminals (BEL, then an
// OSC 9 desktop notification). How each is shown is the backend's (Backend.marks);
// backends without them (pty): no-op.
import type { AgentRecord, AgentStatus } from "../index.js";
import type { Backend } from "../../backends/backend.js";
import { traced } from "../../util/traced.js";

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

/** Whether the backend shows marks at all. */
function marksShown(backend: Backend): boolean {
  return backend.marks !== undefined;
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
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly backend: Backend) {}

  /** Colours the pane, recounts its window's summary, and rings attached clients when it starts waiting. */
  show(pane: PaneRef, agents: readonly AgentRecord[]): void {
    const status = paneStatus(agents);
    if (!marksShown(this.backend) || status === null) return;
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
    if (!marksShown(this.backend)) return;
    this.pending.set(pane.paneId, { windowId: pane.windowId, status: null, ring: null });
    this.schedule();
  }

  private schedule(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flushing.then(() => this.flush()).catch(traced("showing agent statuses in the pane borders"));
    }, FLUSH_MS);
    this.flushTimer.unref();
  }

  private async flush(): Promise<void> {
    const marks = this.backend.marks;
    const batch = [...this.pending];
    this.pending.clear();
    if (!marks) return;
    const windows = new Set<string>();
    await Promise.all(batch.map(async ([paneId, p]) => {
      try {
        await marks.markPane(paneId, p.status === null ? null : { name: p.status, colour: STATUS_COLOURS[p.status] });
        windows.add(p.windowId);
      } catch {
        if (this.shown.get(paneId) === p.status) this.shown.delete(paneId); // not shown: the next change tries again
      }
    }));
    await Promise.all([...windows].map(async (windowId) => {
      const paneMarks = await marks.windowMarks(windowId).catch(() => null);
      if (paneMarks) await marks.showWindowSummary(windowId, summarize(paneMarks)).catch(traced("the window's status summary"));
    }));
    await Promise.all(batch.map(([paneId, p]) => (p.ring ? marks.alertAttached(paneId, alertBytes(p.ring)).catch(traced("ringing the attached terminals")) : undefined)));
  }
}
