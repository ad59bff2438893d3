// The dashboard inside `termhive serve`: the page at `/` (after the token login) and its
// live channel, a WebSocket at /live. The HTTP door has already checked Host and Origin
// for every request; the upgrade to /live is checked here: Host, an Origin that must be
// present and exactly ours, the cookie, and the page token only our own page can read.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { hostAndOriginAllowed } from "../auth/http-guard.js";
import type { ServiceRoot } from "../service/root.js";
import { asset } from "./assets.js";
import { cookieOk, loginCookie, queryToken } from "./auth.js";
import { PageTokens } from "./page-token.js";
import { LIVE_PROTOCOL } from "./protocol.js";
import { tokenMatches } from "../auth/token.js";
import { DashboardConnection } from "./connection.js";
import { HiveFeed } from "./hive-feed.js";
import { limitedLog } from "./log.js";

export const LIVE_PATH = "/live";
/** Client frames are small (a message box's text at most); anything bigger is refused. */
const MAX_FRAME_BYTES = 128 * 1024;
const PING_MS = 30_000;
const DEFAULT_PAGE_TOKEN_TTL_MS = 12 * 3600_000;

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const LOGIN_PAGE = `<!doctype html><meta charset="utf-8"><title>termhive</title>
<p>Not signed in. Open the dashboard with the URL <code>termhive serve</code> or <code>termhive dashboard</code> printed (it ends in <code>?token=…</code>).</p>`;

export interface Dashboard {
  /** Answers a request for anything but /mcp (Host and Origin already checked). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  dispose(): void;
}

export function createDashboard(root: ServiceRoot, options: { token: string | null; host: string; pageTokenTtlMs?: number; log?: (line: string) => void }): Dashboard {
  const log = limitedLog(options.log ?? ((line: string) => process.stderr.write(`termhive serve: dashboard: ${line}\n`)));
  const feed = new HiveFeed(root.terminal, root.hive);
  const pageTokens = new PageTokens(options.token, options.pageTokenTtlMs ?? DEFAULT_PAGE_TOKEN_TTL_MS);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
    handleProtocols: () => LIVE_PROTOCOL,
    // One frame per socket per event-loop turn: a page sending thousands of frames at once
    // is served in turn with the others, not ahead of them (25,000 frames held others ~350 ms).
    // ws reads no further from that socket until its frames are out: memory stays bounded too.
    allowSynchronousEvents: false,
  });
  const alive = new WeakMap<object, boolean>();
  const pinger = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, PING_MS);
  pinger.unref();

  const refuseUpgrade = (socket: Duplex, status: string, why: string, req: IncomingMessage) => {
    log(`refused a live-channel connection from ${req.socket.remoteAddress ?? "?"}: ${why}`);
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  return {
    handle(req, res) {
      const url = req.url ?? "/";
      const path = url.split("?")[0]!;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD", "content-length": "0" }).end();
        return;
      }
      const given = path === "/" ? queryToken(url) : undefined;
      if (given !== undefined) {
        // The token leaves the address bar (and the history) at once: a redirect to `/`.
        if (options.token === null || tokenMatches(given, options.token)) {
          const headers: Record<string, string> = { location: "/", "content-length": "0", ...SECURITY_HEADERS };
          if (options.token !== null) headers["set-cookie"] = loginCookie(req, options.token);
          res.writeHead(302, headers).end();
        } else {
          log(`refused a login with a wrong token from ${req.socket.remoteAddress ?? "?"}`);
          res.writeHead(401, { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS }).end(LOGIN_PAGE);
        }
        return;
      }
      if (!cookieOk(req, options.token)) {
        res.writeHead(path === "/" ? 401 : 404, { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS }).end(path === "/" ? LOGIN_PAGE : "");
        return;
      }
      let file;
      try {
        file = asset(path);
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end((error as Error).message);
        return;
      }
      if (!file) {
        res.writeHead(404, { "content-length": "0", ...SECURITY_HEADERS }).end();
        return;
      }
      const body = path === "/" ? pageTokens.page(file.body) : file.body;
      res.writeHead(200, { "content-type": file.type, "content-length": String(body.length), ...SECURITY_HEADERS });
      res.end(req.method === "HEAD" ? undefined : body);
    },

    upgrade(req, socket, head) {
      socket.on("error", () => {});
      const path = (req.url ?? "/").split("?")[0];
      if (path !== LIVE_PATH) return refuseUpgrade(socket, "404 Not Found", `no WebSocket at ${path}`, req);
      // Browsers always send an Origin on a WebSocket; one without is not our page.
      if (req.headers.origin === undefined || !hostAndOriginAllowed(req, options.host)) return refuseUpgrade(socket, "403 Forbidden", `Host ${req.headers.host ?? "-"} / Origin ${req.headers.origin ?? "-"} not allowed`, req);
      if (!cookieOk(req, options.token)) return refuseUpgrade(socket, "401 Unauthorized", "no valid dashboard cookie", req);
      if (!pageTokens.fromProtocols(req.headers["sec-websocket-protocol"])) return refuseUpgrade(socket, "401 Unauthorized", "no valid page token (reload the dashboard page)", req);
      wss.handleUpgrade(req, socket, head, (ws) => {
        alive.set(ws, true);
        ws.on("pong", () => alive.set(ws, true));
        new DashboardConnection(ws, root, feed, log);
        pageTokens.keepFresh(ws);
      });
    },

    dispose() {
      clearInterval(pinger);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
