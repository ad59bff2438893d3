// Serves the gRPC API on the private unix socket (no token: the socket is 0600 in a 0700
// directory) and, optionally, on loopback TCP where the bearer token is required. Each door
// checks a call's token and counts it (guard.ts) before grpc-js reads its message.
import * as grpc from "@grpc/grpc-js";
import { chmodSync, existsSync, unlinkSync } from "node:fs";
import type { ServiceRoot } from "../service/root.js";
import type { TermhiveService } from "../service/service.js";
import { buildHandlers, type Authorize } from "./handlers.js";
import { loadTermhiveProto } from "./proto.js";
import { claimSocket } from "./socket.js";
import { callGuard } from "./guard.js";
import { tokenMatches } from "../auth/token.js";

export interface GrpcServeOptions {
  socketPath: string;
  tcp?: { host: string; port: number };
  /** Required as `authorization: Bearer <token>` on TCP; null turns auth off. */
  token: string | null;
}

export interface GrpcServers {
  socketPath: string;
  tcpPort?: number;
  dispose(): Promise<void>;
}

function bind(server: grpc.Server, address: string): Promise<number> {
  return new Promise((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
}

/** The largest request: a Send's text (TERMHIVE_MAX_INPUT_BYTES) and room for its other fields. */
const REQUEST_OVERHEAD = 1024 * 1024;

function serverOptions(service: TermhiveService, authorize: Authorize | undefined): grpc.ServerOptions {
  const { maxInputBytes, grpcMaxCalls, grpcMaxWatches } = service.config;
  return {
    // Read only once the guard has let the call in (authenticated, under the caps).
    "grpc.max_receive_message_length": maxInputBytes + REQUEST_OVERHEAD,
    // Runs return up to a few hundred KB of output; a watch message is at most 1 MB.
    "grpc.max_send_message_length": 64 * 1024 * 1024,
    interceptors: [callGuard({ authorize, maxCalls: grpcMaxCalls, maxWatches: grpcMaxWatches })],
  };
}

export async function startGrpc(root: ServiceRoot, options: GrpcServeOptions): Promise<GrpcServers> {
  const { service: definition } = loadTermhiveProto("server");
  await claimSocket(options.socketPath);
  const local = new grpc.Server(serverOptions(root.terminal, undefined));
  local.addService(definition, buildHandlers(root));
  await bind(local, `unix:${options.socketPath}`);
  chmodSync(options.socketPath, 0o600);

  let remote: grpc.Server | undefined;
  let tcpPort: number | undefined;
  if (options.tcp) {
    const token = options.token;
    const authorize = token === null ? undefined : (md: grpc.Metadata) => {
      const value = md.get("authorization")[0];
      return typeof value === "string" && tokenMatches(value.replace(/^Bearer\s+/i, ""), token);
    };
    remote = new grpc.Server(serverOptions(root.terminal, authorize));
    // The handlers check the token again: a second lock, should a call ever bypass the guard.
    remote.addService(definition, buildHandlers(root, authorize));
    const host = options.tcp.host.includes(":") ? `[${options.tcp.host}]` : options.tcp.host;
    try {
      tcpPort = await bind(remote, `${host}:${options.tcp.port}`);
    } catch (error) {
      local.forceShutdown();
      throw new Error(`gRPC port ${options.tcp.host}:${options.tcp.port} is not available (${(error as Error).message}); pick another with --grpc-port or use --no-grpc-tcp`);
    }
  }
  const shutdown = (server: grpc.Server) => new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  return {
    socketPath: options.socketPath,
    tcpPort,
    async dispose() {
      // Open watch streams would hold tryShutdown forever.
      local.forceShutdown();
      remote?.forceShutdown();
      await Promise.all([shutdown(local), remote ? shutdown(remote) : Promise.resolve()]);
      if (existsSync(options.socketPath)) unlinkSync(options.socketPath);
    },
  };
}
