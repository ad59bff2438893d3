// The backend termhive talks to when sessions may live on other hosts: the local backend for
// panes without a host, one RemoteHost (ssh + the host's tmux) per destination otherwise
// (host-connections.ts). Remote pane ids carry their host (pane-ids.ts), so pane I/O and
// shared state are routed by the pane they name (routing.ts).
import { EventEmitter } from "node:events";
import type { Backend, BackendEvents, CreatePaneOptions, Hosts, Marks, PaneInfo, PausableOutput, SharedState, Windows } from "../backend.js";
import { HostConnections, type HostRouterOptions } from "./host-connections.js";
import { onHost, splitPaneId, splitWindowId } from "./pane-ids.js";
import { byPane, routedMarks, routedPausable, routedWindows, sharedByPane, type Routes } from "./routing.js";

export type { HostRouterOptions } from "./host-connections.js";
export { remotePaneId, splitPaneId } from "./pane-ids.js";

export class HostRouter implements Backend, Routes {
  private readonly events = new EventEmitter();
  private readonly connections: HostConnections;

  readonly writeInput = byPane(this, "writeInput");
  readonly sendKeys = byPane(this, "sendKeys");
  readonly resize = byPane(this, "resize");
  readonly setMeta = byPane(this, "setMeta");
  readonly snapshot = byPane(this, "snapshot");
  readonly kill = byPane(this, "kill");
  readonly focus = byPane(this, "focus");
  readonly shared: SharedState = { readShared: sharedByPane(this, "readShared"), writeShared: sharedByPane(this, "writeShared"), swapShared: sharedByPane(this, "swapShared") };

  readonly windows: Windows = routedWindows(this);
  readonly marks: Marks = routedMarks(this, (paneId) => splitPaneId(paneId) !== null);
  readonly pausable: PausableOutput = routedPausable(this);
  readonly hosts: Hosts;

  constructor(
    readonly local: Backend,
    options: HostRouterOptions,
  ) {
    this.events.setMaxListeners(0);
    this.connections = new HostConnections(options, this.events);
    this.hosts = this.connections;
    for (const event of ["output", "exit", "closed", "gap", "down"] as const) {
      local.on(event, (...args: unknown[]) => this.events.emit(event, ...args));
    }
  }

  get kind() {
    return this.local.kind;
  }

  get warning() {
    return this.local.warning;
  }

  get connected(): boolean {
    return this.local.connected;
  }

  start(): Promise<void> {
    this.connections.resume();
    return this.local.start();
  }

  on<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.on(event, listener as (...args: unknown[]) => void);
  }

  off<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.off(event, listener as (...args: unknown[]) => void);
  }

  /** The backend and its own pane id for one of our pane ids. */
  async route(paneId: string): Promise<{ backend: Backend; paneId: string }> {
    const remote = splitPaneId(paneId);
    if (!remote) return { backend: this.local, paneId };
    return { backend: await this.connections.backendOf(remote.host), paneId: remote.paneId };
  }

  async routeWindow(windowId: string): Promise<{ backend: Backend; id: string }> {
    const remote = splitWindowId(windowId);
    if (!remote) return { backend: this.local, id: windowId };
    return { backend: await this.connections.backendOf(remote.host), id: remote.windowId };
  }

  async createPane(options: CreatePaneOptions): Promise<PaneInfo> {
    const host = options.meta.host;
    if (!host) {
      if (options.splitFrom && splitPaneId(options.splitFrom.paneId)) throw new Error("a local pane cannot split a remote one");
      return this.local.createPane(options);
    }
    const backend = await this.connections.backendOf(this.connections.checked(host));
    let splitFrom = options.splitFrom;
    if (splitFrom) {
      const from = splitPaneId(splitFrom.paneId);
      if (from?.host !== host) throw new Error(`a pane on ${host} can only split a pane of the same host`);
      splitFrom = { ...splitFrom, paneId: from.paneId };
    }
    this.connections.remember(host);
    return onHost(await backend.createPane({ ...options, splitFrom }), host);
  }

  async listPanes(): Promise<PaneInfo[]> {
    const leftOut = new Set<string>();
    const [local, remote] = await Promise.all([this.local.listPanes(), this.connections.listRemembered(leftOut)]);
    this.connections.lastLeftOut = leftOut;
    return [...local, ...remote];
  }

  async paneInfo(paneId: string): Promise<PaneInfo | undefined> {
    const { backend, paneId: own } = await this.route(paneId);
    const info = await backend.paneInfo(own);
    const remote = splitPaneId(paneId);
    return info && remote ? onHost(info, remote.host) : info;
  }

  attachCommand(paneId: string): string | null {
    const remote = splitPaneId(paneId);
    if (!remote) return this.local.attachCommand(paneId);
    return this.connections.attachCommand(remote.host, remote.paneId);
  }

  async reapExited(): Promise<void> {
    await this.local.reapExited?.();
    await this.connections.reapExited();
  }

  async stop(): Promise<void> {
    await Promise.all([this.local.stop(), this.connections.stop()]);
  }
}
