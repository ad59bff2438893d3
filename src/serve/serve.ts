// `termhive serve`: one process serving MCP over Streamable HTTP and the gRPC API (unix
// socket, optional loopback TCP) over one TermhiveService.
import { loadConfig } from "../config.js";
import { createDashboard } from "../dashboard/dashboard.js";
import { dashboardUrl, writeServeRecord } from "../dashboard/serve-record.js";
import { startGrpc } from "../grpc/server.js";
import { grpcSocketPath } from "../grpc/socket.js";
import { composeRoot } from "../service/root.js";
import { followHostAsks } from "./host-door.js";
import { EndingOrder, toDisposable } from "../util/lifecycle.js";
import { traced } from "../util/traced.js";
import { installCrashPolicy } from "../util/crash-policy.js";
import { isLoopbackHost } from "../auth/http-guard.js";
import { startHttp } from "./http.js";
import { loadOrCreateToken, tokenPath } from "../auth/token.js";

export interface ServeOptions {
  host: string;
  port: number;
  grpcTcp: boolean;
  grpcPort: number;
  auth: boolean;
  maxBodyBytes: number;
  json?: boolean;
}

export interface Serving {
  url: string;
  port: number;
  grpcSocket: string;
  grpcPort?: number;
  tokenPath: string | null;
  token: string | null;
  /** The web dashboard's URL, with the token when auth is on. */
  dashboardUrl: string;
  /** Ends the servers and the services, in SERVE_ENDING_ORDER. */
  dispose(): Promise<void>;
  /** The name tests and benches knew it by. */
  stop(): Promise<void>;
}

/** What a serve ends, in order, on a stop and on a failed start alike: the doors first, then the services. */
export const SERVE_ENDING_ORDER = ["serve record", "dashboard", "http", "grpc", "services"] as const;

export async function startServe(options: ServeOptions): Promise<Serving> {
  const loopback = isLoopbackHost(options.host);
  if (!options.auth && !loopback) throw new Error(`--auth off is only allowed on a loopback host, not ${options.host}`);
  const config = loadConfig();
  const parts = new EndingOrder(SERVE_ENDING_ORDER);
  const root = composeRoot(config);
  followHostAsks(root); // host panes' in-pane termhive (host-door.ts)
  // A failure ending the services is only traced: the servers' ending is what a stop reports.
  parts.set("services", { dispose: () => root.dispose().catch(traced("shutting the services down")) });
  const token = options.auth ? loadOrCreateToken(config.home) : null;
  // gRPC TCP is loopback-only whatever --host says: remote gRPC has no TLS here.
  const grpc = await startGrpc(root, {
    socketPath: grpcSocketPath(config.home),
    tcp: options.grpcTcp ? { host: "127.0.0.1", port: options.grpcPort } : undefined,
    token,
  });
  parts.set("grpc", grpc);
  let http;
  const dashboard = createDashboard(root, { token, host: options.host, pageTokenTtlMs: config.dashboardPageTtlMs });
  parts.set("dashboard", dashboard);
  try {
    http = await startHttp(root, { host: options.host, port: options.port, token, maxBodyBytes: options.maxBodyBytes, maxSessions: config.httpMaxSessions, sessionTtlMs: config.httpSessionTtlMs, maxConnections: config.httpMaxConnections, requestTimeoutMs: config.httpRequestTimeoutMs, dashboard });
  } catch (error) {
    await parts.dispose().catch(traced("ending what the failed start had started"));
    throw error;
  }
  parts.set("http", http);
  // Notifications (when configured) go out from now on, whether or not a client calls this serve.
  root.crew.followHive();
  parts.set("serve record", toDisposable(writeServeRecord(config.home, { pid: process.pid, host: options.host, port: http.port, auth: token !== null })));
  return {
    url: http.url,
    dashboardUrl: dashboardUrl(options.host, http.port, token, loopback),
    port: http.port,
    grpcSocket: grpc.socketPath,
    grpcPort: grpc.tcpPort,
    tokenPath: token === null ? null : tokenPath(config.home),
    token,
    dispose: () => parts.dispose(),
    stop: () => parts.dispose(),
  };
}

export function banner(s: Serving, host: string): string {
  const url = isLoopbackHost(host) ? s.url.replace(/\/\/[^/]+/, `//127.0.0.1:${s.port}`) : s.url;
  const lines = [`termhive serve: MCP over Streamable HTTP at ${url}`];
  if (s.token !== null) {
    lines.push(
      `Bearer token (kept in ${s.tokenPath}): ${s.token}`,
      `Register with Claude Code:`,
      `  claude mcp add --transport http termhive ${url} --header "Authorization: Bearer ${s.token}"`,
    );
  } else {
    lines.push(`Authentication is OFF (loopback only). Do not leave it like this.`);
  }
  lines.push(`Dashboard: ${s.dashboardUrl}`);
  lines.push(`gRPC: unix:${s.grpcSocket}${s.grpcPort !== undefined ? ` and 127.0.0.1:${s.grpcPort} (metadata authorization: Bearer <token>)` : ""}`);
  lines.push(`Ctrl-C to stop (sessions keep running in tmux).`);
  return lines.join("\n") + "\n";
}

export async function serveCommand(options: ServeOptions): Promise<void> {
  installCrashPolicy("serve", loadConfig());
  if (!isLoopbackHost(options.host)) {
    process.stderr.write(`termhive serve: WARNING: listening on ${options.host}, reachable from other machines; anyone with the token controls your terminals.\n`);
  }
  const serving = await startServe(options);
  if (options.json) {
    process.stdout.write(
      JSON.stringify({ url: serving.url, port: serving.port, grpc_socket: serving.grpcSocket, grpc_port: serving.grpcPort ?? null, token_path: serving.tokenPath, dashboard: serving.dashboardUrl.split("?")[0] }) + "\n",
    );
  } else {
    process.stdout.write(banner(serving, options.host));
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await serving.dispose().catch(traced("stopping the servers"));
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}
