// What changes in the resources (resources.ts), told once per process to every client of it.
//
// Why one feed per process, not per client: the 2026 era has no per-client subscription
// state on the server — a `subscriptions/listen` stream is served by the SDK's listen
// router (serveStdio's on stdio, createMcpHandler's on HTTP), which subscribes to a
// `ServerEventBus` and passes on only the URIs its client asked for. So this process
// publishes each change once into its bus (`bus`), debounced per URI, and each door's
// router (or, for a 2025 client, its server's Subscriptions in resources.ts) filters it.
// A change another termhive process makes on the same home reaches this one as it reaches
// a 2025 subscriber today: a session's output through tmux control mode once the session is
// adopted here (watch adopts the sessions its URIs name), an agent's status through the
// store follower (hive.onAgentChanged).
//
// Only watched URIs are published (a burst in an unwatched pane costs no event), and the
// registry is wired on the first watch, after the root is composed (never before a client
// asked: a discover probe starts nothing, deferred-root.ts).
import { InMemoryServerEventBus, type ServerEventBus, type SubscriptionFilter } from "@modelcontextprotocol/server";
import type { HiveService } from "../service/hive-service.js";
import type { TermhiveService } from "../service/service.js";
import type { TerminalSession } from "../terminal/session/session.js";
import { DisposableStore, toDisposable, type Disposable } from "../util/lifecycle.js";
import { traced } from "../util/traced.js";

export const SESSIONS_URI = "termhive://sessions";
export const AGENTS_URI = "termhive://agents";
export const TEAMS_URI = "termhive://teams";
export const EVENTS_URI = "termhive://events";
const HIVE_URIS = new Set([AGENTS_URI, TEAMS_URI, EVENTS_URI]);
const SESSION_URI = /^termhive:\/\/session\/([^/]+)\/(screen|output)$/;

/**
 * Output arrives in bursts of small chunks (one per tmux %output line); one "updated" per burst
 * instead of one per chunk keeps clients from re-reading a resource dozens of times a second.
 */
const DEBOUNCE_MS = 100;

/** The session a screen/output URI names (id or name), if it is one. */
export function sessionRef(uri: string): string | undefined {
  const m = SESSION_URI.exec(uri);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

export class ResourceFeed {
  /** Where the changes go: the listen routers and the 2025 servers subscribe here. */
  readonly bus: ServerEventBus = new InMemoryServerEventBus(traced("delivering a resource change"));
  /** Watched URIs and how many watchers each has. */
  private readonly watched = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly wiring = new DisposableStore();
  private started = false;
  private disposed = false;
  private sessionsKey = "";

  constructor(
    private readonly service: TermhiveService,
    private readonly hive: HiveService | undefined,
  ) {}

  /**
   * Publishes changes of these URIs until the lease is disposed (the list of sessions changing
   * is published to every watcher). A session URI's session is adopted first, so the output of
   * a session another process opened reaches this one. Resolves once that is done.
   */
  async watch(uris: readonly string[]): Promise<Disposable> {
    this.start();
    for (const uri of uris) this.watched.set(uri, (this.watched.get(uri) ?? 0) + 1);
    let live = true;
    const lease = toDisposable(() => {
      if (!live) return;
      live = false;
      for (const uri of uris) this.unwatch(uri);
    });
    const adopting: Promise<unknown>[] = uris.map((uri) => sessionRef(uri)).filter((ref) => ref !== undefined).map((ref) => this.service.session(ref).catch(() => undefined));
    // Another process's status changes are followed for the agents bound here (the store
    // follower watches the tracked sessions): the sync binds the stored agents to their panes.
    const hive = this.hive;
    if (hive && uris.some((uri) => HIVE_URIS.has(uri))) adopting.push(hive.sync().catch(traced("binding the agents for a resource watch")));
    await Promise.all(adopting);
    return lease;
  }

  /** A 2026 `subscriptions/listen` filter's URIs, watched for as long as its stream is open. */
  watchFilter(filter: SubscriptionFilter | undefined): Promise<Disposable> {
    return this.watch(filter?.resourceSubscriptions ?? []);
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.wiring.dispose();
    this.watched.clear();
  }

  private unwatch(uri: string): void {
    const count = (this.watched.get(uri) ?? 0) - 1;
    if (count > 0) {
      this.watched.set(uri, count);
      return;
    }
    this.watched.delete(uri);
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
  }

  private start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
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
        for (const uri of [AGENTS_URI, TEAMS_URI, EVENTS_URI]) this.updated(uri);
      }));
    }
  }

  /** Identity of the session list: which sessions exist and whether they are alive. */
  private keyOf(): string {
    return this.service.registry.all().map((s) => `${s.id}:${s.name}:${s.alive}`).sort().join(",");
  }

  private checkSoon(): void {
    this.schedule("check:sessions", () => {
      const key = this.keyOf();
      if (key === this.sessionsKey) return;
      this.sessionsKey = key;
      this.publishUpdated(SESSIONS_URI);
      // The screen/output templates list one instance per session: that list changed too.
      this.bus.publish({ kind: "resources_list_changed" });
    });
  }

  /** The watched screen/output URIs that name this session (by id or name). */
  private changed(session: TerminalSession): void {
    for (const uri of this.watched.keys()) {
      const ref = sessionRef(uri);
      if (ref === session.id || ref === session.name) this.updated(uri);
    }
  }

  private updated(uri: string): void {
    if (this.watched.has(uri)) this.schedule(uri, () => this.publishUpdated(uri));
  }

  private publishUpdated(uri: string): void {
    if (this.watched.has(uri)) this.bus.publish({ kind: "resource_updated", uri });
  }

  /** Debounced (see DEBOUNCE_MS): the first change of a burst starts the timer, later ones ride on it. */
  private schedule(key: string, fire: () => void): void {
    if (this.disposed || this.timers.has(key)) return;
    const timer = setTimeout(() => {
      this.timers.delete(key);
      fire();
    }, DEBOUNCE_MS);
    timer.unref();
    this.timers.set(key, timer);
  }
}

/** One feed per process and service (the stdio door's deferred view, or the HTTP door's root). */
const feeds = new WeakMap<TermhiveService, ResourceFeed>();

/** This process's feed over these services (made on first use; the root must be composed before a watch). */
export function resourceFeed(service: TermhiveService, hive?: HiveService): ResourceFeed {
  let feed = feeds.get(service);
  if (!feed) feeds.set(service, (feed = new ResourceFeed(service, hive)));
  return feed;
}
