// The MCP door: one tool per verb of the table (verbs/index.ts), with the verb's title,
// description for a model, annotations, strict input schema, operation and text.
import { isInputRequiredResult, type McpServer, type ServerContext, type Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ToolFamily } from "../config.js";
import type { CallContext } from "../service/service.js";
import { VERBS, type AnyVerb, type Services } from "../verbs/index.js";
import { confirmByPerson, type Elicitor } from "./elicit.js";
import { guard, ok } from "./result.js";
import { strictInput } from "./strict.js";
import { listedTool } from "./tool-list.js";
import { traced } from "../util/traced.js";

export interface ToolOptions {
  clientId?: string;
  /** The pane the client runs in (stdio: this process's environment is the client's). */
  pane?: string;
  /** The families listed (TERMHIVE_TOOLS); all when omitted. */
  families?: readonly ToolFamily[];
  /** Ask the person through the client when the safety gate refuses (TERMHIVE_ELICIT); default true. */
  elicit?: boolean;
  /** The termhive home: its key seals a 2026 client's confirmation state (confirm-seal.ts). */
  home?: string;
}

/**
 * The call context of a tool call: client id for read cursors, progress to the caller. A 2025
 * HTTP session's id keys its cursors; a 2026 request has no session, so its door's own key
 * is used (stdio: "stdio"; HTTP: credential + client, serve/http-modern.ts says why).
 */
function context(ctx: ServerContext, fallbackClient: string, pane: string | undefined): CallContext {
  const token = ctx.mcpReq._meta?.progressToken;
  return {
    clientId: ctx.sessionId ?? fallbackClient,
    ...(pane ? { pane } : {}),
    signal: ctx.mcpReq.signal,
    onProgress:
      token === undefined
        ? undefined
        : (ms, message) => void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: ms / 1000, message } }).catch(traced("sending a progress notification")),
  };
}

/** The verbs of the listed families (the hive family holds the agent_ and team_ tools too). */
export function toolsOf(families?: readonly ToolFamily[]): AnyVerb[] {
  return VERBS.filter((verb) => !families || families.includes(verb.family));
}

/**
 * Each verb's schemas and listing, made once per process: the SDK's serveStdio may build two
 * servers for one connection (a 2026 probe, then a 2025 fallback), and the listing (JSON
 * schemas from zod, ~30–80 ms) waits for the first tools/list — a `server/discover` probe
 * never needs it (issue 34 §5).
 */
const schemas = new Map<AnyVerb, { input: ReturnType<typeof strictInput>; output?: z.ZodObject }>();
const listings = new Map<string, Tool[]>();

function schemasOf(verb: AnyVerb): { input: ReturnType<typeof strictInput>; output?: z.ZodObject } {
  let made = schemas.get(verb);
  if (!made) schemas.set(verb, (made = { input: strictInput(verb.input), ...(verb.structured ? { output: z.object(verb.structured.schema) } : {}) }));
  return made;
}

function listingOf(verbs: AnyVerb[]): Tool[] {
  const key = verbs.map((verb) => verb.name).join(",");
  let listed = listings.get(key);
  if (!listed) listings.set(key, (listed = verbs.map(listedTool)));
  return listed;
}

export function registerTools(server: McpServer, services: Services, options: ToolOptions = {}): void {
  const verbs = toolsOf(options.families);
  const elicitor: Elicitor | undefined = options.elicit === false ? undefined : server.server;
  for (const verb of verbs) {
    const { input: inputSchema, output: outputSchema } = schemasOf(verb);
    server.registerTool(
      verb.name,
      {
        title: verb.title,
        description: verb.description,
        inputSchema,
        annotations: verb.annotations,
        ...(outputSchema ? { outputSchema } : {}),
      },
      ((input: Record<string, unknown>, ctx: ServerContext) =>
        guard(async () => {
          const call = context(ctx, options.clientId ?? "stdio", options.pane);
          const run = (args: Record<string, unknown>) => verb.run(services, args, call);
          const confirmed = "confirm" in verb.input && options.home ? { tool: verb.name, ctx, home: options.home } : undefined;
          const result = "confirm" in verb.input ? await confirmByPerson(elicitor, input, run, confirmed) : await run(input);
          // A 2026 client's question (input_required) goes back as it is; the client retries with the answer.
          if (isInputRequiredResult(result)) return result;
          return ok(result, verb.text(result), verb.structured?.of(result));
        })) as never,
    );
  }
  // Listed lean (tool-list.ts); the SDK's own listing would send the validation-only keywords.
  server.server.setRequestHandler("tools/list", () => ({ tools: listingOf(verbs) }));
}
