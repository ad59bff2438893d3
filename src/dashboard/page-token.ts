// The dashboard's second key, besides its cookie: a token written into the page itself, which
// only a page of the dashboard's own origin can read (another origin's fetch of it is opaque,
// and frame-ancestors 'none' keeps it out of frames). The page offers it as a WebSocket
// subprotocol on /live (a browser WebSocket cannot set headers); without it the upgrade is
// refused. A cookie alone is not enough: it ignores ports, so every local page on another
// port would send it too.
//
// Each page load gets its own token (its time of issue, a random nonce and their HMAC),
// checked without a table. The key comes from the serve token, so pages stay signed in across
// a restart of serve with the same token; with --auth off it is random per process.
//
// A token is taken for `ttlMs` after its issue: one copied out of a page (a screenshot, a log)
// does not open the live channel forever. An open page is sent a fresh one over the channel
// every quarter of that, so its reconnects keep working however long it stays open.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { WebSocket } from "ws";
import { PAGE_TOKEN_META, PAGE_TOKEN_PROTOCOL, type ServerMessage } from "./protocol.js";

export class PageTokens {
  private readonly key: Buffer;

  constructor(serveToken: string | null, private readonly ttlMs: number) {
    this.key = serveToken === null ? randomBytes(32) : createHmac("sha256", "termhive dashboard page token").update(serveToken).digest();
  }

  issue(): string {
    const body = `${Date.now().toString(36)}.${randomBytes(16).toString("base64url")}`;
    return `${body}.${this.mac(body)}`;
  }

  valid(token: string): boolean {
    const dot = token.lastIndexOf(".");
    if (dot <= 0) return false;
    const body = token.slice(0, dot);
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(token.slice(dot + 1));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const issued = parseInt(body.slice(0, body.indexOf(".")), 36);
    const age = Date.now() - issued;
    return Number.isFinite(issued) && age >= 0 && age <= this.ttlMs;
  }

  /** Sends the page behind `ws` a fresh token now and every quarter of the lifetime, until it closes. */
  keepFresh(ws: WebSocket): void {
    const send = () => ws.send(JSON.stringify({ t: "page-token", token: this.issue() } satisfies ServerMessage));
    send();
    const timer = setInterval(send, Math.max(250, this.ttlMs / 4));
    timer.unref();
    ws.once("close", () => clearInterval(timer));
  }

  /** The token offered in a Sec-WebSocket-Protocol header, if one is valid. */
  fromProtocols(header: string | undefined): boolean {
    if (!header) return false;
    return header.split(",").some((p) => {
      const value = p.trim();
      return value.startsWith(PAGE_TOKEN_PROTOCOL) && this.valid(value.slice(PAGE_TOKEN_PROTOCOL.length));
    });
  }

  /** The page's HTML with a fresh token in its placeholder meta tag. */
  page(html: Buffer): Buffer {
    const placeholder = `<meta name="${PAGE_TOKEN_META}" content="">`;
    const text = html.toString("utf8");
    if (!text.includes(placeholder)) throw new Error(`the dashboard's index.html has no ${placeholder}: rebuild it (npm run build)`);
    return Buffer.from(text.replace(placeholder, `<meta name="${PAGE_TOKEN_META}" content="${this.issue()}">`), "utf8");
  }

  private mac(nonce: string): string {
    return createHmac("sha256", this.key).update(nonce).digest("base64url");
  }
}
