// Which engine a CLI verb talks to: a running `termhive serve` over its unix socket when
// there is one (sessions, read cursors and watchers live there), else an in-process
// service straight against tmux (sessions persist in tmux either way).
import { existsSync } from "node:fs";
import { loadConfig } from "../config.js";
import { TermhiveClient } from "../grpc/client.js";
import { grpcSocketPath, socketIsLive } from "../grpc/socket.js";
import { z } from "zod";
import { composeRoot } from "../service/root.js";
import { VERB } from "../verbs/index.js";
import type { TermhiveService } from "../service/service.js";
import type { HiveService } from "../service/hive-service.js";

/** The operations every verb uses, with one shape whichever engine answers. */
export type Ops = Pick<TermhiveClient, "open" | "run" | "send" | "read" | "wait" | "list" | "close" | "resize">;

export interface Engine {
  ops: Ops;
  remote: boolean;
  /** The in-process service (direct mode only), e.g. for the attach command. */
  service?: TermhiveService;
  /** The in-process hive (direct mode only): its store opens on first use. */
  hive?: () => HiveService;
  /** The running server's client (remote mode only): a hive verb is its rpc there. */
  client?: TermhiveClient;
  done(): Promise<void>;
}

const CLIENT_ID = "cli";

type TerminalVerbs = typeof VERB;
/** A verb's input checked by its schema, defaults applied (as the MCP and gRPC doors do). */
function parsed<K extends keyof TerminalVerbs>(key: K, input: unknown): z.infer<z.ZodObject<TerminalVerbs[K]["input"]>> {
  return z.object(VERB[key].input).parse(input) as z.infer<z.ZodObject<TerminalVerbs[K]["input"]>>;
}

export async function connectEngine(options: { direct?: boolean; onProgress?: (ms: number, message: string) => void } = {}): Promise<Engine> {
  const config = loadConfig();
  const socket = grpcSocketPath(config.home);
  if (!options.direct && existsSync(socket) && (await socketIsLive(socket, 500))) {
    const client = new TermhiveClient({ socketPath: socket, clientName: CLIENT_ID });
    return { ops: client, remote: true, client, done: async () => client.closeConnection() };
  }
  const root = composeRoot(config);
  const service = root.terminal;
  const ctx = { clientId: CLIENT_ID, onProgress: options.onProgress };
  // The same checks and defaults as every other door: each input is parsed with its verb's schema.
  const ops: Ops = {
    open: (i = {}) => service.open(parsed("terminalOpen", i)),
    run: (i) => service.run(parsed("terminalRun", i), ctx),
    send: (i) => service.send(parsed("terminalSend", i), ctx),
    read: (i) => service.read(parsed("terminalRead", i), ctx),
    wait: (i) => service.wait(parsed("terminalWait", i), ctx),
    list: () => service.list(),
    close: (i) => service.close(parsed("terminalClose", i)),
    resize: (i) => service.resize(parsed("terminalResize", i)),
  };
  return { ops, remote: false, service, hive: () => root.hive, done: () => root.dispose() };
}
