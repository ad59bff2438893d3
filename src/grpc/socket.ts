// The unix socket under TERMHIVE_HOME: a stale one (its server crashed) is replaced, a live
// one (another `termhive serve` answers on it) is refused.
import { existsSync, unlinkSync, lstatSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { shellWord } from "../util/shell-word.js";

export function grpcSocketPath(home: string): string {
  return join(home, "grpc.sock");
}

/** True when something accepts connections on the socket. */
export function socketIsLive(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (live: boolean) => {
      socket.destroy();
      resolve(live);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.setTimeout(timeoutMs, () => done(false));
  });
}

export async function claimSocket(path: string): Promise<void> {
  if (!existsSync(path)) return;
  if (!lstatSync(path).isSocket()) throw new Error(`${path} exists and is not a socket; move it away and start again`);
  if (await socketIsLive(path)) {
    // The socket's folder is the home, which `serve --stop` reads from TERMHIVE_HOME.
    throw new Error(`another termhive server is already listening on ${path}; stop it with \`TERMHIVE_HOME=${shellWord(dirname(path))} termhive serve --stop\` (or use it: the CLI and gRPC clients reach it through this socket)`);
  }
  unlinkSync(path);
}
