// `termhive serve`: flags → serve/serve.ts.
import type { Command } from "commander";
import { loadConfig } from "../config.js";
import { serveCommand } from "../serve/serve.js";
import { stopServe, stoppedText } from "./serve-stop.js";
import { port } from "../verbs/cli-args.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("serve MCP over Streamable HTTP and the gRPC API (unix socket + loopback TCP)")
    .option("-p, --port <n>", "HTTP port (0 picks a free one)", port, 7777)
    .option("--host <host>", "address to listen on; anything but loopback is reachable from other machines", "127.0.0.1")
    .option("--grpc-port <n>", "loopback TCP port of the gRPC API (default: HTTP port + 1; 0 picks a free one)", port)
    .option("--no-grpc-tcp", "serve gRPC on the unix socket only")
    .option("--auth <on|off>", "bearer token auth; off is only allowed on a loopback host (conformance runs)", "on")
    .option("--max-body-mb <n>", "largest HTTP request body in MB", (v) => Number(v), 4)
    .option("--json", "print the endpoints as one JSON line instead of the banner")
    .option("--stop", "stop this home's running serve (e.g. the one `termhive dashboard` started) instead")
    .action(async (o: { port: number; host: string; grpcPort?: number; grpcTcp: boolean; auth: string; maxBodyMb: number; json?: boolean; stop?: boolean }) => {
      if (o.stop) {
        const home = loadConfig().home;
        const stopped = await stopServe(home);
        process.stdout.write(o.json ? `${JSON.stringify({ stopped: stopped !== undefined, pid: stopped?.pid ?? null })}\n` : `${stoppedText(home, stopped)}\n`);
        return;
      }
      if (o.auth !== "on" && o.auth !== "off") throw new Error(`--auth must be on or off, not ${o.auth}`);
      if (!(o.maxBodyMb > 0)) throw new Error(`--max-body-mb must be a positive number`);
      await serveCommand({
        host: o.host,
        port: o.port,
        grpcTcp: o.grpcTcp,
        grpcPort: o.grpcPort ?? (o.port === 0 ? 0 : o.port + 1),
        auth: o.auth === "on",
        maxBodyBytes: Math.round(o.maxBodyMb * 1024 * 1024),
        json: o.json,
      }).catch((error: unknown) => {
        // Port in use, live socket, bad host: one clear line, no stack.
        process.stderr.write(`termhive serve: ${(error as Error).message}\n`);
        process.exit(1);
      });
    });
}
