// The live channel: one WebSocket to /live (the login cookie goes with it, and the page token
// the server wrote into this page, as a subprotocol), reconnected with a growing delay when it
// drops. Requests with an id get their reply as a promise.
import { LIVE_PROTOCOL, PAGE_TOKEN_META, PAGE_TOKEN_PROTOCOL, type ClientMessage, type ServerMessage } from "../src/dashboard/protocol.js";

type Reply = Extract<ServerMessage, { t: "reply" }>;
type WithoutId<T> = T extends { id: number } ? Omit<T, "id"> : never;

export class Live {
  private ws: WebSocket | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private failures = 0;

  constructor(
    private readonly onMessage: (m: ServerMessage) => void,
    private readonly onState: (state: "open" | "closed", failures: number) => void,
  ) {}

  connect(): void {
    const token = document.querySelector<HTMLMetaElement>(`meta[name="${PAGE_TOKEN_META}"]`)?.content ?? "";
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/live`, [LIVE_PROTOCOL, PAGE_TOKEN_PROTOCOL + token]);
    this.ws = ws;
    ws.onopen = () => {
      this.failures = 0;
      this.onState("open", 0);
    };
    ws.onmessage = (e: MessageEvent<string>) => {
      const m = JSON.parse(e.data) as ServerMessage;
      if (m.t === "reply") {
        this.pending.get(m.id)?.(m);
        this.pending.delete(m.id);
      } else if (m.t === "page-token") {
        // Kept for the next reconnect: the token the page was served with expires.
        document.querySelector<HTMLMetaElement>(`meta[name="${PAGE_TOKEN_META}"]`)?.setAttribute("content", m.token);
      } else this.onMessage(m);
    };
    ws.onclose = () => {
      this.failures++;
      for (const resolve of this.pending.values()) resolve({ t: "reply", id: 0, ok: false, error: "the connection to termhive dropped" });
      this.pending.clear();
      this.onState("closed", this.failures);
      setTimeout(() => this.connect(), Math.min(10_000, 250 * 2 ** Math.min(this.failures, 6)));
    };
  }

  send(m: ClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  request(m: WithoutId<ClientMessage>): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (this.ws?.readyState !== WebSocket.OPEN) return resolve({ t: "reply", id, ok: false, error: "not connected to termhive" });
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ ...m, id }));
    });
  }
}
