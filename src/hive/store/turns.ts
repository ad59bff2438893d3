// The turn a typed message starts. After hive_message types a text, the recipient is busy with
// it even before its screen says so (the spinner needs a moment to appear, and screen detection
// a moment more): hive_wait {for: "idle"} must not take the idle status from before the Enter as
// the answer. A turn row says "a message was typed at `since`"; the first busy status after it
// sets `busy_at`; the idle status after that ends the turn. A program that answers instantly
// never looks busy: after TURN_GRACE_MS without a busy status the turn no longer holds idle back.
//
// Kept in the hive DB, not in process memory: a hive_wait in another termhive process (or after
// a restart) sees the same turns. Status writes (agents.setStatus) advance them in the same
// transaction, whichever process writes.
import type { HiveStore } from "./store.js";

/** How long a typed message holds "idle" back when the agent never shows it is busy. */
export const TURN_GRACE_MS = 1500;
/** Typing takes a second or two; a row still "typing" after this was left by a process that died. */
const TYPING_STALE_MS = 20_000;

export interface Turn {
  agent: string;
  since: number;
  busyAt: number | null;
  typing: boolean;
}

/** Statuses that show the agent took the message and is on it. */
const BUSY = new Set(["working", "waiting_for_input", "error"]);

/** Called inside agents.setStatus's write transaction: a status change advances the agent's turn. */
export function advanceTurn(store: HiveStore, agent: string, status: string, now: number): void {
  // While typing, the echo of the paste looks like work and its pause like idle: neither is the turn.
  if (BUSY.has(status)) store.db.prepare("UPDATE turns SET busy_at = ? WHERE agent = ? AND busy_at IS NULL AND typing = 0").run(now, agent);
  else if (status === "idle") store.db.prepare("DELETE FROM turns WHERE agent = ? AND busy_at IS NOT NULL AND typing = 0").run(agent);
  else if (status === "exited") store.db.prepare("DELETE FROM turns WHERE agent = ?").run(agent);
}

/**
 * Whether a hook's idle is about an older turn than the one running: the hook fired (its
 * program was started by the agent) before termhive typed the message that started this
 * turn. A hook process can take a second or more to start on a loaded machine, and Codex's
 * notify for the last turn then lands inside the next one.
 */
export function hookIsStale(turn: Turn | undefined, firedAt: number): boolean {
  return turn !== undefined && turn.since > firedAt;
}

export class Turns {
  constructor(private readonly store: HiveStore) {}

  /**
   * A message is about to be typed to these agents (call inside the write transaction that
   * decided to type): from now on the agents count as busy, so a concurrent cascade queues.
   */
  begin(agents: readonly string[], now = Date.now()): void {
    const stmt = this.store.db.prepare("INSERT INTO turns (agent, since, busy_at, typing) VALUES (?, ?, NULL, 1) ON CONFLICT(agent) DO UPDATE SET since = excluded.since, busy_at = NULL, typing = 1");
    for (const a of agents) stmt.run(a, now);
  }

  /**
   * The text was taken (Enter pressed and seen): the turn starts now. An agent already shown
   * busy counts as seen busy; otherwise the next busy status (or the grace) does.
   */
  submitted(agents: readonly string[], busy: (agent: string) => boolean, now = Date.now()): void {
    this.store.write(() => {
      const stmt = this.store.db.prepare("UPDATE turns SET since = ?, busy_at = ?, typing = 0 WHERE agent = ?");
      for (const a of agents) stmt.run(now, busy(a) ? now : null, a);
    });
  }

  /** The typing failed: nothing was started. */
  cancel(agents: readonly string[]): void {
    this.store.write(() => {
      const stmt = this.store.db.prepare("DELETE FROM turns WHERE agent = ?");
      for (const a of agents) stmt.run(a);
    });
  }

  get(agent: string): Turn | undefined {
    const r = this.store.db.prepare("SELECT agent, since, busy_at, typing FROM turns WHERE agent = ?").get(agent) as
      | { agent: string; since: number; busy_at: number | null; typing: number }
      | undefined;
    return r && { agent: r.agent, since: r.since, busyAt: r.busy_at, typing: r.typing === 1 };
  }

  /** True while a message is being typed, or its work is not over: seen busy and not back to idle, or still within the grace. */
  holdsIdle(agent: string, now = Date.now()): boolean {
    const t = this.get(agent);
    if (!t) return false;
    if (t.typing) return now - t.since < TYPING_STALE_MS;
    return t.busyAt !== null || now - t.since < TURN_GRACE_MS;
  }
}
