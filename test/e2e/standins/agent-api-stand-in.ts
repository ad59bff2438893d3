// What the stand-ins that drive a real agent under the hive (anthropic-agent-api.ts for Claude
// Code, openai-responses-api.ts for Codex) share: the loopback server, the record of every
// request the agent sent, and the questions tests ask of that record. Each subclass answers in
// its API's wire format.
import type { ServerResponse } from "node:http";
import { LoopbackServer, type ReadRequest } from "./loopback-server.js";
import type { RecordedRequest } from "./agent-script.js";

export abstract class AgentApiStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Numbers the ids of the answers. */
  protected seq = 0;
  private readonly server = new LoopbackServer((request, res) => this.answer(request, res));

  /** What the agent's base-URL setting gets after the server's address ("" or "/v1"). */
  protected abstract readonly basePath: string;

  get url(): string {
    return `${this.server.url}${this.basePath}`;
  }

  /** Turns of the agent's conversation (not side requests) whose newest user text includes `text`. */
  turnsWith(text: string): RecordedRequest[] {
    return this.requests.filter((r) => !r.side && !r.toolResult && r.userText.includes(text));
  }

  start(): Promise<void> {
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Records a request outside the API the stand-in serves (a side request, kept as sent). */
  protected recordOther(request: ReadRequest): void {
    this.requests.push({ at: Date.now(), path: `${request.method} ${request.path}`, userText: "", toolResult: false, side: true, body: request.raw });
  }

  protected abstract answer(request: ReadRequest, res: ServerResponse): Promise<void>;
}
