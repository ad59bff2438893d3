import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ServiceRoot } from "../service/root.js";
import { registerTools } from "./tools.js";
import { registerResources } from "./resources.js";
import { registerPrompts } from "./prompts.js";
import { VERSION } from "../version.js";

export function createMcpServer(root: ServiceRoot, clientId?: string): McpServer {
  const server = new McpServer(
    { name: "termhive", version: VERSION },
    {
      // logging/setLevel is part of the generic MCP server surface (conformance: logging-set-level).
      capabilities: { logging: {} },
      instructions:
        "termhive gives you persistent terminal sessions. Open one with terminal_open, run commands with terminal_run (exact completion and exit codes, also in REPLs and ssh), type into interactive programs with terminal_send, read screens with terminal_read.",
    },
  );
  // The hive store opens on first use: a database that cannot be opened (locked, corrupt)
  // fails the hive calls with its reason and never takes the terminal tools down.
  const { terminal, hive } = root;
  registerTools(server, { terminal, hive: () => hive }, clientId);
  registerResources(server, terminal, hive);
  registerPrompts(server);
  return server;
}

export async function serveStdio(root: ServiceRoot): Promise<void> {
  const server = createMcpServer(root, "stdio");
  const transport = new StdioServerTransport();
  // Set before connect: the SDK chains a handler it finds, but one set later replaces its own
  // (and with it the server's close handling, e.g. resource subscription clean-up).
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
}
