// Where the last input sent to a session went in, so that a wait for a pattern looks only at
// what the program printed since (an earlier job's line that matches is old output, and a fresh
// process's adopted scrollback is older still). The input's time is kept with the pane
// (backend shared state) too: a process that did not send it finds, among the chunks of output
// it took in live, the first that came after it. Output adopted from the pane's history has no
// time and is never looked at.
import type { Backend } from "../../backends/backend.js";
import { traced } from "../../util/traced.js";

const KEY = "input-at";
/** Arrival times of output chunks kept; a flood's older chunks go first. */
const KEPT_CHUNKS = 4096;

/** Where a wait looks from, and why there. */
export interface LookFrom {
  from: number;
  /**
   * `input`: output since the last input sent to the session; `start`: the last input was sent
   * before this process followed the session (what followed it is in the adopted history, not
   * placed in time here); `open`: nothing was ever sent to it, all of its output is the program's own.
   */
  since: "input" | "start" | "open";
}

export class InputMarks {
  private readonly times: number[] = [];
  private readonly offsets: number[] = [];
  private last: { at: number; ms: number } | null = null;

  /** `pane`: the session's backend and pane, asked when input is sent or a wait begins. */
  constructor(private readonly pane: () => { backend: Backend; paneId: string }) {}

  /** A chunk of live output starting at transcript offset `offset` arrived. */
  output(offset: number, now = Date.now()): void {
    this.times.push(now);
    this.offsets.push(offset);
    if (this.times.length > KEPT_CHUNKS) {
      this.times.shift();
      this.offsets.shift();
    }
  }

  /** This process sends input now; the output from `offset` on follows it. */
  sent(offset: number, now = Date.now()): void {
    this.last = { at: offset, ms: now };
    const { backend, paneId } = this.pane();
    void backend.shared.writeShared(paneId, KEY, String(now)).catch(traced("recording a pane's last input"));
  }

  /** Where output since the last input begins, wherever it was sent from (`end`: the transcript's end, where the wait begins). */
  async lookFrom(end: () => number): Promise<LookFrom> {
    const { backend, paneId } = this.pane();
    const shared = Number((await backend.shared.readShared(paneId, KEY).catch(() => "")) || NaN);
    const last = this.last;
    if (last && !(shared > last.ms)) return { from: last.at, since: "input" };
    if (!Number.isFinite(shared)) return { from: 0, since: "open" };
    // Sent from elsewhere: the first chunk that came after it. Sent before the oldest chunk kept
    // (before this process followed the session, or a flood ago): what followed is not known here.
    if (this.times.length === 0 || shared < this.times[0]!) return { from: end(), since: "start" };
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! < shared) lo = mid + 1;
      else hi = mid;
    }
    return { from: lo < this.offsets.length ? this.offsets[lo]! : end(), since: "input" };
  }
}
