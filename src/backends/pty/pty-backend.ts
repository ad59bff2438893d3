// The node-pty backend: each pane is one pseudo-terminal owned by this process. Used when tmux
// is missing or TERMHIVE_BACKEND=pty. Panes live exactly as long as this process: nothing
// survives a restart and nobody else can attach, so those operations say so instead of pretending.
import { EventEmitter } from "node:events";
import { readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import type * as nodePty from "@lydell/node-pty";
import { UnsupportedByBackend, type Backend, type BackendEvents, type CreatePaneOptions, type PaneInfo, type PaneSnapshot } from "../backend.js";
import { launchArgv } from "../launch.js";
import { MemoryShared } from "../shared-memory.js";
import { resolveKey } from "../keys.js";
import { CursorModeTracker } from "./cursor-mode.js";
import { writeToPty } from "./write.js";

const DEFAULT_ROWS = 24;
const DEFAULT_COLS = 80;

interface PtyPane {
  info: PaneInfo;
  pty: nodePty.IPty;
  modes: CursorModeTracker;
  /** Input writes chain here so concurrent writeInput/sendKeys calls keep their order. */
  writing: Promise<void>;
  disposers: nodePty.IDisposable[];
}

export class PaneNotFound extends Error {
  override name = "PaneNotFound";
  constructor(paneId: string) {
    super(`can't find pane ${paneId} (the pty backend only knows panes opened by this termhive process)`);
  }
}

export class PtyBackend implements Backend {
  readonly kind = "pty" as const;
  readonly connected = true;
  private readonly events = new EventEmitter();
  private readonly panes = new Map<string, PtyPane>();
  private nextPane = 0;
  readonly shared = new MemoryShared();
  private nextWindow = 0;

  /** Set when this backend stands in for tmux because tmux is missing (TERMHIVE_BACKEND=auto). */
  readonly warning?: string;

  constructor(options: { fallbackReason?: string } = {}) {
    this.events.setMaxListeners(0);
    if (options.fallbackReason) {
      this.warning = `${options.fallbackReason}. Using node-pty instead: sessions end when this termhive process ends and cannot be attached to.`;
    }
  }

  on<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.on(event, listener as (...args: unknown[]) => void);
  }

  off<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.off(event, listener as (...args: unknown[]) => void);
  }

  /** Nothing to connect to: the panes are children of this process. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  async createPane(options: CreatePaneOptions): Promise<PaneInfo> {
    let windowId: string;
    let { rows, cols } = options;
    if (options.splitFrom) {
      // No real layout here: a split only joins the source pane's group, so layout-aware
      // callers (hive teams) see the same grouping they would with tmux. Nobody looks at the
      // panes side by side, so a split pane gets the source's full size (callers pass 0x0 and
      // read the size back, as tmux decides it there) and the source is left as it was.
      const source = this.pane(options.splitFrom.paneId).info;
      windowId = source.windowId;
      if (rows <= 0 || cols <= 0) ({ rows, cols } = source);
    } else {
      windowId = `ptyw-${++this.nextWindow}`;
    }
    rows = rows > 0 ? rows : DEFAULT_ROWS;
    cols = cols > 0 ? cols : DEFAULT_COLS;
    // The same launch script as tmux (cd, export, exec), so cwd errors, env validation and
    // "the pane's pid is the program's pid" behave identically on both backends.
    // A clean environment is exactly options.env: it is the spawn's environment (no env -i needed).
    const [file, ...args] = launchArgv({ argv: options.argv, cwd: options.cwd, env: options.cleanEnv ? {} : options.env });
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.cleanEnv ? (options.env ?? {}) : process.env)) if (value !== undefined) env[name] = value;
    delete env.TMUX; // the pane is not inside tmux even when termhive was started from one
    delete env.TMUX_PANE;
    const pty = loadNodePty().spawn(file!, args, {
      name: "xterm-256color",
      cols,
      rows,
      // Where tmux would start a window without a cwd: the directory termhive was started in.
      cwd: process.cwd(),
      env,
      // Raw bytes: the session decodes UTF-8 as a stream, so a character split across chunks survives.
      encoding: null,
    });
    const paneId = `pty-${++this.nextPane}`;
    const pane: PtyPane = {
      info: {
        paneId,
        windowId,
        pid: pty.pid,
        dead: false,
        exitStatus: null,
        exitSignal: null,
        foreground: basenameOf(options.argv[0] ?? ""),
        cwd: options.cwd ?? process.cwd(),
        rows,
        cols,
        meta: { ...options.meta },
      },
      pty,
      modes: new CursorModeTracker(),
      writing: Promise.resolve(),
      disposers: [],
    };
    pane.disposers.push(
      // With encoding null node-pty hands over Buffers, although its typings say string.
      pty.onData((data) => this.onData(pane, data as unknown as Buffer)),
      pty.onExit(({ exitCode, signal }) => this.onExit(pane, exitCode, signal)),
    );
    this.panes.set(paneId, pane);
    return this.refreshInfo(pane);
  }

  private onData(pane: PtyPane, data: Buffer): void {
    pane.modes.feed(data);
    this.events.emit("output", pane.info.paneId, data);
  }

  private onExit(pane: PtyPane, exitCode: number, signal: number | undefined): void {
    // node-pty reports exit only after the pty's output has been drained, so the session has
    // every byte before it learns of the exit. The pane stays listed (dead) until kill, as with
    // tmux's remain-on-exit, so its last output and status can still be read.
    const signalled = signal !== undefined && signal > 0;
    pane.info = { ...pane.info, dead: true, exitStatus: signalled ? null : exitCode, exitSignal: signalled ? signal : null };
    if (this.panes.get(pane.info.paneId) === pane) this.events.emit("exit", pane.info.paneId, pane.info.exitStatus, pane.info.exitSignal);
  }

  private pane(paneId: string): PtyPane {
    const pane = this.panes.get(paneId);
    if (!pane) throw new PaneNotFound(paneId);
    return pane;
  }

  /** Live facts (foreground program, cwd) are read on demand; a dead pane keeps its last ones. */
  private refreshInfo(pane: PtyPane): PaneInfo {
    if (pane.info.dead) return pane.info;
    let foreground = pane.info.foreground;
    try {
      foreground = basenameOf(pane.pty.process) || foreground;
    } catch {
      // the pty closed between the check and the call
    }
    let cwd = pane.info.cwd;
    try {
      // The program's own cwd (what OSC 7 would report); /proc is Linux-only, so keep the last value elsewhere.
      cwd = readlinkSync(`/proc/${pane.info.pid}/cwd`);
    } catch {
      // process gone or no /proc
    }
    pane.info = { ...pane.info, foreground, cwd };
    return pane.info;
  }

  async listPanes(): Promise<PaneInfo[]> {
    return [...this.panes.values()].map((pane) => ({ ...this.refreshInfo(pane), meta: { ...pane.info.meta } }));
  }

  async paneInfo(paneId: string): Promise<PaneInfo | undefined> {
    const pane = this.panes.get(paneId);
    return pane ? { ...this.refreshInfo(pane), meta: { ...pane.info.meta } } : undefined;
  }

  writeInput(paneId: string, data: Buffer): Promise<void> {
    const pane = this.pane(paneId);
    const next = pane.writing.then(() => (pane.info.dead ? undefined : writeToPty(pane.pty, data)));
    // A failed write must not wedge the queue for later ones; the caller still sees its own error.
    pane.writing = next.catch(() => undefined);
    return next;
  }

  async sendKeys(paneId: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const pane = this.pane(paneId);
    // Resolve every key first so an unknown name fails before anything is typed (as with tmux).
    const resolved = keys.map((k) => resolveKey(k));
    // The mode is read when the keys are sent, after the output seen so far: the same moment tmux decides.
    const bytes = resolved.map((k) => k.bytes(pane.modes.appCursor)).join("");
    await this.writeInput(paneId, Buffer.from(bytes, "utf8"));
  }

  async resize(paneId: string, rows: number, cols: number): Promise<void> {
    const pane = this.pane(paneId);
    if (pane.info.dead) return;
    pane.pty.resize(cols, rows);
    pane.info = { ...pane.info, rows, cols };
  }

  async setMeta(paneId: string, key: string, value: string): Promise<void> {
    const pane = this.pane(paneId);
    pane.info = { ...pane.info, meta: { ...pane.info.meta, [key]: value } };
  }

  /** No server-side history: this process's session has seen every byte since the pane started. */
  async snapshot(paneId: string): Promise<PaneSnapshot> {
    this.pane(paneId);
    return { history: "", cursorRow: 0, cursorCol: 0, alternateScreen: false, outputsIncluded: 0 };
  }

  async kill(paneId: string): Promise<void> {
    const pane = this.pane(paneId);
    this.panes.delete(paneId);
    this.shared.dropPane(paneId);
    for (const d of pane.disposers) d.dispose();
    if (!pane.info.dead) {
      try {
        // SIGHUP, as closing a terminal (and tmux kill-pane) does; a program that ignores it
        // still loses its terminal when the master side closes below.
        pane.pty.kill("SIGHUP");
      } catch {
        // already gone
      }
    }
    destroyPty(pane.pty);
  }

  async focus(_paneId: string): Promise<void> {
    throw new UnsupportedByBackend("pty", "focusing a pane for a person to watch");
  }

  /** Nobody can attach to a pty pane: it is a private child of this process. */
  attachCommand(_paneId: string): string | null {
    return null;
  }

  /** pty panes cannot outlive this process; end them cleanly rather than leave them to SIGHUP. */
  async stop(): Promise<void> {
    await Promise.all([...this.panes.keys()].map((paneId) => this.kill(paneId)));
  }
}

function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const require = createRequire(import.meta.url);
let nodePtyModule: typeof nodePty | undefined;
/** Loaded on the first spawn: a server on the tmux backend never pays for the native addon. */
function loadNodePty(): typeof nodePty {
  return (nodePtyModule ??= require("@lydell/node-pty") as typeof nodePty);
}

function destroyPty(pty: nodePty.IPty): void {
  // destroy() closes the master fd; it exists on node-pty's Unix terminal but not in the typings.
  const closable = pty as unknown as { destroy?: () => void };
  try {
    closable.destroy?.();
  } catch {
    // already closed
  }
}
