// A transport laid over another on the stdio door (era.ts, deferred-root.ts, listen-tap.ts):
// each sees what passes between the connection and serveStdio, and may hold, answer or watch
// it. What they all do besides — pass the rest through and follow the one below's life — is here.
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";

export abstract class LayeredTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(protected readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.route(message, extra);
    this.inner.onclose = () => {
      this.ending();
      this.onclose?.();
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
    this.started();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  async close(): Promise<void> {
    this.ending();
    await this.inner.close();
  }

  /** A message from the connection, on its way up. */
  protected abstract route(message: JSONRPCMessage, extra?: MessageExtraInfo): void;

  /** Once the one below has started. */
  protected started(): void {}

  /** The connection ends, from either side. */
  protected ending(): void {}
}
