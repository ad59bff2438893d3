// MCP resources: what a client can read and subscribe to without calling a tool —
// the session list, a session's screen and recent output, and (with a hive) agents, teams, events.
// Subscriptions are per McpServer instance (one per client / HTTP session): each keeps its own
// set of subscribed URIs and its own listeners, removed when its transport closes.
import { McpServer, ProtocolError, ResourceTemplate } from "@modelcontextprotocol/server";
import type { HiveService } from "../service/hive-service.js";
import type { TermhiveService } from "../service/service.js";
import { DisposableStore } from "../util/lifecycle.js";
import type { TerminalSession } from "../terminal/session/session.js";
import { traced } from "../util/traced.js";

export const SESSIONS_URI = "termhive://sessions";
export const AGENTS_URI = "termhive://agents";
export const TEAMS_URI = "termhive://teams";
export const EVENTS_URI = "termhive://events";
const SESSION_URI = /^termhive:\/\/session\/([^/]+)\/(screen|output)$/;

/** Lines of the output resource: enough context to follow a session, bounded for a model's context. */
const OUTPUT_LINES = 200;
/** Hive events in the events resource. */
const EVENT_COUNT = 100;
/**
 * Output arrives in bursts of small chunks (one per tmux %output line); one "updated" per burst
 * instead of one per chunk keeps clients from re-reading a resource dozens of times a second.
 */
const DEBOUNCE_MS = 100;
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

export function registerResources(server: McpServer, service: TermhiveService, hive?: HiveService): void {
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

  new Subscriptions(server, service, hive).install();
}

/** One client's subscriptions and the registry events that turn changes into notifications. */
class Subscriptions {
  private readonly uris = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private sessionsKey = "";
  private closed = false;
  private readonly wiring = new DisposableStore();

  constructor(
    private readonly server: McpServer,
    private readonly service: TermhiveService,
    private readonly hive: HiveService | undefined,
  ) {}

  install(): void {
    const mcp = this.server.server;
    mcp.setRequestHandler("resources/subscribe", async (request) => {
      // Any URI is accepted (the MCP conformance suite subscribes to test://watched-resource);
      // one that names nothing of ours is tracked but never updated.
      this.uris.add(request.params.uri);
      // Resolving the session adopts it when another process opened it, so its events reach us.
      const ref = sessionRef(request.params.uri);
      if (ref !== undefined) await this.service.session(ref).catch(() => undefined);
      return {};
    });
    mcp.setRequestHandler("resources/unsubscribe", async (request) => {
      this.uris.delete(request.params.uri);
      const timer = this.timers.get(request.params.uri);
      if (timer) clearTimeout(timer);
      this.timers.delete(request.params.uri);
      return {};
    });
    // Listeners start once the client is initialised, so a server that never connects leaks none.
    const previousInit = mcp.oninitialized;
    mcp.oninitialized = () => {
      previousInit?.();
      this.listen();
    };
    const previousClose = mcp.onclose;
    mcp.onclose = () => {
      previousClose?.();
      this.close();
    };
  }

  private listen(): void {
    if (this.closed) return;
    const registry = this.service.registry;
    this.sessionsKey = this.keyOf();
    const listChanged = () => this.checkSoon();
    const sessionChanged = ({ session }: { session: TerminalSession }) => this.changed(session);
    const sessionEnded = ({ session }: { session: TerminalSession }) => {
      this.changed(session);
      this.checkSoon();
    };
    this.wiring.add(registry.onOpened(listChanged));
    this.wiring.add(registry.onOutput(sessionChanged));
    this.wiring.add(registry.onScreenChanged(sessionChanged));
    this.wiring.add(registry.onExited(sessionEnded));
    this.wiring.add(registry.onClosed(sessionEnded));
    if (this.hive) {
      this.wiring.add(this.hive.onAgentChanged(() => {
        this.notify(AGENTS_URI);
        this.notify(TEAMS_URI);
        this.notify(EVENTS_URI);
      }));
    }
  }

  /** Identity of the session list: which sessions exist and whether they are alive. */
  private keyOf(): string {
    return this.service.registry.all().map((s) => `${s.id}:${s.name}:${s.alive}`).sort().join(",");
  }

  private checkSoon(): void {
    this.schedule("check:sessions", () => this.checkSessions());
  }

  private checkSessions(): void {
    const key = this.keyOf();
    if (key === this.sessionsKey) return;
    this.sessionsKey = key;
    this.notify(SESSIONS_URI);
    // The screen/output templates list one instance per session: that list changed too.
    if (!this.closed) this.server.sendResourceListChanged();
  }

  /** Notifies the subscribed screen/output URIs that name this session (by id or name). */
  private changed(session: TerminalSession): void {
    if (this.uris.size === 0) return;
    for (const uri of this.uris) {
      const ref = sessionRef(uri);
      if (ref === session.id || ref === session.name) this.notify(uri);
    }
  }

  private notify(uri: string): void {
    if (!this.uris.has(uri)) return;
    this.schedule(uri, () => {
      if (this.closed || !this.uris.has(uri)) return;
      void this.server.server.sendResourceUpdated({ uri }).catch(traced("sending a resource update"));
    });
  }

  /** Debounced (see DEBOUNCE_MS): the first change of a burst starts the timer, later ones ride on it. */
  private schedule(key: string, fire: () => void): void {
    if (this.closed || this.timers.has(key)) return;
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      fire();
    }, DEBOUNCE_MS));
  }

  private close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.wiring.dispose();
    this.uris.clear();
  }
}

/** The session a screen/output URI names (id or name), if it is one. */
function sessionRef(uri: string): string | undefined {
  const m = SESSION_URI.exec(uri);
  return m ? decodeURIComponent(m[1]!) : undefined;
}
