// A real HTTP receiver on 127.0.0.1 for the notification tests: records every request, and can
// answer with given statuses in turn or hang (accept and never answer).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export class Receiver {
  readonly received: Received[] = [];
  private readonly hanging: ServerResponse[] = [];
  private waiters: (() => void)[] = [];
  private constructor(private readonly server: Server, readonly url: string) {}

  /** `statuses`: answers in turn (the last one repeats), or chosen by the request's body; "hang": never answer. */
  static async start(statuses: (number | "hang")[] | ((body: string) => number | "hang") = [200]): Promise<Receiver> {
    let receiver!: Receiver;
    let n = 0;
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        receiver.received.push({ path: req.url ?? "", headers: req.headers, body });
        const status = typeof statuses === "function" ? statuses(body) : statuses[Math.min(n++, statuses.length - 1)]!;
        for (const w of receiver.waiters.splice(0)) w();
        if (status === "hang") receiver.hanging.push(res);
        else res.writeHead(status).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  /** Resolves once `count` requests have arrived. */
  async waitFor(count: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${this.received.length} requests, expected ${count}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100).unref();
      });
    }
  }

  get pendingHangs(): number {
    return this.hanging.filter((r) => !r.writableEnded && !r.destroyed).length;
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A port nothing listens on (connection refused). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/refused`;
}
