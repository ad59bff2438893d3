import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio as serveEras, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { ServiceRoot } from "../service/root.js";
import { DeferredRoot, RootGate } from "./stdio/deferred-root.js";
import { STDIO_ENVELOPE_BYTES, StdioLineLimit } from "./stdio/stdio-lines.js";
import { callerPane } from "../util/caller-pane.js";
import { traced } from "../util/traced.js";
import { registerTools } from "./tools.js";
import { registerResources, type ResourceDelivery } from "./resources.js";
import { resourceFeed } from "./resource-feed.js";
import { ListenTap } from "./stdio/listen-tap.js";
import { registerPrompts } from "./prompts.js";
import { eraWire } from "./stdio/era.js";
import { VERSION } from "../version.js";
import { instructionsFor } from "./stdio/early-discover.js";
import type { Readable } from "node:stream";

export { instructionsFor };
import type { TermhiveConfig, ToolFamily } from "../config.js";

/**
 * `config`: the root's, unless the root is not composed yet (stdio, deferred-root.ts).
 * `delivery`: how resource changes reach the client (resources.ts); 2025's by default.
 */
export function createMcpServer(root: ServiceRoot, clientId?: string, config: TermhiveConfig = root.terminal.config, delivery: ResourceDelivery = "subscribed"): McpServer {
  const server = new McpServer(
    { name: "termhive", version: VERSION },
    {
      // logging/setLevel is part of the generic MCP server surface (conformance: logging-set-level).
      capabilities: { logging: {} },
      instructions: instructionsFor(config.toolFamilies),
    },
  );
  // The hive store opens on first use: a database that cannot be opened (locked, corrupt)
  // fails the hive calls with its reason and never takes the terminal tools down.
  const { terminal, hive } = root;
  const families = config.toolFamilies;
  // Over stdio this process is the client's own child: its environment names the client's pane.
  const pane = clientId === "stdio" ? callerPane() : undefined;
  registerTools(server, { terminal, hive: () => hive }, { clientId, families, elicit: config.elicit, home: config.home, ...(pane ? { pane } : {}) });
  registerResources(server, terminal, families.includes("hive") ? hive : undefined, delivery);
  registerPrompts(server);
  return server;
}

/**
 * Serves one client over stdio until it closes, in the era its opening asks for (era.ts):
 * the SDK's serveStdio builds one server per connection from the factory. The root is
 * composed just after the first answers (deferred-root.ts). A root that fails to compose
 * rejects, as it did at start.
 */
/**
 * `opening`: where the rest of stdin is, when its first line was looked at before the SDK was
 * loaded, and whether it was a discover answered then (early-discover.ts).
 */
export async function serveStdio(config: TermhiveConfig, root: DeferredRoot, opening: { input: Readable; answeredDiscover: boolean } = { input: process.stdin, answeredDiscover: false }): Promise<void> {
  let failed: (error: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  // termhive keeps the line limit (stdio-lines.ts); the SDK's own buffer is set past it so an
  // over-long request is answered and dropped instead of closing the transport.
  const limit = config.maxInputBytes + STDIO_ENVELOPE_BYTES;
  const stdin = opening.input.pipe(new StdioLineLimit(limit, (line) => process.stdout.write(line), (line) => process.stderr.write(line + "\n")));
  const stdio = new StdioServerTransport(stdin, process.stdout, { maxBufferSize: limit + STDIO_ENVELOPE_BYTES });
  // serveStdio owns the transport's handlers; the SDK's transport closes itself when its
  // input ends or closes, and so does this server.
  const closed = new Promise<void>((resolve) => {
    for (const stream of [opening.input, stdin]) for (const event of ["end", "close"]) stream.once(event, () => resolve());
  });
  const { transport, legacy } = eraWire(config.mcpEra, new RootGate(stdio, root, (error) => failed(error), opening.answeredDiscover));
  const view = root.view();
  // A 2026 connection's resource changes go through serveStdio's listen router, which filters
  // them per subscription; the tap watches what its client listens to (listen-tap.ts).
  const feed = () => resourceFeed(view.terminal, config.toolFamilies.includes("hive") ? view.hive : undefined);
  serveEras(({ era }) => createMcpServer(view, "stdio", config, era === "modern" ? "all" : "subscribed"), {
    transport: new ListenTap(transport, feed),
    legacy,
    onerror: (error) => traced("serving MCP over stdio")(error),
  });
  await Promise.race([closed, failure]);
}
