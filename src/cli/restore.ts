// `termhive restore [name] [--env NAME=VALUE…] [--json]`: agent_restore from a terminal, the
// usual way back after a reboot or a `tmux kill-server` (no MCP client needed). It asks a
// running `termhive serve` when there is one, else restores in this process: the panes live in
// tmux, so they outlast the command.
import { InvalidArgumentError, type Command } from "commander";
import { existsSync } from "node:fs";
import { z } from "zod";
import { loadConfig } from "../config.js";
import { TermhiveClient } from "../grpc/client.js";
import { grpcSocketPath, socketIsLive } from "../grpc/socket.js";
import { composeRoot } from "../service/root.js";
import agentRestore from "../verbs/agent-restore.js";
import { fail, print } from "./output.js";

const envPair = (value: string, previous: Record<string, string> = {}) => {
  const eq = value.indexOf("=");
  if (eq <= 0) throw new InvalidArgumentError("give NAME=VALUE.");
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
};

type Result = Awaited<ReturnType<(typeof agentRestore)["run"]>>;

async function restore(input: Record<string, unknown>): Promise<Result> {
  const config = loadConfig();
  const socket = grpcSocketPath(config.home);
  if (existsSync(socket) && (await socketIsLive(socket, 500))) {
    const client = new TermhiveClient({ socketPath: socket, clientName: "cli" });
    try {
      return (await client.agentRestore(input)) as Result;
    } finally {
      client.closeConnection();
    }
  }
  const root = composeRoot(config);
  try {
    return await root.hive.restore(input as Parameters<typeof root.hive.restore>[0], { clientId: "cli" });
  } finally {
    await root.dispose();
  }
}

export function registerRestore(program: Command): void {
  program
    .command("restore [name]")
    .description("bring back the agents whose panes are gone (after tmux or the machine restarted), resuming their conversations")
    .option("--env <NAME=VALUE>", "a value for an env name the agents were started with (repeatable; default: this environment)", envPair)
    .option("--json", "print JSON")
    .action(async (name: string | undefined, o: { env?: Record<string, string>; json?: boolean }) => {
      let input: Record<string, unknown>;
      try {
        input = z.object(agentRestore.input).parse({ name, env: o.env });
      } catch (error) {
        return fail(o.json, error);
      }
      let result: Result;
      try {
        result = await restore(input);
      } catch (error) {
        return fail(o.json, error);
      }
      print(o.json, result, () => agentRestore.text(result));
      if (result.failed > 0) process.exitCode = 1;
    });
}
