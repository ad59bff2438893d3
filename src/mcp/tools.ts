// The MCP door: one tool per verb of the table (verbs/index.ts), with the verb's title,
// description for a model, strict input schema, operation and text.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallContext } from "../service/service.js";
import { VERBS, type Services } from "../verbs/index.js";
import { guard, ok } from "./result.js";
import { strictInput } from "./strict.js";

type Extra = {
  sessionId?: string;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; message?: string } }) => Promise<void>;
};

/** The call context of a tool call: client id for read cursors, progress to the caller. */
function context(extra: Extra, fallbackClient: string): CallContext {
  const token = extra._meta?.progressToken;
  return {
    clientId: extra.sessionId ?? fallbackClient,
    onProgress:
      token === undefined
        ? undefined
        : (ms, message) => void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: ms / 1000, message } }).catch(() => {}),
  };
}

export function registerTools(server: McpServer, services: Services, clientId = "stdio"): void {
  for (const verb of VERBS) {
    server.registerTool(
      verb.name,
      { title: verb.title, description: verb.description, inputSchema: strictInput(verb.input) },
      ((input: Record<string, unknown>, extra: Extra) =>
        guard(async () => {
          const result = await verb.run(services, input, context(extra, clientId));
          return ok(result, verb.text(result));
        })) as never,
    );
  }
}
