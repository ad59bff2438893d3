// `message` events for cascades: one per addressed agent, on that agent, saying which level of
// the cascade reached it and what became of it. An orchestrator reading hive_events then knows
// who got which text without keeping the hive_message results. (Mailbox deliveries append
// their own event in hive/mailbox.ts.)
import type { CascadeAssignment, EventLog } from "../../hive/index.js";

/**
 * What became of one agent's text:
 *   delivered   the program visibly took it (see deliver.ts)
 *   undelivered typed, but acceptance was not seen (busy program, error); `note` says why
 *   refused     not typed: the agent has exited, or the safety gate refused the cascade
 *   superseded  not typed: its session got a more specific text for another agent
 */
export type MessageState = "delivered" | "undelivered" | "refused" | "superseded";

/** Longest text copy kept in an event; the full text is in the hive_message result. */
const PREVIEW_CHARS = 120;

export interface SessionOutcome {
  delivered: boolean;
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
    else {
      state = "undelivered";
      note = outcome?.error ?? outcome?.note ?? note;
    }
    try {
      events.append({
        kind: "message",
        agent: a.agent,
        sessionId: a.sessionId,
        data: { via: "cascade", level: a.level, source: a.source, state, preview: a.text.slice(0, PREVIEW_CHARS), ...(note ? { note } : {}) },
      });
    } catch {
      // The log is a record, not the delivery: a locked store must not turn a typed message into an error.
    }
  }
}
