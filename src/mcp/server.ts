import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { TermhiveService } from "../service/service.js";
import { registerTerminalTools } from "./tools.js";
import { VERSION } from "../version.js";

export function createMcpServer(service: TermhiveService, clientId?: string): McpServer {
  const server = new McpServer(
    { name: "termhive", version: VERSION },
    {
      instructions:
        "termhive gives you persistent terminal sessions. Open one with terminal_open, run commands with terminal_run (exact completion and exit codes, also in REPLs and ssh), type into interactive programs with terminal_send, read screens with terminal_read.",
    },
  );
  registerTerminalTools(server, service, clientId);
  return server;
}

export async function serveStdio(service: TermhiveService): Promise<void> {
  const server = createMcpServer(service, "stdio");
  const transport = new StdioServerTransport();
  await server.connect(transport);
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
}
