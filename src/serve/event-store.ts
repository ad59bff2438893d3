// Resumable SSE streams: the MCP transport stores every event it sends here, and a client
// that reconnects with Last-Event-ID gets what it missed. Bounded per MCP session, in two
// ways so one chatty stream cannot push out another stream's events: a stream keeps only
// its newest maxPerStream events, and past maxEvents in all the least recently written
// stream loses its oldest event first.
//
// A Last-Event-ID that has been evicted still names its stream (the id carries it), so the
// reconnect re-attaches there: what was dropped is a gap, but the reply of a call still
// running is delivered when it comes. (Answering an evicted id with no stream left the
// reconnected client on a stream nothing ever wrote to, and the reply never arrived.)
//
// No getStreamIdForEventId on purpose: with it the SDK answers 409 to a reconnect while it
// still holds the old connection, which after a half-open cut (the client saw it drop, the
// server did not) it does until the client gives up, and the reply is lost. Without it the
// SDK hands the stream to the reconnect and closes the old connection.
import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

interface Stored {
  id: EventId;
  seq: number;
  message: JSONRPCMessage;
}

/** "<stream>_<seq base 36>" → its parts; the stream id itself may contain "_". */
function parse(eventId: EventId): { stream: StreamId; seq: number } | undefined {
  const cut = eventId.lastIndexOf("_");
  if (cut <= 0) return undefined;
  const seq = parseInt(eventId.slice(cut + 1), 36);
  return Number.isSafeInteger(seq) && seq > 0 ? { stream: eventId.slice(0, cut), seq } : undefined;
}

export class BoundedEventStore implements EventStore {
  /** Least recently written stream first (a write moves its stream to the end). */
  private readonly streams = new Map<StreamId, Stored[]>();
  private count = 0;
  private seq = 0;

  constructor(
    private readonly maxEvents = 1000,
    private readonly maxPerStream = 500,
  ) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.seq;
    const id = `${streamId}_${seq.toString(36)}`;
    const events = this.streams.get(streamId) ?? [];
    this.streams.delete(streamId);
    this.streams.set(streamId, events);
    events.push({ id, seq, message });
    this.count++;
    if (events.length > this.maxPerStream) {
      events.shift();
      this.count--;
    }
    while (this.count > this.maxEvents) this.evictOldest();
    return id;
  }

  private evictOldest(): void {
    const [stream, events] = this.streams.entries().next().value as [StreamId, Stored[]];
    events.shift();
    this.count--;
    if (events.length === 0) this.streams.delete(stream);
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const parsed = parse(lastEventId);
    // Only ids this store could have issued; the transport answers anything else with an error.
    if (!parsed || parsed.seq > this.seq) throw new Error(`unknown Last-Event-ID ${JSON.stringify(lastEventId.slice(0, 80))}`);
    // A copy: storing while we await send() may trim the live array.
    for (const e of [...(this.streams.get(parsed.stream) ?? [])]) if (e.seq > parsed.seq) await send(e.id, e.message);
    return parsed.stream;
  }
}
