// The HTTP scaffolding every loopback API stand-in shares: a server on 127.0.0.1 at a free
// port, each request's body read whole before the stand-in answers it, and a stop that also
// ends the connections an agent keeps alive (or close would wait for them).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request, its body read: `path` is the URL without its query. */
export interface ReadRequest {
  method: string;
  path: string;
  raw: string;
}

export type Answer = (request: ReadRequest, res: ServerResponse) => Promise<void> | void;

export class LoopbackServer {
  private server: Server | undefined;

  constructor(private readonly answer: Answer) {}

  /** http://127.0.0.1:<port>, once started. */
  get url(): string {
    const a = this.server?.address() as AddressInfo | null | undefined;
    if (!a) throw new Error("stand-in not started");
    return `http://127.0.0.1:${a.port}`;
  }

  async start(): Promise<void> {
    // A stand-in that throws drops that connection (the agent sees a network error), not the test.
    this.server = createServer((req, res) => void this.serve(req, res).catch(() => res.destroy()));
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = { method: req.method ?? "", path: (req.url ?? "").split("?")[0]!, raw: Buffer.concat(chunks).toString("utf8") };
    await this.answer(request, res);
  }
}
