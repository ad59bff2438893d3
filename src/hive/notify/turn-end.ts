// Whether an agent's working → idle ends a turn. The first idle after an agent is registered
// is its program starting up (Claude Code draws, then shows its input box), not a turn: a
// notice for it says "finished its turn" about nothing, and its debounce then swallowed the
// first real turn. Read from the event log, so every process judges alike.
import type { HiveStore } from "../store/store.js";

export function endsTurn(store: HiveStore, agent: string, eventId: number): boolean {
  const row = store.db
    .prepare(
      `SELECT kind FROM events WHERE agent = ? AND id < ? AND (
         (kind = 'lifecycle' AND json_extract(data, '$.event') IN ('agent_registered', 'agent_replaced'))
         OR (kind = 'status' AND json_extract(data, '$.status') = 'idle'))
       ORDER BY id DESC LIMIT 1`,
    )
    .get(agent, eventId) as { kind: string } | undefined;
  // No record left (the log keeps its newest rows only): an agent that old has been idle before.
  return row?.kind !== "lifecycle";
}
