// Jupyter-style login for the dashboard: the serve token, given once in `/?token=`, becomes an
// HttpOnly SameSite=Strict cookie. The cookie holds a value derived from the token, not the
// token itself, so a leaked cookie is not a bearer token for /mcp or gRPC.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { tokenMatches } from "../auth/token.js";

/** Per port: two `serve` processes on one host each keep their own login. */
function cookieName(req: IncomingMessage): string {
  return `termhive_dashboard_${req.socket.localPort ?? 0}`;
}

function cookieValue(token: string): string {
  return createHash("sha256").update("termhive dashboard cookie\0").update(token).digest("base64url");
}

function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== "string") return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** token null: serve runs with --auth off (loopback only), and so does the dashboard. */
export function cookieOk(req: IncomingMessage, token: string | null): boolean {
  if (token === null) return true;
  const given = readCookie(req, cookieName(req));
  return given !== undefined && tokenMatches(given, cookieValue(token));
}

export function loginCookie(req: IncomingMessage, token: string): string {
  return `${cookieName(req)}=${cookieValue(token)}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The `token` query parameter, if the URL has one. */
export function queryToken(url: string): string | undefined {
  const query = url.indexOf("?");
  if (query === -1) return undefined;
  return new URLSearchParams(url.slice(query + 1)).get("token") ?? undefined;
}

