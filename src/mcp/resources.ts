// MCP resources: what a client can read and subscribe to without calling a tool —
// the session list, a session's screen and recent output, and (with a hive) agents, teams, events.
// Subscriptions are per McpServer instance (one per client / HTTP session): each keeps its own
// set of subscribed URIs and its own listeners, removed when its transport closes.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { BackendEvents } from "../backends/backend.js";
import type { HiveService } from "../service/hive-service.js";
import type { TermhiveService } from "../service/service.js";
import type { TerminalSession } from "../terminal/session.js";

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
    throw new McpError(-32002, (error as Error).message);
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

/** One client's subscriptions and the listeners that turn changes into notifications. */
class Subscriptions {
  private readonly uris = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Sessions we listen to, for subscribed screen/output URIs. */
  private readonly attached = new Map<TerminalSession, () => void>();
  /** Every live session's exit/gone listeners, for the session list. */
  private readonly lifecycle = new Map<TerminalSession, () => void>();
  private sessionsKey = "";
  private closed = false;
  private readonly detachAll: (() => void)[] = [];

  constructor(
    private readonly server: McpServer,
    private readonly service: TermhiveService,
    private readonly hive: HiveService | undefined,
  ) {}

  install(): void {
    const mcp = this.server.server;
    mcp.setRequestHandler(SubscribeRequestSchema, async (request) => {
      // Any URI is accepted (the MCP conformance suite subscribes to test://watched-resource);
      // one that names nothing of ours is tracked but never updated.
      this.uris.add(request.params.uri);
      await this.reconcile();
      return {};
    });
    mcp.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      this.uris.delete(request.params.uri);
      const timer = this.timers.get(request.params.uri);
      if (timer) clearTimeout(timer);
      this.timers.delete(request.params.uri);
      await this.reconcile();
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
    // The registry emits nothing itself: opens show up as backend output (a new pane prints its
    // prompt), exits and outside closes as backend events, and our own closes only as the
    // session's "gone" — so listen to both and compare the session set after each burst.
    const backend = this.service.backend;
    const onPane = () => this.checkSoon();
    const events: (keyof BackendEvents)[] = ["output", "exit", "closed", "down"];
    for (const e of events) backend.on(e, onPane);
    this.detachAll.push(() => { for (const e of events) backend.off(e, onPane); });
    this.detachAll.push(() => { for (const detach of this.lifecycle.values()) detach(); this.lifecycle.clear(); });
    this.sessionsKey = this.keyOf();
    this.watchLifecycle();
    if (this.hive) {
      const onChange = () => {
        this.notify(AGENTS_URI);
        this.notify(TEAMS_URI);
        this.notify(EVENTS_URI);
      };
      this.hive.changes.on("change", onChange);
      this.detachAll.push(() => this.hive!.changes.off("change", onChange));
    }
  }

  /** Identity of the session list: which sessions exist and whether they are alive. */
  private keyOf(): string {
    return this.service.registry.all().map((s) => `${s.id}:${s.name}:${s.alive}`).sort().join(",");
  }

  private checkSoon(): void {
    this.schedule("check:sessions", () => void this.checkSessions());
  }

  /** Follows every live session's exit/gone (terminal_close kills a pane the registry already forgot). */
  private watchLifecycle(): void {
    const live = new Set(this.service.registry.all());
    for (const [session, detach] of this.lifecycle) {
      if (!live.has(session)) {
        detach();
        this.lifecycle.delete(session);
      }
    }
    if (this.closed) return;
    for (const session of live) {
      if (this.lifecycle.has(session)) continue;
      const ended = () => this.checkSoon();
      session.on("exit", ended);
      session.on("gone", ended);
      this.lifecycle.set(session, () => {
        session.off("exit", ended);
        session.off("gone", ended);
      });
    }
  }

  private async checkSessions(): Promise<void> {
    this.watchLifecycle();
    const key = this.keyOf();
    if (key === this.sessionsKey) return;
    this.sessionsKey = key;
    this.notify(SESSIONS_URI);
    // The screen/output templates list one instance per session: that list changed too.
    if (!this.closed) this.server.sendResourceListChanged();
    await this.reconcile();
  }

  /** Attaches to the sessions subscribed URIs name, detaches from the rest. */
  private async reconcile(): Promise<void> {
    const wanted = new Set<TerminalSession>();
    for (const uri of this.uris) {
      const m = SESSION_URI.exec(uri);
      if (!m) continue;
      const ref = decodeURIComponent(m[1]!);
      const session = await this.service.session(ref).catch(() => undefined);
      if (session && !session.goneReason) wanted.add(session);
    }
    for (const [session, detach] of this.attached) {
      if (!wanted.has(session)) {
        detach();
        this.attached.delete(session);
      }
    }
    if (this.closed) return;
    for (const session of wanted) if (!this.attached.has(session)) this.attach(session);
  }

  private attach(session: TerminalSession): void {
    const changed = () => {
      for (const uri of this.uris) {
        const m = SESSION_URI.exec(uri);
        if (!m) continue;
        const ref = decodeURIComponent(m[1]!);
        if (ref === session.id || ref === session.name) this.notify(uri);
      }
    };
    const ended = () => {
      changed();
      this.checkSoon();
    };
    session.on("output", changed);
    session.on("screen", changed);
    session.on("exit", ended);
    session.on("gone", ended);
    this.attached.set(session, () => {
      session.off("output", changed);
      session.off("screen", changed);
      session.off("exit", ended);
      session.off("gone", ended);
    });
  }

  private notify(uri: string): void {
    if (!this.uris.has(uri)) return;
    this.schedule(uri, () => {
      if (this.closed || !this.uris.has(uri)) return;
      void this.server.server.sendResourceUpdated({ uri }).catch(() => {});
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
    for (const detach of this.attached.values()) detach();
    this.attached.clear();
    for (const detach of this.detachAll) detach();
    this.detachAll.length = 0;
    this.uris.clear();
  }
}
