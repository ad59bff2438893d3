// Checks every HTTP request to termhive serve (MCP door, dashboard) passes: Host against DNS
// rebinding and Origin against other local pages, exactly (403), the bearer token (401, no
// detail), the body size (413).
import type { IncomingMessage } from "node:http";
import { tokenMatches } from "./token.js";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A listening host as written in a URL: IPv6 addresses in brackets. */
export function hostInUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Host header without its port ("[::1]:7777" → "[::1]"). */
function hostName(header: string): string {
  if (header.startsWith("[")) return header.slice(0, header.indexOf("]") + 1);
  const colon = header.lastIndexOf(":");
  return colon === -1 ? header : header.slice(0, colon);
}

/**
 * A browser page on a foreign origin, or a rebound DNS name pointing at us, must not reach
 * the terminals. The Host must be a loopback name or the name we were told to bind to (DNS
 * rebinding), and an Origin, when sent, must be exactly the origin the request was addressed
 * to: `http://` + its Host, port included. Browsers count every port of 127.0.0.1 as one site
 * (cookies and SameSite ignore ports), so a page a dev server serves on another loopback port
 * differs from ours by its port alone. Addressed-to rather than listening port: the dashboard
 * still works through `ssh -L 9000:127.0.0.1:7777`.
 */
export function hostAndOriginAllowed(req: IncomingMessage, boundHost: string): boolean {
  const allowed = (name: string) => isLoopbackHost(name) || name === boundHost || `[${boundHost}]` === name;
  const host = req.headers.host;
  if (!host || !allowed(hostName(host).toLowerCase())) return false;
  const origin = req.headers.origin;
  return origin === undefined || originIsOurs(origin, host);
}

/** `origin` is exactly http://<host> (scheme, name and port; default ports normalised). */
export function originIsOurs(origin: string, host: string): boolean {
  try {
    const given = new URL(origin);
    const ours = new URL(`http://${host}`);
    return given.protocol === "http:" && given.origin === ours.origin && ours.host === host.toLowerCase();
  } catch {
    return false; // "null" and garbage origins
  }
}

export function bearerOk(req: IncomingMessage, token: string | null): boolean {
  if (token === null) return true;
  const header = req.headers.authorization;
  if (typeof header !== "string") return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && tokenMatches(match[1]!, token);
}

export class BodyTooLarge extends Error {}

/**
 * Reads the body, failing fast (Content-Length) or as soon as the limit is passed. Listeners,
 * not `for await`: leaving an async iterator early destroys the request, and with it the
 * socket the 413 must still be written to (it came out as a 500, then a crash).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      cleanup();
      chunks.length = 0;
      reject(new BodyTooLarge());
    };
    const onEnd = () => (cleanup(), resolve(Buffer.concat(chunks)));
    const onError = (error: Error) => (cleanup(), reject(error));
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      // Paused, not destroyed: the caller decides (discardRestOfBody resumes it).
      req.pause();
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * After a 413, reads and throws away what the client is still sending, for a bounded time.
 * Closing a socket with unread bytes in it makes the kernel answer with a reset, and a
 * client still writing its body then sees EPIPE/ECONNRESET instead of the 413.
 */
export function discardRestOfBody(req: IncomingMessage, graceMs = 5_000): void {
  // Held now: req.socket is null once the request is done with it.
  const socket = req.socket as IncomingMessage["socket"] | null;
  const cutOff = setTimeout(() => socket?.destroy(), graceMs);
  cutOff.unref();
  const stop = () => clearTimeout(cutOff);
  req.once("end", stop);
  socket?.once("close", stop);
  req.on("error", () => {}); // a client reset while discarding is expected, not a crash
  req.resume();
}
