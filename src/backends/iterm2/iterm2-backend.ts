// TERMHIVE_BACKEND=iterm2: each pane is an iTerm2 session (a tab, or a split of one), driven
// through iTerm2's API, for macOS users without tmux. The sessions belong to iTerm2, so they
// outlive this process and are adopted again by the metadata kept in a session variable.
//
// iTerm2's API has no raw output stream: output is rebuilt from screen contents (see
// screen-stream.ts for what that loses). Where exact bytes matter, use the tmux backend and
// `termhive attach --iterm2` to see its panes as native iTerm2 tabs.
import { EventEmitter } from "node:events";
import { NoSpaceForPane, type Backend, type BackendEvents, type CreatePaneOptions, type PaneInfo, type PaneSnapshot, type Windows } from "../backend.js";
import { resolveKey } from "../keys.js";
import { launchArgv } from "../launch.js";
import type { ConnectOptions, Iterm2Client } from "../../iterm2/client.js";
import { Iterm2Error } from "../../iterm2/errors.js";
import { withoutSessionEnded } from "./session-ended.js";
import { historyText, textChunks } from "./buffer-text.js";
import { ScreenStream } from "./screen-stream.js";
import { META_VARIABLE, cwdOsc, ofHome, publicMeta, sessionsHome, storedMeta, wrappedCommand } from "./session-vars.js";
import { iterm2SharedState } from "./shared-state.js";
import { PaneFeed, type Iterm2Pane } from "./pane-feed.js";

const SNAPSHOT_LINES = 2000;
const SEND_CHUNK = 16 * 1024;

export const ITERM2_WARNING =
  "iTerm2 backend: output is read from iTerm2's screen contents, not a byte stream (no colours, full-screen programs line by line); for exact output use tmux (brew install tmux) and `termhive attach --iterm2`.";


export class Iterm2Backend implements Backend {
  readonly kind = "iterm2" as const;
  readonly warning = ITERM2_WARNING;
  private client: Iterm2Client | null = null;
  private starting: Promise<void> | null = null;
  private readonly events = new EventEmitter().setMaxListeners(0);
  private readonly panes = new Map<string, Iterm2Pane>();
  /** The iTerm2 window termhive's tabs open in, so they do not each open a window. */
  private windowId: string | undefined;
  readonly shared = iterm2SharedState(() => this.api);
  private readonly feed = new PaneFeed({ api: () => this.api, events: this.events, markExited: (pane, status, signal) => this.markExited(pane, status, signal) });
  readonly windows: Windows = {
    // iTerm2 sizes split panes itself; termhive's layout names have no equivalent here.
    arrangeWindow: async () => {},
    showPaneBorders: async () => {},
    // The session's name in iTerm2 (the tab and pane title).
    setTitle: async (paneId, title) => {
      if (!this.pane(paneId).info.dead) await this.api.setProfileProperties(paneId, { Name: title });
    },
  };

  /** The TERMHIVE_HOME whose sessions these are (recorded in each, so only they are adopted). */
  private readonly home: string;

  constructor(private readonly options: ConnectOptions & { home?: string } = {}) {
    this.home = sessionsHome(options);
  }

  get connected(): boolean {
    return this.client !== null && !this.client.closed;
  }

  on<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.on(event, listener as (...args: unknown[]) => void);
  }

  off<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.off(event, listener as (...args: unknown[]) => void);
  }

  start(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.starting ??= (async () => {
      // Loaded on first use: ws and protobufjs cost every other server's start-up ~100 ms.
      const { Iterm2Client } = await import("../../iterm2/client.js");
      const client = await Iterm2Client.connect(this.options);
      client.events.once("close", (reason: string) => {
        this.client = null;
        this.panes.clear();
        this.events.emit("down", reason);
      });
      await client.subscribe("NOTIFY_ON_TERMINATE_SESSION", null, (e) => this.onTerminated(String(e.session_id)));
      // For every session at once, from before a pane exists: a new session's first prompt
      // comes before a per-session subscription could be made.
      await client.subscribe("NOTIFY_ON_PROMPT", "all", (e) => {
        const pane = this.panes.get(String(e.session));
        if (pane) this.feed.onPrompt(pane, e);
      });
      await client.subscribe("NOTIFY_ON_CUSTOM_ESCAPE_SEQUENCE", "all", (e) => {
        const pane = this.panes.get(String(e.session));
        if (pane) this.feed.onCustom(pane, String(e.sender_identity ?? ""), String(e.payload ?? ""));
      });
      this.client = client;
    })().finally(() => (this.starting = null));
    return this.starting;
  }

  private get api(): Iterm2Client {
    if (!this.client || this.client.closed) throw new Iterm2Error("not connected to iTerm2 (start() first)");
    return this.client;
  }

  private pane(paneId: string): Iterm2Pane {
    const pane = this.panes.get(paneId);
    if (!pane) throw new Iterm2Error(`can't find pane ${paneId} (no termhive iTerm2 session has that id)`);
    return pane;
  }

  async createPane(options: CreatePaneOptions): Promise<PaneInfo> {
    const profile = {
      "Custom Command": "Yes",
      Command: wrappedCommand(launchArgv({ argv: options.argv, cwd: options.cwd, env: options.env })),
      // The session stays (showing its last screen) after the program ends, as tmux's
      // remain-on-exit does, so its last output can be read; kill() closes it.
      "Close Sessions On End": false,
    };
    let sessionId: string;
    let windowId: string;
    if (options.splitFrom) {
      const source = this.pane(options.splitFrom.paneId);
      const { direction } = options.splitFrom;
      sessionId = await this.api.splitPane(source.info.paneId, { vertical: direction === "left" || direction === "right", before: direction === "left" || direction === "above" }, profile).catch((error: Error) => {
        // iTerm2's "the pane is too small to split": the hive evens out the panes and tries again.
        throw /CANNOT_SPLIT/.test(error.message) ? new NoSpaceForPane(error.message) : error;
      });
      windowId = source.info.windowId;
    } else {
      const tab = await this.api.createTab(profile, this.windowId).catch((error: Error) => {
        // The window was closed by the user: start a new one.
        if (this.windowId && /INVALID_WINDOW_ID/.test(error.message)) return this.api.createTab(profile);
        throw error;
      });
      this.windowId = tab.windowId;
      sessionId = tab.sessionId;
      windowId = `tab-${tab.tabId}`;
    }
    try {
      // Followed before anything else is awaited, so none of its first notifications is missed.
      const pane = await this.adopt(sessionId, windowId, options.meta, true);
      if (!options.splitFrom && options.rows > 0 && options.cols > 0) {
        // A full-screen window keeps its size (iTerm2 answers IMPOSSIBLE): the session is
        // usable at the size it has, which refreshed() reports.
        await this.api.setGridSize(sessionId, options.rows, options.cols).catch((error: Error) => {
          if (!/IMPOSSIBLE/.test(error.message)) throw error;
        });
      }
      await this.api.setVariables({ session: sessionId }, { [META_VARIABLE]: storedMeta(options.meta, this.home) });
      return { ...(await this.refreshed(pane)) };
    } catch (error) {
      // Not half-made: a tab without termhive's metadata would be adopted or closed by nobody.
      const pane = this.panes.get(sessionId);
      this.panes.delete(sessionId);
      for (const unsubscribe of pane?.unsubscribe ?? []) await unsubscribe().catch(() => undefined);
      await this.api.closeSessions([sessionId], true).catch(() => undefined);
      throw error;
    }
  }

  /** Starts following a session: its screen, prompts and custom escape sequences. */
  private async adopt(sessionId: string, windowId: string, meta: Record<string, string>, fresh: boolean): Promise<Iterm2Pane> {
    const known = this.panes.get(sessionId);
    if (known) return known;
    const pane: Iterm2Pane = {
      info: { paneId: sessionId, windowId, pid: 0, dead: false, exitStatus: null, exitSignal: null, foreground: "", cwd: "", rows: 0, cols: 0, meta: { ...meta } },
      stream: new ScreenStream(),
      chain: Promise.resolve(),
      updateQueued: false,
      marksPending: 0,
      outputs: 0,
      unsubscribe: [],
    };
    this.panes.set(sessionId, pane);
    const api = this.api;
    const mine = (handler: (e: Record<string, any>) => void) => (e: Record<string, any>) => {
      if (e.session === sessionId) handler(e);
    };
    pane.unsubscribe.push(
      await api.subscribe("NOTIFY_ON_SCREEN_UPDATE", sessionId, mine(() => this.feed.queueUpdate(pane))),
      // iTerm2 consumes OSC 7 into the "path" variable: each change goes back into the stream where it happened.
      await api.watchVariable(sessionId, "path", (path) => {
        if (typeof path === "string" && path.startsWith("/") && this.feed.streaming(pane)) {
          void this.feed.enqueue(pane, (b) => pane.stream.custom(b, cwdOsc(path), pane.marksPending > 0)).catch(() => undefined);
        }
      }),
    );
    // Updates before the subscription were missed: read once. A fresh pane's stream starts
    // with its first line; an adopted one where its snapshot ends.
    if (fresh) this.feed.queueUpdate(pane);
    return pane;
  }

  private markExited(pane: Iterm2Pane, status: number | null, signal: number | null): void {
    if (pane.info.dead) return;
    pane.info = { ...pane.info, dead: true, exitStatus: status, exitSignal: signal };
    if (this.panes.get(pane.info.paneId) === pane) this.events.emit("exit", pane.info.paneId, status, signal);
  }

  private onTerminated(sessionId: string): void {
    const pane = this.panes.get(sessionId);
    if (!pane || pane.info.dead) return;
    // After the pane's queued reads: an exit reported just before the session closed wins.
    void pane.chain.then(() => {
      if (this.panes.get(sessionId) !== pane || pane.info.dead) return;
      // Ended without the wrapper's report: closed from iTerm2 (the tab's close button).
      pane.info = { ...pane.info, dead: true };
      this.panes.delete(sessionId);
      this.events.emit("closed", sessionId);
    });
  }

  /** Live facts from iTerm2's session variables. */
  private async refreshed(pane: Iterm2Pane, listed?: { rows: number; cols: number }): Promise<PaneInfo> {
    if (pane.info.dead) return { ...pane.info, meta: { ...pane.info.meta } };
    try {
      // The size comes from the session list: one the caller already holds, else a fresh one.
      const s = listed ?? (await this.api.listSessions()).find((x) => x.sessionId === pane.info.paneId);
      const [pid, job, path] = await this.api.getVariables({ session: pane.info.paneId }, ["pid", "jobName", "path"]);
      pane.info = {
        ...pane.info,
        pid: typeof pid === "number" ? pid : pane.info.pid,
        foreground: typeof job === "string" ? job : pane.info.foreground,
        cwd: typeof path === "string" ? path : pane.info.cwd,
        rows: s?.rows ?? pane.info.rows,
        cols: s?.cols ?? pane.info.cols,
      };
    } catch {
      // the session closed meanwhile: its terminate notification marks it
    }
    return { ...pane.info, meta: publicMeta(pane.info.meta) };
  }

  /** termhive's sessions in iTerm2 (those carrying its metadata); others' tabs are never touched. */
  async listPanes(): Promise<PaneInfo[]> {
    const sessions = await this.api.listSessions();
    const infos: PaneInfo[] = [];
    for (const s of sessions) {
      let pane = this.panes.get(s.sessionId);
      if (!pane) {
        const [meta] = await this.api.getVariables({ session: s.sessionId }, [META_VARIABLE]).catch(() => [null]);
        if (!meta || typeof meta !== "object" || !ofHome(meta as Record<string, unknown>, this.home, this.options.env)) continue;
        pane = await this.adopt(s.sessionId, `tab-${s.tabId}`, { ...(meta as Record<string, string>), __adopted: "1" }, false);
      }
      infos.push(await this.refreshed(pane, s));
    }
    for (const pane of this.panes.values()) if (pane.info.dead) infos.push({ ...pane.info, meta: publicMeta(pane.info.meta) });
    return infos;
  }

  async paneInfo(paneId: string): Promise<PaneInfo | undefined> {
    const pane = this.panes.get(paneId);
    if (pane) return this.refreshed(pane);
    return (await this.listPanes()).find((p) => p.paneId === paneId);
  }

  async writeInput(paneId: string, data: Buffer): Promise<void> {
    const pane = this.pane(paneId);
    if (pane.info.dead) return;
    // iTerm2 takes text: bytes that are not UTF-8 cannot be sent through its API.
    for (const chunk of textChunks(data.toString("utf8"), SEND_CHUNK)) await this.api.sendText(paneId, chunk);
  }

  async sendKeys(paneId: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const resolved = keys.map((k) => resolveKey(k));
    // iTerm2 does not say whether the program asked for application cursor keys: normal mode.
    await this.writeInput(paneId, Buffer.from(resolved.map((k) => k.bytes(false)).join(""), "utf8"));
  }

  async resize(paneId: string, rows: number, cols: number): Promise<void> {
    const pane = this.pane(paneId);
    if (pane.info.dead) return;
    await this.api.setGridSize(paneId, rows, cols);
    pane.info = { ...pane.info, rows, cols };
  }

  async setMeta(paneId: string, key: string, value: string): Promise<void> {
    const pane = this.pane(paneId);
    pane.info = { ...pane.info, meta: { ...pane.info.meta, [key]: value } };
    if (!pane.info.dead) await this.api.setVariables({ session: paneId }, { [META_VARIABLE]: storedMeta(pane.info.meta, this.home) });
  }


  async snapshot(paneId: string): Promise<PaneSnapshot> {
    const pane = this.pane(paneId);
    const outputsAtCall = pane.outputs;
    let snapshot: PaneSnapshot | undefined;
    const take = async () => {
      const buffer = withoutSessionEnded(await this.api.getBuffer(paneId, SNAPSHOT_LINES));
      pane.stream.prime(buffer);
      snapshot = {
        history: historyText(buffer),
        cursorRow: buffer.cursor.y - buffer.linesAboveScreen,
        cursorCol: buffer.cursor.x,
        alternateScreen: false,
        outputsIncluded: pane.outputs - outputsAtCall,
      };
    };
    const next = pane.chain.then(take, take);
    pane.chain = next.catch(() => undefined);
    await next;
    return snapshot!;
  }

  async kill(paneId: string): Promise<void> {
    const pane = this.pane(paneId);
    this.panes.delete(paneId);
    for (const unsubscribe of pane.unsubscribe) await unsubscribe().catch(() => undefined);
    // A dead pane's session is still open (showing its last screen): close it too.
    if (this.connected) await this.api.closeSessions([paneId], true);
  }

  async focus(paneId: string): Promise<void> {
    this.pane(paneId);
    await this.api.activate(paneId);
  }

  /** The pane is an iTerm2 tab already; there is no command to attach to it. */
  attachCommand(_paneId: string): string | null {
    return null;
  }

  /** Leaves the sessions open in iTerm2 (a later termhive adopts them). */
  async stop(): Promise<void> {
    this.panes.clear();
    const client = this.client;
    this.client = null;
    client?.events.removeAllListeners("close");
    client?.close();
  }
}
