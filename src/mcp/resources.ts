// MCP resources: what a client can read and subscribe to without calling a tool —
// the session list, a session's screen and recent output, and (with a hive) agents, teams, events.
// Changes are published once per process (resource-feed.ts); each McpServer instance (one per
// client / HTTP session) delivers those its client asked for, until its transport closes.
import { McpServer, ProtocolError, ResourceTemplate, type ServerEvent } from "@modelcontextprotocol/server";
import type { HiveService } from "../service/hive-service.js";
import type { TermhiveService } from "../service/service.js";
import { DisposableStore, toDisposable, type Disposable } from "../util/lifecycle.js";
import { AGENTS_URI, EVENTS_URI, SESSIONS_URI, TEAMS_URI, resourceFeed, type ResourceFeed } from "./resource-feed.js";
import type { TerminalSession } from "../terminal/session/session.js";
import { traced } from "../util/traced.js";


/** Lines of the output resource: enough context to follow a session, bounded for a model's context. */
const OUTPUT_LINES = 200;
/** Hive events in the events resource. */
const EVENT_COUNT = 100;
/** Read cursors and screen-diff state of the resource reader: never a real client's. */
const RESOURCE_CLIENT = "termhive:resource";

function sessionUri(ref: string, kind: "screen" | "output"): string {
  return `termhive://session/${encodeURIComponent(ref)}/${kind}`;
}

function json(uri: URL, value: unknown) {
  return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value, null, 2) }] };
}

function text(uri: URL, value: string) {
  return { contents: [{ uri: uri.href, mimeType: "text/plain", text: value }] };
}

/** A session named in a URI; unknown → the MCP "resource not found" error (-32002) with the tool's hint. */
async function sessionFor(service: TermhiveService, ref: string): Promise<TerminalSession> {
  try {
    return await service.session(ref);
  } catch (error) {
    throw new ProtocolError(-32002, (error as Error).message);
  }
}

/**
 * How a server passes the feed's changes to its client: `subscribed` (2025: resources/subscribe,
 * after `initialized`), `all` (a 2026 stdio connection: serveStdio's listen router filters
 * them), `none` (a 2026 HTTP request: createMcpHandler's router reads the bus itself).
 */
export type ResourceDelivery = "subscribed" | "all" | "none";

export function registerResources(server: McpServer, service: TermhiveService, hive?: HiveService, delivery: ResourceDelivery = "subscribed"): void {
  // Declared before connect: McpServer itself only declares listChanged.
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });

  server.registerResource(
    "sessions",
    SESSIONS_URI,
    { title: "Terminal sessions", description: "Every session (same as terminal_list): name, id, alive, foreground program, cwd, running command, last exit code, idle seconds.", mimeType: "application/json" },
    async (uri) => json(uri, await service.list()),
  );

  // Template instances are the live sessions, listed by name (names are what models use).
  const instances = (kind: "screen" | "output") => async () => {
    const { sessions } = await service.list();
    return {
      resources: sessions.map((s) => ({
        uri: sessionUri(s.name, kind),
        name: `${s.name} ${kind}`,
        title: `${s.name} · ${kind === "screen" ? "screen" : `last ${OUTPUT_LINES} lines`}`,
        mimeType: "text/plain",
      })),
    };
  };
  const completeSession = {
    session: async (value: string) => (await service.list()).sessions.map((s) => s.name).filter((n) => n.startsWith(value)),
  };

  server.registerResource(
    "session-screen",
    new ResourceTemplate("termhive://session/{session}/screen", { list: instances("screen"), complete: completeSession }),
    { title: "Session screen", description: "The rendered screen of a session (what a person attached to it sees), as text.", mimeType: "text/plain" },
    async (uri, variables) => {
      const session = await sessionFor(service, decodeURIComponent(String(variables.session)));
      const r = await service.read({ session: session.id, mode: "screen" }, { clientId: RESOURCE_CLIENT });
      return text(uri, r.output);
    },
  );

  server.registerResource(
    "session-output",
    new ResourceTemplate("termhive://session/{session}/output", { list: instances("output"), complete: completeSession }),
    { title: "Session output", description: `The last ${OUTPUT_LINES} lines of a session's output, cleaned (escape codes removed, long runs folded). Reading it moves nobody's terminal_read cursor.`, mimeType: "text/plain" },
    async (uri, variables) => {
      const session = await sessionFor(service, decodeURIComponent(String(variables.session)));
      // mode "lines" reads a range without touching any read cursor (mode "new" would move one).
      const last = session.transcript.lineCount;
      const r = await service.read(
        { session: session.id, mode: "lines", from_line: Math.max(1, last - OUTPUT_LINES + 1), to_line: Math.max(1, last) },
        { clientId: RESOURCE_CLIENT },
      ).catch((error: Error) => {
        // A session that printed nothing yet has no line 1.
        if (last === 0) return { output: "" };
        throw error;
      });
      return text(uri, r.output);
    },
  );

  if (hive) {
    server.registerResource(
      "agents",
      AGENTS_URI,
      { title: "Hive agents", description: "Every registered agent: name, team, profile, status (idle, working, waiting_for_input, error, exited…), session.", mimeType: "application/json" },
      async (uri) => json(uri, await hive.listAgents({})),
    );
    server.registerResource(
      "teams",
      TEAMS_URI,
      { title: "Hive teams", description: "The team tree with each team's agents.", mimeType: "application/json" },
      async (uri) => json(uri, hive.listTeams()),
    );
    server.registerResource(
      "events",
      EVENTS_URI,
      { title: "Hive events", description: `The last ${EVENT_COUNT} hive events (status changes, watcher hits, messages, agent lifecycle), oldest first; cursor is what hive_events since= takes.`, mimeType: "application/json" },
      async (uri) => {
        const latest = hive.hive.events.latestCursor();
        return json(uri, await hive.events({ since: Math.max(0, latest - EVENT_COUNT), limit: EVENT_COUNT }));
      },
    );
  }

  new Subscriptions(server, () => resourceFeed(service, hive)).install(delivery);
}

/**
 * One server's delivery of the feed's changes. A 2025 client's: the URIs it subscribed to
 * (resources/subscribe), from its `initialized` on (a server that never connects leaks
 * nothing), and every list change (unsolicited, as 2025 servers send them). A 2026 client's
 * (stdio): every change the feed publishes, which the SDK's listen router turns into
 * notifications on the client's `subscriptions/listen` streams, or drops when none asked for
 * it; the URIs are watched by the listen tap (listen-tap.ts).
 */
class Subscriptions {
  private readonly uris = new Map<string, Promise<Disposable>>();
  private closed = false;
  private readonly wiring = new DisposableStore();

  constructor(
    private readonly server: McpServer,
    private readonly feed: () => ResourceFeed,
  ) {}

  install(delivery: ResourceDelivery): void {
    const mcp = this.server.server;
    mcp.setRequestHandler("resources/subscribe", async (request) => {
      // Any URI is accepted (the MCP conformance suite subscribes to test://watched-resource);
      // one that names nothing of ours is tracked but never updated.
      const uri = request.params.uri;
      if (!this.uris.has(uri)) {
        const lease = this.feed().watch([uri]);
        this.uris.set(uri, lease);
        await lease;
      }
      return {};
    });
    mcp.setRequestHandler("resources/unsubscribe", async (request) => {
      const lease = this.uris.get(request.params.uri);
      this.uris.delete(request.params.uri);
      (await lease)?.dispose();
      return {};
    });
    const previousClose = mcp.onclose;
    mcp.onclose = () => {
      previousClose?.();
      this.close();
    };
    if (delivery === "none") return;
    if (delivery === "all") {
      this.deliver((event) => event.kind === "resource_updated" || event.kind === "resources_list_changed");
      return;
    }
    const previousInit = mcp.oninitialized;
    mcp.oninitialized = () => {
      previousInit?.();
      if (this.closed) return;
      // The list changes are every client's: the feed starts with the first watch.
      const lease = this.feed().watch([]);
      this.wiring.add(toDisposable(() => void lease.then((l) => l.dispose())));
      this.deliver((event) => event.kind === "resources_list_changed" || (event.kind === "resource_updated" && this.uris.has(event.uri)));
    };
  }

  private deliver(wanted: (event: ServerEvent) => boolean): void {
    // The bus exists before the root: subscribing touches no service.
    this.wiring.add(toDisposable(this.feed().bus.subscribe((event) => {
      if (this.closed || !wanted(event)) return;
      if (event.kind === "resources_list_changed") this.server.sendResourceListChanged();
      else if (event.kind === "resource_updated") void this.server.server.sendResourceUpdated({ uri: event.uri }).catch(traced("sending a resource update"));
    })));
  }

  private close(): void {
    this.closed = true;
    this.wiring.dispose();
    for (const lease of this.uris.values()) void lease.then((l) => l.dispose());
    this.uris.clear();
  }
}
