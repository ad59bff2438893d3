// MCP over Streamable HTTP (node:http), both protocol eras on /mcp behind one set of guards
// (host/origin, bearer, body size, request timeout).
// 2025 era: one transport + McpServer per MCP session, each built by createMcpServer so every
// tool of every door is here too. The server is the v2 SDK's (@modelcontextprotocol/server,
// as on stdio); the transport is still the 1.32 SDK's StreamableHTTPServerTransport with
// termhive's bounded event store: it serves 2025 clients exactly as before (sessions,
// resumability, eviction), and a transport is only messages in and out, the same on both sides.
// 2026-07-28 era: stateless, through the v2 SDK's handler (http-modern.ts). A request goes to
// the side the SDK's own classifier (isLegacyRequest) names; one with an Mcp-Session-Id is a
// 2025 session's. TERMHIVE_MCP_ERA applies as on stdio: 2025 sends everything to the
// sessionful side (a 2026 request is answered as a 2025 server does: 400, no session, so a
// probing client falls back to initialize); 2026 sends everything to the handler, which
// refuses 2025 requests.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/server";
import { createMcpServer } from "../mcp/server.js";
import type { ServiceRoot } from "../service/root.js";
import type { Dashboard } from "../dashboard/dashboard.js";
import { BoundedEventStore } from "./event-store.js";
import { bearerOk, BodyTooLarge, discardRestOfBody, hostAndOriginAllowed, hostInUrl, readBody } from "../auth/http-guard.js";
import { traced } from "../util/traced.js";
import { modernDoor, webRequest } from "./http-modern.js";

export interface HttpOptions {
  host: string;
  port: number;
  /** null: no auth (loopback only, for conformance runs). */
  token: string | null;
  maxBodyBytes: number;
  /** Live MCP sessions at once; past it the least recently used idle one is closed (503 if none is idle). */
  maxSessions: number;
  /** A session with no request for this long is closed (a client that vanished without DELETE). */
  sessionTtlMs: number;
  /** Open connections at once; past it node closes new ones at accept. */
  maxConnections: number;
  /** A request's headers and body must have arrived within this; else 408 and the connection closes. */
  requestTimeoutMs: number;
  /** The web dashboard: every path but /mcp, and the WebSocket upgrade. */
  dashboard?: Dashboard;
}

export interface HttpServer {
  port: number;
  url: string;
  sessions(): number;
  dispose(): Promise<void>;
}

interface McpSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** When its last request ended (or began, while one is open). */
  lastUsed: number;
  /** Requests open now (a long wait, an SSE stream): such a session is never idle. */
  open: number;
}

function plain(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-length": "0", ...headers }).end();
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  res.writeHead(status, { "content-type": "application/json" }).end(body);
}

export async function startHttp(root: ServiceRoot, options: HttpOptions): Promise<HttpServer> {
  // Insertion order is kept as recency order (a used session is moved to the end), so the
  // first idle one found is the least recently used.
  const sessions = new Map<string, McpSession>();

  const idle = (s: McpSession, now: number) => s.open === 0 && now - s.lastUsed >= options.sessionTtlMs;
  const expire = (id: string, s: McpSession) => {
    sessions.delete(id);
    void s.transport.close().catch(traced("closing an expired HTTP MCP session"));
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) if (idle(s, now)) expire(id, s);
  }, Math.max(250, Math.min(options.sessionTtlMs / 2, 60_000)));
  sweep.unref();

  /** Full: closes the least recently used session with no open request. False if all are busy. */
  const evictOne = (): boolean => {
    for (const [id, s] of sessions) {
      if (s.open === 0) {
        expire(id, s);
        return true;
      }
    }
    return false;
  };

  const use = (id: string, s: McpSession, res: ServerResponse) => {
    sessions.delete(id);
    sessions.set(id, s);
    s.open++;
    s.lastUsed = Date.now();
    res.once("close", () => {
      s.open--;
      s.lastUsed = Date.now();
    });
  };

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const server = createMcpServer(root, "http");
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, lastUsed: Date.now(), open: 0 }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close().catch(traced("closing an MCP server after its transport"));
    };
    await server.connect(transport);
    return transport;
  };

  const era = root.terminal.config.mcpEra;
  const modern = era === "2025" ? undefined : modernDoor(root, { maxBodyBytes: options.maxBodyBytes, legacy: era === "2026" ? "reject" : "serve" });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAndOriginAllowed(req, options.host)) return plain(res, 403);
    if (options.dashboard && (req.url ?? "/").split("?")[0] !== "/mcp") return options.dashboard.handle(req, res);
    if (!bearerOk(req, options.token)) return plain(res, 401, { "www-authenticate": "Bearer" });
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/mcp") return plain(res, 404);

    let body: unknown;
    let raw: Buffer | undefined;
    if (req.method === "POST") {
      try {
        raw = await readBody(req, options.maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          // No "connection: close": Node would close the socket while the body still arrives.
          discardRestOfBody(req);
          return plain(res, 413);
        }
        throw error;
      }
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        return rpcError(res, 400, -32700, "Parse error: the body is not JSON");
      }
    }

    const id = req.headers["mcp-session-id"];
    if (modern && (era === "2026" || typeof id !== "string")) {
      // Aborted when the client goes before its answer ends: a 2026 request is cancelled by
      // closing its stream (the SDK ends the exchange; a running command keeps running).
      const gone = new AbortController();
      res.once("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      const web = webRequest(req, raw, gone.signal);
      if (!(await modern.isLegacy(web, body))) return modern.serve(req, res, web, body, options.token);
    }
    if (typeof id === "string") {
      const session = sessions.get(id);
      // Checked here too, not only by the sweep: expiry does not depend on timer timing.
      if (session && idle(session, Date.now())) expire(id, session);
      if (!session || !sessions.has(id)) return rpcError(res, 404, -32001, "Session not found (expired or closed); initialize a new one");
      use(id, session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method === "POST" && (isInitializeRequest(body) || (Array.isArray(body) && body.some(isInitializeRequest)))) {
      if (sessions.size >= options.maxSessions && !evictOne()) {
        return rpcError(res, 503, -32000, `too many MCP sessions (${options.maxSessions}), each with a request open; retry later`);
      }
      const transport = await openSession();
      return transport.handleRequest(req, res, body);
    }
    return rpcError(res, 400, -32000, "Bad Request: no Mcp-Session-Id header; send initialize first");
  };

  // A client that opens a connection and sends half a request holds a descriptor until it is
  // cut: node measures only the time to receive the request (headers and body), so a long
  // wait whose request has arrived is never cut. The check runs every second, so a slow
  // client is cut within a second of its limit.
  const received = options.requestTimeoutMs;
  const http: Server = createServer({ requestTimeout: received, headersTimeout: Math.min(received, 10_000), connectionsCheckingInterval: 1000 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`termhive serve: ${(error as Error).stack ?? String(error)}\n`);
      rpcError(res, 500, -32603, "internal error");
    });
  });
  http.maxConnections = options.maxConnections;
  http.on("upgrade", (req, socket, head) => (options.dashboard ? options.dashboard.upgrade(req, socket, head) : socket.destroy()));

  await new Promise<void>((resolve, reject) => {
    http.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") reject(new Error(`port ${options.port} on ${options.host} is already in use; pick another with --port (0 picks a free one)`));
      else if (error.code === "EADDRNOTAVAIL") reject(new Error(`cannot listen on ${options.host}: no such local address`));
      else reject(error);
    });
    http.listen(options.port, options.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    port,
    url: `http://${hostInUrl(options.host)}:${port}/mcp`,
    sessions: () => sessions.size,
    async dispose() {
      clearInterval(sweep);
      await modern?.close().catch(traced("closing the 2026 MCP handler at shutdown"));
      for (const s of sessions.values()) await s.transport.close().catch(traced("closing an HTTP MCP session at shutdown"));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
