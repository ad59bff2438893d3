// The 2026-07-28 side of the HTTP door: stateless requests served by the v2 SDK's
// createMcpHandler (one McpServer per request, from the same factory as every door), behind
// the same guards as the 2025 side (http.ts checks host/origin, bearer, body size and the
// request timeout before either side sees a request).
//
// Per-client state without a protocol session (issue 34 §2): a 2026 request carries no
// session id, so what termhive keeps per client (read cursors of "new" reads and waits, the
// last screen of "diff" reads) is keyed on who is asking as far as the request says it:
//   http:<credential digest>:<client>
// where <client> is the X-Termhive-Client header when the client sends one (the same handle
// gRPC's x-termhive-client metadata is), else the client's declared name@version from the
// request's envelope (`io.modelcontextprotocol/clientInfo`). Two different clients on one
// token (Claude Code and Codex) so keep their own cursors; two instances of the same client
// on one token are the same reader unless each is configured with its own header
// (README, "Other doors"). The credential is part of the key so that a second credential never
// reads another's cursor; within one token this is no security boundary (the token controls
// every terminal anyway), only who reads what.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { CLIENT_INFO_META_KEY, createMcpHandler, isLegacyRequest, type McpHttpHandler, type ServerEventBus } from "@modelcontextprotocol/server";
import { createMcpServer } from "../mcp/server.js";
import { resourceFeed } from "../mcp/resource-feed.js";
import type { ServiceRoot } from "../service/root.js";
import { traced } from "../util/traced.js";

/** The longest X-Termhive-Client or client name kept in a key (as gRPC's bound). */
const CLIENT_NAME_MAX = 100;

export interface ModernDoor {
  /** Whether this request is a 2025-era one (the sessionful side serves it). */
  isLegacy(web: Request, body: unknown): Promise<boolean>;
  /** Serves one 2026 request (or answers one it refuses: a 2025 request when legacy is rejected). */
  serve(req: IncomingMessage, res: ServerResponse, web: Request, body: unknown, token: string | null): Promise<void>;
  close(): Promise<void>;
}

/** A node request as the web Request the SDK handler takes; `signal` aborts when the client goes. */
export function webRequest(req: IncomingMessage, raw: Buffer | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/mcp"}`;
  const hasBody = raw !== undefined && req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, { method: req.method ?? "GET", headers, signal, ...(hasBody ? { body: new Uint8Array(raw) } : {}) });
}

/** The per-client key of a 2026 request (the comment at the top says why these parts). */
export function modernClientId(headers: IncomingMessage["headers"], body: unknown, token: string | null): string {
  const credential = token === null ? "open" : createHash("sha256").update(token).digest("hex").slice(0, 12);
  const sent = headers["x-termhive-client"];
  if (typeof sent === "string" && sent.length > 0) return `http:${credential}:${sent.slice(0, CLIENT_NAME_MAX)}`;
  const params = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as { params?: { _meta?: Record<string, unknown> } }).params : undefined;
  const info = params?._meta?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
  const name = typeof info?.name === "string" ? info.name : "unnamed";
  const version = typeof info?.version === "string" ? info.version : "";
  return `http:${credential}:${`${name}@${version}`.slice(0, CLIENT_NAME_MAX)}`;
}

/** Writes a web Response to node, streaming an SSE body frame by frame. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // The client went: the SDK sees its request's signal abort and ends the exchange; the
  // reader is cancelled so a stream nobody reads is not kept.
  res.once("close", () => void reader.cancel().catch(traced("cancelling a 2026 response stream")));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise<void>((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
    if (res.destroyed) break;
  }
  res.end();
}

/** The URIs a `subscriptions/listen` request asks for, if the body is one. */
function listenFilter(body: unknown): { resourceSubscriptions?: string[] } | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const request = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: string[] } } };
  return request.method === "subscriptions/listen" ? (request.params?.notifications ?? {}) : undefined;
}

/**
 * Resource updates (issue 34 §4): `subscriptions/listen` streams take their events from this
 * process's one resource feed (mcp/resource-feed.ts), the same the stdio door and the 2025
 * sessions use; a listen's URIs are watched while its stream is open, so a session another
 * process opened is adopted first and its output reaches the listener. The per-request
 * servers publish nothing themselves ("none"): the feed is the only publisher.
 */
export function modernDoor(root: ServiceRoot, options: { maxBodyBytes: number; legacy: "serve" | "reject"; bus?: ServerEventBus }): ModernDoor {
  const config = root.terminal.config;
  const feed = resourceFeed(root.terminal, config.toolFamilies.includes("hive") ? root.hive : undefined);
  // legacy "reject": this handler never serves 2025 traffic itself; http.ts routes it to
  // the sessionful side, or (TERMHIVE_MCP_ERA=2026) lets this handler refuse it.
  const handler: McpHttpHandler = createMcpHandler(({ authInfo }) => createMcpServer(root, authInfo?.clientId ?? "http", config, "none"), {
    legacy: "reject",
    maxRequestBodySize: options.maxBodyBytes,
    bus: options.bus ?? feed.bus,
    onerror: traced("serving a 2026 MCP request over HTTP"),
  });
  return {
    isLegacy: (web, body) => (options.legacy === "reject" ? Promise.resolve(false) : isLegacyRequest(web, body, { maxRequestBodySize: options.maxBodyBytes })),
    async serve(req, res, web, body, token) {
      const clientId = modernClientId(req.headers, body, token);
      const filter = listenFilter(body);
      if (filter) {
        const lease = await feed.watchFilter(filter);
        res.once("close", () => lease.dispose());
      }
      const response = await handler.fetch(web, { ...(body !== undefined ? { parsedBody: body } : {}), authInfo: { token: token ?? "", clientId, scopes: [] } });
      await writeResponse(res, response);
    },
    close: () => handler.close(),
  };
}
