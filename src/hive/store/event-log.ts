// The hive's event log: status changes, watcher hits, mailbox messages and agent lifecycle,
// append-only, read by cursor. Any termhive process appends; every process reads the same rows.
//
// The cursor is the event id. Ids come from an AUTOINCREMENT column assigned inside the single
// SQLite write lock and commit in that order, so a reader never sees id N+1 before id N is
// visible: "everything after my cursor" is never missing a row that appears later.
//
// Retention: the log keeps at most `maxRows` events. Each append deletes the rows with
// id <= newId - maxRows (ids are contiguous: we never delete from the middle, and a rolled-back
// insert also rolls back the sequence), which is one index range delete. A reader whose cursor
// fell behind the oldest kept row is told how many events it missed.
import type { HiveStore } from "./store.js";
import { HiveError } from "./errors.js";
import { redactCredentialsDeep } from "../../redact.js";

export const EVENT_KINDS = ["status", "watch", "message", "lifecycle"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface HiveEvent {
  /** The cursor: strictly increasing, never reused. */
  id: number;
  /** Milliseconds since the epoch. */
  at: number;
  kind: EventKind;
  agent: string | null;
  sessionId: string | null;
  data: Record<string, unknown>;
}

export interface NewEvent {
  kind: EventKind;
  agent?: string | null;
  sessionId?: string | null;
  data?: Record<string, unknown>;
}

export interface SinceFilter {
  /** Keep events about these sessions … */
  sessionIds?: readonly string[];
  /** … or about these agents (an event matches if either list names it). */
  agents?: readonly string[];
  kinds?: readonly EventKind[];
  /** At most this many events (default 100, capped at MAX_EVENTS_PER_READ). */
  limit?: number;
  /** The newest `limit` events after the cursor (still oldest first), not the oldest. */
  newest?: boolean;
}

export interface SinceResult {
  events: HiveEvent[];
  /** Pass this as the next `since` cursor (the last returned id, or the given cursor if none). */
  cursor: number;
  /** More matching events exist after `cursor`. */
  more: boolean;
  /** Events after the given cursor that were pruned before this read (retention), 0 if none. */
  missed: number;
}

export const DEFAULT_EVENT_RETENTION = 10_000;
export const DEFAULT_EVENTS_PER_READ = 100;
export const MAX_EVENTS_PER_READ = 1000;

interface EventRow {
  id: number;
  at: number;
  kind: EventKind;
  agent: string | null;
  session_id: string | null;
  data: string;
}

function toEvent(row: EventRow): HiveEvent {
  return { id: row.id, at: row.at, kind: row.kind, agent: row.agent, sessionId: row.session_id, data: JSON.parse(row.data) };
}

export class EventLog {
  readonly maxRows: number;

  constructor(
    private readonly store: HiveStore,
    options: { maxRows?: number } = {},
  ) {
    const maxRows = options.maxRows ?? DEFAULT_EVENT_RETENTION;
    if (!Number.isInteger(maxRows) || maxRows < 1) {
      throw new HiveError("invalid", `event retention must be a positive integer, got ${String(maxRows)}`);
    }
    this.maxRows = maxRows;
  }

  /** Appends one event (joins the caller's transaction if there is one) and prunes past retention. */
  append(event: NewEvent, at: number = Date.now()): HiveEvent {
    if (!EVENT_KINDS.includes(event.kind)) {
      throw new HiveError("invalid", `unknown event kind '${String(event.kind)}'; valid kinds: ${EVENT_KINDS.join(", ")}`);
    }
    // Masked here, where every event is made, so hive_events, the dashboard's feed, the
    // notices and every other reader get the line the way results show it.
    const data = redactCredentialsDeep(event.data ?? {});
    return this.store.write(() => {
      const db = this.store.db;
      const info = db
        .prepare("INSERT INTO events (at, kind, agent, session_id, data) VALUES (?, ?, ?, ?, ?)")
        .run(at, event.kind, event.agent ?? null, event.sessionId ?? null, JSON.stringify(data));
      const id = Number(info.lastInsertRowid);
      db.prepare("DELETE FROM events WHERE id <= ?").run(id - this.maxRows);
      return { id, at, kind: event.kind, agent: event.agent ?? null, sessionId: event.sessionId ?? null, data };
    });
  }

  /** Events with id > cursor, oldest first, filtered. */
  since(cursor: number, filter: SinceFilter = {}): SinceResult {
    if (!Number.isInteger(cursor) || cursor < 0) {
      throw new HiveError("invalid", `event cursor must be a non-negative integer, got ${String(cursor)}`);
    }
    const limit = Math.min(Math.max(1, Math.floor(filter.limit ?? DEFAULT_EVENTS_PER_READ)), MAX_EVENTS_PER_READ);
    for (const kind of filter.kinds ?? []) {
      if (!EVENT_KINDS.includes(kind)) {
        throw new HiveError("invalid", `unknown event kind '${String(kind)}'; valid kinds: ${EVENT_KINDS.join(", ")}`);
      }
    }
    const where: string[] = ["id > ?"];
    const params: unknown[] = [cursor];
    if (filter.kinds && filter.kinds.length > 0) {
      where.push(`kind IN (${filter.kinds.map(() => "?").join(",")})`);
      params.push(...filter.kinds);
    }
    const who: string[] = [];
    if (filter.sessionIds) {
      who.push(`session_id IN (${filter.sessionIds.map(() => "?").join(",") || "NULL"})`);
      params.push(...filter.sessionIds);
    }
    if (filter.agents) {
      who.push(`agent IN (${filter.agents.map(() => "?").join(",") || "NULL"})`);
      params.push(...filter.agents);
    }
    if (who.length > 0) where.push(`(${who.join(" OR ")})`);
    return this.store.read(() => {
      const rows = this.store.db
        .prepare(`SELECT id, at, kind, agent, session_id, data FROM events WHERE ${where.join(" AND ")} ORDER BY id ${filter.newest ? "DESC" : ""} LIMIT ?`)
        .all(...params, limit + 1) as EventRow[];
      // Newest first from the query: none after the last one, whatever came before.
      const more = !filter.newest && rows.length > limit;
      const kept = rows.slice(0, limit);
      const events = (filter.newest ? kept.reverse() : kept).map(toEvent);
      const oldest = (this.store.db.prepare("SELECT min(id) AS id FROM events").get() as { id: number | null }).id;
      const missed = oldest !== null && oldest - 1 > cursor ? oldest - 1 - cursor : 0;
      return { events, cursor: events.length > 0 ? events[events.length - 1]!.id : cursor, more, missed };
    });
  }

  /** The id of the newest event (0 when none ever existed): start here to see only new events. */
  latestCursor(): number {
    return this.store.read(() => {
      const row = this.store.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").get() as
        | { seq: number }
        | undefined;
      return row?.seq ?? 0;
    });
  }
}
