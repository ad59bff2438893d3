// The stdio server answers its first messages before the services exist.
//
// Why: a client waits for `initialize` and `tools/list` before it can use termhive, and
// neither needs a session, the hive or the backend; importing and composing those (the
// service, hive, backends, output and safety code) is a third of the server's CPU time to
// its first tool list. So the MCP server is built over views of a root composed a moment
// later, and a gate in front of the transport lets through only the requests that need no
// root until it is ready; everything else waits in arrival order and is delivered once it
// is. The root is composed after the first tool list is answered, when a message needs it,
// or after COMPOSE_AFTER_MS in any case, so what it does on its own at start (the crew,
// restores) still starts without a client call — unless the first message is a 2026
// client's `server/discover`: such a client may probe in a short-lived sibling process
// that must start no tmux server, write no state and run no notifier (issue 34 §5), so
// after a discover only a request that needs the root composes it.
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import type { ServiceRoot } from "../../service/root.js";
import { LayeredTransport } from "./layered-transport.js";

/** Requests answered from what the server holds from the start (no session, hive or backend). */
const ROOT_FREE = new Set(["initialize", "server/discover", "tools/list", "ping"]);
/** A client that stays silent still gets its background duties started this soon. */
const COMPOSE_AFTER_MS = 500;

export class DeferredRoot {
  private root: ServiceRoot | undefined;
  private loading: Promise<ServiceRoot> | undefined;

  constructor(private readonly compose: () => Promise<ServiceRoot>) {}

  /** Composes the root once; later calls get the same promise. */
  load(): Promise<ServiceRoot> {
    return (this.loading ??= this.compose().then((root) => (this.root = root)));
  }

  get ready(): boolean {
    return this.root !== undefined;
  }

  /**
   * A root whose parts forward to the composed one. Only touched in handlers the gate
   * holds until the root is ready; a touch before that is a bug, reported as such.
   */
  view(): ServiceRoot {
    return {
      terminal: this.part("terminal"),
      hive: this.part("hive"),
      crew: this.part("crew"),
      dispose: () => this.dispose(),
    };
  }

  /** Ends the root if it was composed or is being composed; nothing to end otherwise. */
  async dispose(): Promise<void> {
    if (!this.loading) return;
    await (await this.loading).dispose();
  }

  private part<K extends "terminal" | "hive" | "crew">(key: K): ServiceRoot[K] {
    const real = (): ServiceRoot[K] => {
      if (!this.root) throw new Error(`termhive: the ${key} service was used before it was composed`);
      return this.root[key];
    };
    // Methods are bound to the real object: its private fields are not the proxy's.
    return new Proxy({} as ServiceRoot[K], {
      get: (_, prop) => {
        const target = real();
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
      set: (_, prop, value) => Reflect.set(real(), prop, value),
      has: (_, prop) => Reflect.has(real(), prop),
    });
  }
}

/** A transport that holds every message needing the root until the root is composed. */
export class RootGate extends LayeredTransport {
  private readonly held: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> = [];
  private readonly listRequests = new Set<string | number>();
  private timer: NodeJS.Timeout | undefined;
  private composing = false;
  private first = true;

  constructor(
    inner: Transport,
    private readonly root: DeferredRoot,
    private readonly onFailure: (error: unknown) => void,
    /** The connection opened with a discover answered before this gate (early-discover.ts). */
    private readonly openedByDiscover = false,
  ) {
    super(inner);
    if (openedByDiscover) this.first = false;
  }

  protected override started(): void {
    if (!this.openedByDiscover) this.timer = setTimeout(() => this.compose(), COMPOSE_AFTER_MS);
  }

  protected override ending(): void {
    clearTimeout(this.timer);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.inner.send(message, options);
    if ("id" in message && !("method" in message) && message.id !== undefined && this.listRequests.delete(message.id)) this.compose();
  }

  protected route(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const request = "method" in message && "id" in message ? message : undefined;
    if (this.first && request?.method === "server/discover") clearTimeout(this.timer);
    this.first = false;
    if (this.root.ready || (request && ROOT_FREE.has(request.method))) {
      if (request?.method === "tools/list" && !this.root.ready) this.listRequests.add(request.id);
      this.onmessage?.(message, extra);
      return;
    }
    this.held.push([message, extra]);
    if (request) this.compose();
  }

  private compose(): void {
    clearTimeout(this.timer);
    if (this.composing) return;
    this.composing = true;
    this.root.load().then(
      () => {
        for (const [message, extra] of this.held.splice(0)) this.onmessage?.(message, extra);
      },
      (error: unknown) => this.onFailure(error),
    );
  }
}
