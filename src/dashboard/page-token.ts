// The dashboard's second key, besides its cookie: a token written into the page itself, which
// only a page of the dashboard's own origin can read (another origin's fetch of it is opaque,
// and frame-ancestors 'none' keeps it out of frames). The page offers it as a WebSocket
// subprotocol on /live (a browser WebSocket cannot set headers); without it the upgrade is
// refused. A cookie alone is not enough: it ignores ports, so every local page on another
// port would send it too.
//
// Each page load gets its own token (a random nonce and its HMAC), checked without a table.
// The key comes from the serve token, so pages stay signed in across a restart of serve
// with the same token; with --auth off it is random per process.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { PAGE_TOKEN_META, PAGE_TOKEN_PROTOCOL } from "./protocol.js";

export class PageTokens {
  private readonly key: Buffer;

  constructor(serveToken: string | null) {
    this.key = serveToken === null ? randomBytes(32) : createHmac("sha256", "termhive dashboard page token").update(serveToken).digest();
  }

  issue(): string {
    const nonce = randomBytes(16).toString("base64url");
    return `${nonce}.${this.mac(nonce)}`;
  }

  valid(token: string): boolean {
    const dot = token.indexOf(".");
    if (dot <= 0) return false;
    const expected = Buffer.from(this.mac(token.slice(0, dot)));
    const given = Buffer.from(token.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected);
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
