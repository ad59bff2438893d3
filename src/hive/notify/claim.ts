// Each notice is sent by exactly one termhive process: every process with notifications on
// reads the same event log, and the first to insert the event's row here sends it. The insert
// and the debounce check run in one write transaction, so two processes cannot both win.
import type { HiveStore } from "../store/store.js";
import type { Notice } from "./notice.js";

/** Claims are kept this long (processes read the log within a second; this only bounds the table). */
export const CLAIM_KEEP_MS = 24 * 3600_000;

export type ClaimResult = "claimed" | "taken" | "debounced";

export class NotificationClaims {
  constructor(private readonly store: HiveStore) {}

  /**
   * Claims the notice for `claimer`. "taken": another process has it; "debounced": a notice of
   * the same kind for the same agent was claimed within `debounceMs` (recorded, so it stays once).
   */
  claim(notice: Notice, claimer: string, debounceMs: number, now = Date.now()): ClaimResult {
    return this.store.write(() => {
      const db = this.store.db;
      if (db.prepare("SELECT 1 FROM notifications WHERE event_id = ?").get(notice.id) !== undefined) return "taken";
      const recent =
        debounceMs > 0 && notice.agent !== null &&
        db.prepare("SELECT 1 FROM notifications WHERE agent = ? AND kind = ? AND claimed_at > ? AND claimed_by != '' LIMIT 1").get(notice.agent, notice.kind, now - debounceMs) !== undefined;
      // A debounced notice is still recorded (with no claimer) so no other process sends it.
      db.prepare("INSERT INTO notifications (event_id, kind, agent, claimed_by, claimed_at) VALUES (?, ?, ?, ?, ?)").run(notice.id, notice.kind, notice.agent, recent ? "" : claimer, now);
      db.prepare("DELETE FROM notifications WHERE claimed_at < ?").run(now - CLAIM_KEEP_MS);
      return recent ? "debounced" : "claimed";
    });
  }
}
