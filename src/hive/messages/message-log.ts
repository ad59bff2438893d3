// `message` events for cascades: one per addressed agent, on that agent, saying which level of
// the cascade reached it and what became of it. An orchestrator reading hive_events then knows
// who got which text without keeping the hive_message results. (Mailbox deliveries append
// their own event in hive/store/mailbox.ts.)
import type { CascadeAssignment, CascadeLevel, EventLog, QueuedMessage } from "../index.js";

/**
 * What became of one agent's text:
 *   delivered   the program visibly took it (see terminal/typing/delivery.ts)
 *   undelivered typed, but acceptance was not seen (busy program, error); `note` says why
 *   refused     not typed: the agent has exited, or the safety gate refused the cascade
 *   superseded  not typed: its session got a more specific text for another agent
 *   queued      not typed yet: the agent was busy; a `delivered` or `expired` event follows
 *   expired     a queued text was not typed before its TTL ran out
 *   cancelled   a queued text was taken out of the queue (hive_queue cancel)
 */
export type MessageState = "delivered" | "undelivered" | "refused" | "superseded" | "queued" | "expired" | "cancelled";

/** Longest text copy kept in an event; the full text is in the hive_message result. */
const PREVIEW_CHARS = 120;

export interface SessionOutcome {
  delivered: boolean;
  /** The outbox id when the text was queued instead of typed. */
  queued?: number;
  note?: string;
  error?: string;
}

/** Appends one `message` event per assignment. `outcomes` by session id; absent = not typed. */
export function recordCascade(
  events: EventLog,
  assignments: readonly CascadeAssignment[],
  outcomes: ReadonlyMap<string, SessionOutcome>,
  refusedBy?: string,
): void {
  for (const a of assignments) {
    const outcome = outcomes.get(a.sessionId);
    let state: MessageState;
    let note = a.note;
    if (refusedBy !== undefined) {
      state = "refused";
      note = refusedBy;
    } else if (!a.delivered) state = a.note?.startsWith("agent has exited") ? "refused" : "superseded";
    else if (outcome?.delivered) state = "delivered";
    else if (outcome?.queued !== undefined) state = "queued";
    else {
      state = "undelivered";
      note = outcome?.error ?? outcome?.note ?? note;
    }
    try {
      events.append({
        kind: "message",
        agent: a.agent,
        sessionId: a.sessionId,
        data: {
          via: "cascade", level: a.level, source: a.source, state, preview: a.text.slice(0, PREVIEW_CHARS),
          ...(outcome?.queued !== undefined ? { queued: outcome.queued } : {}), ...(note ? { note } : {}),
        },
      });
    } catch {
      // The log is a record, not the delivery: a locked store must not turn a typed message into an error.
    }
  }
}

/** One `message` event per agent a queued text reaches: what became of it (typed later, expired, cancelled). */
export function recordQueued(events: EventLog, m: QueuedMessage, state: MessageState, note?: string, attempts?: number, confirmedBy?: "hook" | "screen"): void {
  for (const agent of m.agents) {
    try {
      events.append({
        kind: "message",
        agent,
        sessionId: m.sessionId,
        data: {
          via: "cascade", level: m.level as CascadeLevel, source: m.source, state, preview: m.text.slice(0, PREVIEW_CHARS), queued: m.id,
          waited_ms: Date.now() - m.createdAt, ...(attempts !== undefined ? { attempts } : {}), ...(confirmedBy ? { confirmed_by: confirmedBy } : {}), ...(note ? { note } : {}),
        },
      });
    } catch {
      // a record, not the delivery (see recordCascade)
    }
  }
}
