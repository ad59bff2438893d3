// hive_queue: the messages waiting for busy agents (hive/store/outbox.ts), and taking one back out.
import type { QueuedMessage } from "../index.js";
import type { Crew } from "../live/crew.js";
import { recordQueued } from "../messages/message-log.js";
import { ToolError } from "../../util/tool-error.js";

/** Queued messages (all, or those reaching one agent); `cancel` takes one out of the queue first. */
export async function listQueue(crew: Pick<Crew, "sync" | "hive">, input: { agent?: string; cancel?: number }) {
  await crew.sync();
  let cancelled;
  if (input.cancel !== undefined) {
    const m = crew.hive.outbox.cancel(input.cancel);
    if (!m) throw new ToolError(`no queued message #${input.cancel} (delivered, expired or cancelled already; see hive_events)`);
    if (m.claimedBy !== null) throw new ToolError(`queued message #${input.cancel} is being typed right now; it cannot be cancelled`, "busy");
    recordQueued(crew.hive.events, m, "cancelled");
    cancelled = queuedView(m);
  }
  if (input.agent !== undefined) crew.hive.agents.get(input.agent);
  const queued = crew.hive.outbox.list(input.agent).map((m) => queuedView(m));
  return { ...(cancelled ? { cancelled } : {}), queued };
}

function queuedView(m: QueuedMessage) {
  return {
    id: m.id, agents: m.agents, session: m.sessionId, level: m.level, source: m.source, text: m.text,
    queued_at: new Date(m.createdAt).toISOString(), expires_at: new Date(m.expiresAt).toISOString(), typing: m.claimedBy !== null,
  };
}
