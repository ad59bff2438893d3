// The hosts a HostRouter reaches: one RemoteHost (a transport — ssh or a container's exec — and
// the host's tmux) per destination, its
// events forwarded under remote pane ids, the hosts with sessions remembered, listings that do
// not wait for a host that went silent, and the Hosts capability (setting a host up, files there).
import type { EventEmitter } from "node:events";
import type { Backend, HostAsk, HostFacts, Hosts, PaneInfo } from "../backend.js";
import { checkDestination, hostAddress } from "./destination.js";
import { onHost, remotePaneId, splitPaneId } from "./pane-ids.js";
import { RememberedHosts } from "./remembered-hosts.js";
import { RemoteHost } from "./remote-host.js";
import { transportFor } from "./transport.js";
import type { TmuxBackend } from "../tmux/tmux-backend.js";
import { traced } from "../../util/traced.js";

export interface HostRouterOptions {
  /** TERMHIVE_SSH, split into words. */
  ssh: string[];
  /** TERMHIVE_HOSTS, or null for any destination. */
  allowedHosts: string[] | null;
  historyLimit: number;
  /** Local TERMHIVE_HOME: remembers which hosts have sessions, so a restarted termhive adopts them. */
  home: string;
}

/** How long a listing waits for a host it is not connected to before leaving it out this time. */
const LIST_BUDGET_MS = 3000;

export class HostConnections implements Hosts {
  private readonly hosts = new Map<string, RemoteHost>();
  private readonly subscribed = new WeakSet<Backend>();
  private readonly remembered: RememberedHosts;
  /** Set by the router once a whole listing is in (see hostsLeftOut). */
  lastLeftOut: ReadonlySet<string> = new Set<string>();
  /**
   * Hosts whose link dropped or whose listing failed, until one answers again: their panes are
   * unreachable, not closed, so their agents are not exited (the hive waits for them).
   */
  private readonly down = new Set<string>();

  constructor(
    private readonly options: HostRouterOptions,
    /** The router's emitter: host events go out as its own. */
    private readonly events: EventEmitter,
  ) {
    this.remembered = new RememberedHosts(options.home);
  }

  private remote(host: string): RemoteHost {
    let remote = this.hosts.get(host);
    if (remote) return remote;
    const transport = transportFor(hostAddress(host), this.options.ssh);
    remote = new RemoteHost(host, { transport, historyLimit: this.options.historyLimit });
    this.hosts.set(host, remote);
    return remote;
  }

  checked(host: string): string {
    return checkDestination(host, this.options.allowedHosts);
  }

  /** A remote host's backend, connected, with its events forwarded under remote pane ids. */
  async backendOf(host: string): Promise<TmuxBackend> {
    const backend = await this.remote(host).ensure();
    this.down.delete(host);
    if (!this.subscribed.has(backend)) {
      this.subscribed.add(backend);
      const id = (paneId: string) => remotePaneId(paneId, host);
      backend.on("output", (paneId, data) => this.events.emit("output", id(paneId), data));
      backend.on("exit", (paneId, status, signal) => this.events.emit("exit", id(paneId), status, signal));
      backend.on("closed", (paneId) => this.events.emit("closed", id(paneId)));
      backend.on("gap", (paneId, reason) => this.events.emit("gap", id(paneId), reason));
      backend.on("asked", () => this.events.emit("hostAsked", host));
      // Requests its panes left while no termhive followed the host are taken now, and what a
      // termhive that died mid-request left there is removed.
      setImmediate(() => this.events.emit("hostAsked", host));
      void backend.sweepLeftovers().catch(traced(`removing what an ended termhive left in host ${host}'s tmux`));
      backend.on("down", (reason) => this.hostDown(host, `${this.remote(host).transport.link} dropped (${reason})`));
    }
    return backend;
  }

  async prepareHost(host: string): Promise<HostFacts> {
    const checked = this.checked(host);
    await this.backendOf(checked);
    return this.remote(checked).facts!;
  }

  remember(host: string): void {
    this.remembered.remember(host);
  }

  hostsLeftOut(): ReadonlySet<string> {
    return this.down.size === 0 ? this.lastLeftOut : new Set([...this.lastLeftOut, ...this.down]);
  }

  /** Marked down before the event goes out: whoever hears of its sessions going sees the host left out. */
  private hostDown(host: string, reason: string): void {
    this.down.add(host);
    this.events.emit("hostDown", host, reason);
  }

  /** The panes of every remembered host; those that did not answer in time go into `leftOut`. */
  async listRemembered(leftOut: Set<string>): Promise<PaneInfo[]> {
    const listings = await Promise.all([...this.remembered.all()].map((host) => this.listHost(host, leftOut)));
    return listings.flat();
  }

  /** A remembered host's panes, or none when it cannot be reached now (the reason goes to hostDown). */
  private async listHost(host: string, leftOut: Set<string>): Promise<PaneInfo[]> {
    const listing = (async () => {
      const panes = (await (await this.backendOf(host)).listPanes()).map((pane) => onHost(pane, host));
      this.down.delete(host);
      if (!panes.some((pane) => pane.meta.id)) this.remembered.forget(host);
      return panes;
    })();
    // A host that cannot be reached is left out, as one that answers too slowly: its panes are not closed.
    listing.catch((error: Error) => {
      leftOut.add(host);
      this.hostDown(host, error.message);
    });
    // Connected is no promise of an answer: a frozen host (stopped, or a link that went silent)
    // holds the listing until ssh gives up on it (~30 s), so it gets the same budget.
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<PaneInfo[]>((resolve) => (timer = setTimeout(() => {
      leftOut.add(host);
      resolve([]);
    }, LIST_BUDGET_MS)));
    try {
      return await Promise.race([listing.catch(() => []), budget]);
    } finally {
      clearTimeout(timer);
    }
  }

  async readHostFile(paneId: string, path: string, maxBytes: number): Promise<string> {
    const remote = this.remotePane(paneId);
    const backend = await this.backendOf(remote.host);
    return backend.readFile(`${this.remote(remote.host).facts!.stateDir}/${path}`, maxBytes);
  }

  async writeHostFile(paneId: string, path: string, text: string): Promise<void> {
    const remote = this.remotePane(paneId);
    const backend = await this.backendOf(remote.host);
    await backend.writeFile(`${this.remote(remote.host).facts!.stateDir}/${path}`, text);
  }

  private remotePane(paneId: string): { host: string; paneId: string } {
    const remote = splitPaneId(paneId);
    if (!remote) throw new Error(`pane ${paneId} is local`);
    return remote;
  }

  async takeAsks(host: string, maxBytes: number): Promise<{ asks: HostAsk[]; more: boolean }> {
    return (await this.backendOf(host)).takeAsks(maxBytes);
  }

  async answerAsk(host: string, ask: string, reply: { code: number; stdout: string; stderr: string }): Promise<void> {
    await (await this.backendOf(host)).answerAsk(ask, reply);
  }

  attachCommand(host: string, paneId: string): string {
    return this.remote(host).attachCommand(paneId);
  }

  resume(): void {
    for (const remote of this.hosts.values()) remote.resume();
  }

  async reapExited(): Promise<void> {
    await Promise.all([...this.hosts.values()].filter((h) => h.connected).map((h) => h.backend!.reapExited()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.hosts.values()].map((h) => h.stop()));
  }
}
