// `termhive serve`: one process serving MCP over Streamable HTTP and the gRPC API (unix
// socket, optional loopback TCP) over one TermhiveService.
import { loadConfig } from "../config.js";
import { createDashboard } from "../dashboard/dashboard.js";
import { dashboardUrl, writeServeRecord } from "../dashboard/serve-record.js";
import { startGrpc } from "../grpc/server.js";
import { grpcSocketPath } from "../grpc/socket.js";
import { composeRoot } from "../service/root.js";
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
  stop(): Promise<void>;
}

export async function startServe(options: ServeOptions): Promise<Serving> {
  const loopback = isLoopbackHost(options.host);
  if (!options.auth && !loopback) throw new Error(`--auth off is only allowed on a loopback host, not ${options.host}`);
  const config = loadConfig();
  const root = composeRoot(config);
  const token = options.auth ? loadOrCreateToken(config.home) : null;
  // gRPC TCP is loopback-only whatever --host says: remote gRPC has no TLS here.
  const grpc = await startGrpc(root, {
    socketPath: grpcSocketPath(config.home),
    tcp: options.grpcTcp ? { host: "127.0.0.1", port: options.grpcPort } : undefined,
    token,
  });
  let http;
  const dashboard = createDashboard(root, { token, host: options.host, pageTokenTtlMs: config.dashboardPageTtlMs });
  try {
    http = await startHttp(root, { host: options.host, port: options.port, token, maxBodyBytes: options.maxBodyBytes, maxSessions: config.httpMaxSessions, sessionTtlMs: config.httpSessionTtlMs, maxConnections: config.httpMaxConnections, requestTimeoutMs: config.httpRequestTimeoutMs, dashboard });
  } catch (error) {
    dashboard.close();
    await grpc.close();
    await root.shutdown().catch(traced("shutting the services down"));
    throw error;
  }
  // Notifications (when configured) go out from now on, whether or not a client calls this serve.
  root.crew.followHive();
  const forgetRecord = writeServeRecord(config.home, { pid: process.pid, host: options.host, port: http.port, auth: token !== null });
  return {
    url: http.url,
    dashboardUrl: dashboardUrl(options.host, http.port, token, loopback),
    port: http.port,
    grpcSocket: grpc.socketPath,
    grpcPort: grpc.tcpPort,
    tokenPath: token === null ? null : tokenPath(config.home),
    token,
    async stop() {
      forgetRecord();
      dashboard.close();
      await http.close();
      await grpc.close();
      await root.shutdown().catch(traced("shutting the services down"));
    },
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
    await serving.stop().catch(traced("stopping the servers"));
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}
