// Messages waiting for a busy agent. hive_message {when: "idle"} does not type into an agent
// that is working or waiting on a question (real TUIs drop or mangle such input): the text is
// queued here and typed by a live termhive process when the agent is next idle. Rows are per
// session (the typing target), in id order, so the order per agent is kept. A row is claimed
// atomically before it is typed, so with several processes on one home it is typed once; a
// claim whose process has died (killed mid-typing) is retaken at once, and one older than
// CLAIM_STALE_MS whatever its process. Just before Enter the claim is marked `entered`: a
// process that retakes such a claim must not type the text again (the program may have taken
// it), only submit it if it still sits where input goes. Delivered, expired and cancelled
// rows are deleted: the `message` events are their record.
import type { HiveStore } from "./store.js";
import { processAlive } from "../../util/process.js";

/** Default life of a queued message. */
export const QUEUE_TTL_MS = 10 * 60_000;
/** Typing takes a second or two; a claim this old belongs to a process that died. */
export const CLAIM_STALE_MS = 20_000;
/** Added to a claim's claimer once Enter is about to be pressed for it (no column: the schema stays). */
const ENTERED = "+entered";

/** A claimer is `<pid>:<random>` (a process on this machine: processes share the home's SQLite file). */
function claimerAlive(claimedBy: string): boolean {
  const pid = Number.parseInt(claimedBy, 10);
  return !Number.isInteger(pid) || pid <= 0 || processAlive(pid);
}

export interface QueuedMessage {
  id: number;
  sessionId: string;
  agents: string[];
  text: string;
  level: string;
  source: string;
  submit: boolean;
  createdAt: number;
  expiresAt: number;
  claimedBy: string | null;
  /** Retaken from a process that died typing it; `entered`: it had pressed Enter for it. */
  orphan?: { entered: boolean };
}

interface Row {
  id: number;
  session_id: string;
  agents: string;
  text: string;
  level: string;
  source: string;
  submit: number;
  created_at: number;
  expires_at: number;
  claimed_by: string | null;
  claimed_at: number | null;
}

const toMessage = (r: Row): QueuedMessage => ({
  id: r.id,
  sessionId: r.session_id,
  agents: JSON.parse(r.agents) as string[],
  text: r.text,
  level: r.level,
  source: r.source,
  submit: r.submit === 1,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  claimedBy: r.claimed_by,
});

export class Outbox {
  constructor(private readonly store: HiveStore) {}

  /** Queues one text for a session (call inside a write transaction, or alone). */
  add(input: { sessionId: string; agents: string[]; text: string; level: string; source: string; submit: boolean; ttlMs?: number }, now = Date.now()): QueuedMessage {
    const r = this.store.db
      .prepare(
        "INSERT INTO outbox (session_id, agents, text, level, source, submit, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
      )
      .get(input.sessionId, JSON.stringify(input.agents), input.text, input.level, input.source, input.submit ? 1 : 0, now, now + (input.ttlMs ?? QUEUE_TTL_MS)) as Row;
    return toMessage(r);
  }

  hasFor(sessionId: string): boolean {
    return this.store.db.prepare("SELECT 1 FROM outbox WHERE session_id = ? LIMIT 1").get(sessionId) !== undefined;
  }

  /** Queued messages, oldest first; `agent` narrows to the ones reaching that agent. */
  list(agent?: string): QueuedMessage[] {
    const rows = (this.store.db.prepare("SELECT * FROM outbox ORDER BY id").all() as Row[]).map(toMessage);
    return agent === undefined ? rows : rows.filter((m) => m.agents.includes(agent));
  }

  /** Removes a queued message that is not being typed right now; undefined if there is none. */
  cancel(id: number): QueuedMessage | undefined {
    return this.store.write(() => {
      const r = this.store.db.prepare("SELECT * FROM outbox WHERE id = ?").get(id) as Row | undefined;
      if (!r) return undefined;
      if (r.claimed_by !== null && Date.now() - (r.claimed_at ?? 0) < CLAIM_STALE_MS && claimerAlive(r.claimed_by)) return { ...toMessage(r), claimedBy: r.claimed_by };
      this.store.db.prepare("DELETE FROM outbox WHERE id = ?").run(id);
      return { ...toMessage(r), claimedBy: null };
    });
  }

  /** Deletes and returns every message whose time ran out. */
  expire(now = Date.now()): QueuedMessage[] {
    return this.store.write(() =>
      (this.store.db.prepare("DELETE FROM outbox WHERE expires_at <= ? AND (claimed_by IS NULL OR claimed_at <= ?) RETURNING *").all(now, now - CLAIM_STALE_MS) as Row[]).map(toMessage),
    );
  }

  /**
   * Claims the oldest message for a session when `ready(head)` (checked inside the same write
   * transaction: the agent is idle and nothing else is being typed to it). One caller wins.
   * A claim of a process that died is retaken with the turn it had begun (typing rows of its
   * agents), so nothing waits CLAIM_STALE_MS for a process that is gone.
   */
  claim(sessionId: string, claimer: string, ready: (head: QueuedMessage) => boolean, now = Date.now()): QueuedMessage | undefined {
    return this.store.write(() => {
      const head = this.store.db.prepare("SELECT * FROM outbox WHERE session_id = ? ORDER BY id LIMIT 1").get(sessionId) as Row | undefined;
      if (!head) return undefined;
      const orphan = head.claimed_by !== null && (now - (head.claimed_at ?? 0) >= CLAIM_STALE_MS || !claimerAlive(head.claimed_by));
      if (head.claimed_by !== null && !orphan) return undefined; // being typed
      if (orphan) {
        const stmt = this.store.db.prepare("DELETE FROM turns WHERE agent = ? AND typing = 1");
        for (const agent of JSON.parse(head.agents) as string[]) stmt.run(agent);
      }
      const message: QueuedMessage = { ...toMessage(head), claimedBy: claimer, ...(orphan ? { orphan: { entered: head.claimed_by!.endsWith(ENTERED) } } : {}) };
      if (!ready(message)) return undefined;
      this.store.db.prepare("UPDATE outbox SET claimed_by = ?, claimed_at = ? WHERE id = ?").run(claimer, now, head.id);
      return message;
    });
  }

  /** Enter is about to be pressed for this claimed message (see ENTERED). */
  entering(id: number, claimer: string): void {
    this.store.write(() => this.store.db.prepare("UPDATE outbox SET claimed_by = ? WHERE id = ? AND claimed_by = ?").run(claimer + ENTERED, id, claimer));
  }

  /** The claimed message was typed and taken: it leaves the queue. */
  done(id: number): void {
    this.store.write(() => this.store.db.prepare("DELETE FROM outbox WHERE id = ?").run(id));
  }

  /** Typing did not take: back in the queue, at its place, for the next idle moment. */
  release(id: number): void {
    this.store.write(() => this.store.db.prepare("UPDATE outbox SET claimed_by = NULL, claimed_at = NULL WHERE id = ?").run(id));
  }

  /** Session ids with queued messages. */
  sessions(): string[] {
    return (this.store.db.prepare("SELECT DISTINCT session_id FROM outbox").all() as { session_id: string }[]).map((r) => r.session_id);
  }
}
