// The backend termhive talks to when sessions may live on other hosts: the local backend for
// panes without a host, one RemoteHost (ssh + the host's tmux) per destination otherwise.
// Remote pane ids carry their host ("%3@build-box"), so every per-pane call finds its way and
// the rest of termhive keeps treating pane ids as opaque strings.
import { EventEmitter } from "node:events";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Backend, BackendEvents, CreatePaneOptions, HostFacts, PaneInfo, PaneMark, PaneSnapshot, WindowLayout } from "../backend.js";
import { checkDestination } from "./destination.js";
import { RemoteHost } from "./remote-host.js";
import type { TmuxBackend } from "../tmux/tmux-backend.js";

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
const REMOTE_PANE = /^(%\d+)@(.+)$/;
const REMOTE_WINDOW = /^(@\d+)@(.+)$/;

export function remotePaneId(paneId: string, host: string): string {
  return `${paneId}@${host}`;
}

/** The host and host-side pane id of a remote pane id; null for a local pane. */
export function splitPaneId(paneId: string): { host: string; paneId: string } | null {
  const match = REMOTE_PANE.exec(paneId);
  return match ? { paneId: match[1]!, host: match[2]! } : null;
}

export class HostRouter implements Backend {
  private readonly events = new EventEmitter();
  private readonly hosts = new Map<string, RemoteHost>();
  private readonly subscribed = new WeakSet<Backend>();

  constructor(
    readonly local: Backend,
    private readonly options: HostRouterOptions,
  ) {
    this.events.setMaxListeners(0);
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
    for (const remote of this.hosts.values()) remote.resume();
    return this.local.start();
  }

  on<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.on(event, listener as (...args: unknown[]) => void);
  }

  off<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.off(event, listener as (...args: unknown[]) => void);
  }

  private remote(host: string): RemoteHost {
    let remote = this.hosts.get(host);
    if (remote) return remote;
    remote = new RemoteHost(host, { ssh: this.options.ssh, historyLimit: this.options.historyLimit });
    this.hosts.set(host, remote);
    return remote;
  }

  /** A remote host's backend, connected, with its events forwarded under remote pane ids. */
  private async hostBackend(host: string): Promise<TmuxBackend> {
    const backend = await this.remote(host).ensure();
    if (!this.subscribed.has(backend)) {
      this.subscribed.add(backend);
      const id = (paneId: string) => remotePaneId(paneId, host);
      backend.on("output", (paneId, data) => this.events.emit("output", id(paneId), data));
      backend.on("exit", (paneId, status, signal) => this.events.emit("exit", id(paneId), status, signal));
      backend.on("closed", (paneId) => this.events.emit("closed", id(paneId)));
      backend.on("gap", (paneId, reason) => this.events.emit("gap", id(paneId), reason));
      backend.on("down", (reason) => this.events.emit("hostDown", host, `the ssh connection to ${host} dropped (${reason})`));
    }
    return backend;
  }

  async prepareHost(host: string): Promise<HostFacts> {
    const checked = checkDestination(host, this.options.allowedHosts);
    await this.hostBackend(checked);
    return this.remote(checked).facts!;
  }

  /** The backend and its own pane id for one of our pane ids. */
  private async route(paneId: string): Promise<{ backend: Backend; paneId: string }> {
    const remote = splitPaneId(paneId);
    if (!remote) return { backend: this.local, paneId };
    return { backend: await this.hostBackend(remote.host), paneId: remote.paneId };
  }

  async createPane(options: CreatePaneOptions): Promise<PaneInfo> {
    const host = options.meta.host;
    if (!host) {
      if (options.splitFrom && splitPaneId(options.splitFrom.paneId)) throw new Error("a local pane cannot split a remote one");
      return this.local.createPane(options);
    }
    const backend = await this.hostBackend(checkDestination(host, this.options.allowedHosts));
    let splitFrom = options.splitFrom;
    if (splitFrom) {
      const from = splitPaneId(splitFrom.paneId);
      if (from?.host !== host) throw new Error(`a pane on ${host} can only split a pane of the same host`);
      splitFrom = { ...splitFrom, paneId: from.paneId };
    }
    this.remember(host);
    return onHost(await backend.createPane({ ...options, splitFrom }), host);
  }

  private leftOut = new Set<string>();

  hostsLeftOut(): ReadonlySet<string> {
    return this.leftOut;
  }

  async listPanes(): Promise<PaneInfo[]> {
    const hosts = [...this.rememberedHosts()];
    const leftOut = new Set<string>();
    const [local, ...remote] = await Promise.all([this.local.listPanes(), ...hosts.map((host) => this.listHost(host, leftOut))]);
    this.leftOut = leftOut;
    return [...local!, ...remote.flat()];
  }

  /** A remembered host's panes, or none when it cannot be reached now (the reason goes to hostDown). */
  private async listHost(host: string, leftOut: Set<string>): Promise<PaneInfo[]> {
    const listing = (async () => {
      const panes = (await (await this.hostBackend(host)).listPanes()).map((pane) => onHost(pane, host));
      if (!panes.some((pane) => pane.meta.id)) this.forgetHost(host);
      return panes;
    })();
    listing.catch((error: Error) => this.events.emit("hostDown", host, error.message));
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

  async paneInfo(paneId: string): Promise<PaneInfo | undefined> {
    const { backend, paneId: own } = await this.route(paneId);
    const info = await backend.paneInfo(own);
    const remote = splitPaneId(paneId);
    return info && remote ? onHost(info, remote.host) : info;
  }

  async writeInput(paneId: string, data: Buffer): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.writeInput(own, data);
  }

  async sendKeys(paneId: string, keys: readonly string[]): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.sendKeys(own, keys);
  }

  async resize(paneId: string, rows: number, cols: number): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.resize(own, rows, cols);
  }

  async setMeta(paneId: string, key: string, value: string): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.setMeta(own, key, value);
  }

  // Values kept with the backend server (paneId null: name claims, hive state) stay local:
  // one termhive's names and hive span all its hosts.
  async readShared(paneId: string | null, key: string): Promise<string> {
    if (paneId === null) return this.local.readShared(null, key);
    const { backend, paneId: own } = await this.route(paneId);
    return backend.readShared(own, key);
  }

  async writeShared(paneId: string | null, key: string, value: string): Promise<void> {
    if (paneId === null) return this.local.writeShared(null, key, value);
    const { backend, paneId: own } = await this.route(paneId);
    await backend.writeShared(own, key, value);
  }

  async swapShared(paneId: string | null, key: string, expected: string, next: string): Promise<string> {
    if (paneId === null) return this.local.swapShared(null, key, expected, next);
    const { backend, paneId: own } = await this.route(paneId);
    return backend.swapShared(own, key, expected, next);
  }

  async snapshot(paneId: string): Promise<PaneSnapshot> {
    const { backend, paneId: own } = await this.route(paneId);
    return backend.snapshot(own);
  }

  async readHostFile(paneId: string, path: string, maxBytes: number): Promise<string> {
    const remote = splitPaneId(paneId);
    if (!remote) throw new Error(`pane ${paneId} is local`);
    const backend = await this.hostBackend(remote.host);
    const facts = this.remote(remote.host).facts!;
    return backend.readFile(`${facts.stateDir}/${path}`, maxBytes);
  }

  async writeHostFile(paneId: string, path: string, text: string): Promise<void> {
    const remote = splitPaneId(paneId);
    if (!remote) throw new Error(`pane ${paneId} is local`);
    const backend = await this.hostBackend(remote.host);
    await backend.writeFile(`${this.remote(remote.host).facts!.stateDir}/${path}`, text);
  }

  async kill(paneId: string): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.kill(own);
  }

  async focus(paneId: string): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.focus(own);
  }

  attachCommand(paneId: string): string | null {
    const remote = splitPaneId(paneId);
    if (!remote) return this.local.attachCommand(paneId);
    return this.remote(remote.host).attachCommand(this.options.ssh, remote.paneId);
  }

  async arrangeWindow(paneId: string, layout: WindowLayout): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.arrangeWindow(own, layout);
  }

  async showPaneBorders(paneId: string): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.showPaneBorders(own);
  }

  async setTitle(paneId: string, title: string): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.setTitle(own, title);
  }

  // Status at a glance: borders and window summaries live in the pane's own tmux, local or
  // remote. A bell is written to the terminals attached to the pane, which for a remote pane
  // are on the host: those are not rung (their tty names mean other terminals here).
  async markPane(paneId: string, mark: PaneMark | null): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.markPane?.(own, mark);
  }

  async resumeOutput(paneId: string, reason: string): Promise<void> {
    const { backend, paneId: own } = await this.route(paneId);
    await backend.resumeOutput?.(own, reason);
  }

  async windowMarks(windowId: string): Promise<string[]> {
    const { backend, id } = await this.routeWindow(windowId);
    return backend.windowMarks ? backend.windowMarks(id) : [];
  }

  async showWindowSummary(windowId: string, text: string): Promise<void> {
    const { backend, id } = await this.routeWindow(windowId);
    await backend.showWindowSummary?.(id, text);
  }

  async alertAttached(paneId: string, bytes: string): Promise<void> {
    if (splitPaneId(paneId)) return;
    await this.local.alertAttached?.(paneId, bytes);
  }

  private async routeWindow(windowId: string): Promise<{ backend: Backend; id: string }> {
    const remote = REMOTE_WINDOW.exec(windowId);
    if (!remote) return { backend: this.local, id: windowId };
    return { backend: await this.hostBackend(remote[2]!), id: remote[1]! };
  }

  async reapExited(): Promise<void> {
    await this.local.reapExited?.();
    await Promise.all([...this.hosts.values()].filter((h) => h.connected).map((h) => h.backend!.reapExited()));
  }

  async stop(): Promise<void> {
    await Promise.all([this.local.stop(), ...[...this.hosts.values()].map((h) => h.stop())]);
  }

  // Hosts with sessions, kept in the local home so a restarted termhive knows where to look.
  private get hostsFile(): string {
    return join(this.options.home, "remote-hosts");
  }

  /** Read each time: another termhive process on this home may have added one since. */
  private rememberedHosts(): Set<string> {
    let text = "";
    try {
      text = readFileSync(this.hostsFile, "utf8");
    } catch {
      // none yet
    }
    return new Set(text.split("\n").map((l) => l.trim()).filter(Boolean));
  }

  private remember(host: string): void {
    const hosts = this.rememberedHosts();
    if (hosts.has(host)) return;
    hosts.add(host);
    this.saveHosts(hosts);
  }

  private forgetHost(host: string): void {
    const hosts = this.rememberedHosts();
    if (hosts.delete(host)) this.saveHosts(hosts);
  }

  private saveHosts(hosts: Set<string>): void {
    const tmp = `${this.hostsFile}.${process.pid}.tmp`;
    writeFileSync(tmp, [...hosts].map((h) => h + "\n").join(""), { mode: 0o600 });
    renameSync(tmp, this.hostsFile);
  }
}

function onHost(pane: PaneInfo, host: string): PaneInfo {
  return { ...pane, paneId: remotePaneId(pane.paneId, host), windowId: `${pane.windowId}@${host}`, meta: { ...pane.meta, host } };
}
