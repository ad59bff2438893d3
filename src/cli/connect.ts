// Which engine a CLI verb talks to: a running `termhive serve` over its unix socket when
// there is one (sessions, read cursors and watchers live there), else an in-process
// service straight against tmux (sessions persist in tmux either way).
import { existsSync } from "node:fs";
import { loadConfig } from "../config.js";
import { TermhiveClient } from "../grpc/client.js";
import { grpcSocketPath, socketIsLive } from "../grpc/socket.js";
import { composeRoot } from "../service/root.js";
import type { TermhiveService } from "../service/service.js";

/** The operations every verb uses, with one shape whichever engine answers. */
export type Ops = Pick<TermhiveClient, "open" | "run" | "send" | "read" | "wait" | "list" | "close" | "resize">;

export interface Engine {
  ops: Ops;
  remote: boolean;
  /** The in-process service (direct mode only), e.g. for the attach command. */
  service?: TermhiveService;
  done(): Promise<void>;
}

const CLIENT_ID = "cli";

export async function connectEngine(options: { direct?: boolean; onProgress?: (ms: number, message: string) => void } = {}): Promise<Engine> {
  const config = loadConfig();
  const socket = grpcSocketPath(config.home);
  if (!options.direct && existsSync(socket) && (await socketIsLive(socket, 500))) {
    const client = new TermhiveClient({ socketPath: socket, clientName: CLIENT_ID });
    return { ops: client, remote: true, done: async () => client.closeConnection() };
  }
  const root = composeRoot(config);
  const service = root.terminal;
  const ctx = { clientId: CLIENT_ID, onProgress: options.onProgress };
  const ops: Ops = {
    open: (i = {}) => service.open({ rows: 40, cols: 120, ...i }),
    run: (i) => service.run({ timeout_s: 30, ...i }, ctx),
    send: (i) => service.send({ enter: true, ...i }, ctx),
    read: (i) => service.read({ mode: "auto", ...i }, ctx),
    wait: (i) => service.wait({ timeout_s: 30, ...i }, ctx),
    list: () => service.list(),
    close: (i) => service.close(i),
    resize: (i) => service.resize(i),
  };
  return { ops, remote: false, service, done: () => root.shutdown() };
}
