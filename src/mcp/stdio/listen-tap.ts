// The stdio door's view of its client's `subscriptions/listen` streams (2026 era).
//
// Why: serveStdio serves `subscriptions/listen` itself (its listen router holds the filters
// and drops every change the client did not ask for), so termhive never sees which URIs a
// 2026 client listens to — yet the feed (resource-feed.ts) publishes only watched URIs, and
// must adopt a session another process opened before its output can reach this one. This
// transport, under serveStdio, watches each listen's URIs from its arrival until its stream
// ends: cancelled by the client, refused by the SDK (an error answer), or the connection
// closed. A listen is handed on once its sessions are adopted, and what follows it waits
// behind it, so the acknowledgement never comes before the watch.
import type { JSONRPCMessage, MessageExtraInfo, SubscriptionFilter, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import type { Disposable } from "../../util/lifecycle.js";
import { LayeredTransport } from "./layered-transport.js";
import type { ResourceFeed } from "../resource-feed.js";

type RequestId = string | number;

export class ListenTap extends LayeredTransport {
  private readonly leases = new Map<RequestId, Promise<Disposable>>();
  /** Messages after a listen whose watch is not in yet, in arrival order. */
  private pending: Promise<void> | undefined;

  constructor(
    inner: Transport,
    private readonly feed: () => ResourceFeed,
  ) {
    super(inner);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // A listen the SDK refused (bad envelope, limit reached) has no stream to watch for.
    if ("error" in message && message.id !== undefined && message.id !== null) this.end(message.id);
    await this.inner.send(message, options);
  }

  protected override ending(): void {
    this.endAll();
  }

  protected route(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!("method" in message)) return this.hand(message, extra);
    if (message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.end(id);
    }
    if (message.method !== "subscriptions/listen" || !("id" in message) || this.leases.has(message.id)) return this.hand(message, extra);
    const filter = (message.params as { notifications?: SubscriptionFilter } | undefined)?.notifications;
    const lease = this.feed().watchFilter(filter);
    this.leases.set(message.id, lease);
    const previous = this.pending;
    const handed = (async () => {
      await previous;
      await lease.catch(() => undefined);
      this.onmessage?.(message, extra);
    })();
    this.pending = handed;
    void handed.finally(() => {
      if (this.pending === handed) this.pending = undefined;
    });
  }

  /** Hands a message on now, or behind a listen still being watched. */
  private hand(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!this.pending) {
      this.onmessage?.(message, extra);
      return;
    }
    const handed = this.pending.then(() => this.onmessage?.(message, extra));
    this.pending = handed;
    void handed.finally(() => {
      if (this.pending === handed) this.pending = undefined;
    });
  }

  private end(id: RequestId): void {
    const lease = this.leases.get(id);
    if (!lease) return;
    this.leases.delete(id);
    void lease.then((l) => l.dispose(), () => undefined);
  }

  private endAll(): void {
    for (const id of [...this.leases.keys()]) this.end(id);
  }
}
