// Resumable SSE streams: the MCP transport stores every event it sends here, and a client
// that reconnects with Last-Event-ID gets what it missed. Bounded: only the newest events
// (per MCP session) are kept, so a client gone for long resumes with a gap, not a leak.
import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

interface Stored {
  id: EventId;
  stream: StreamId;
  message: JSONRPCMessage;
}

export class BoundedEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private seq = 0;

  constructor(private readonly maxEvents = 1000) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // The stream id goes first so getStreamIdForEventId needs no lookup; seq keeps order.
    const id = `${streamId}_${(++this.seq).toString(36)}`;
    this.events.push({ id, stream: streamId, message });
    if (this.events.length > this.maxEvents) this.events.splice(0, this.events.length - this.maxEvents);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const cut = eventId.lastIndexOf("_");
    return cut > 0 ? eventId.slice(0, cut) : undefined;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at === -1) return "";
    const stream = this.events[at]!.stream;
    for (const e of this.events.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message);
    return stream;
  }
}
