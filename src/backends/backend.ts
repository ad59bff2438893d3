// The contract every terminal backend (tmux control mode, node-pty, iTerm2) fulfils.
// A backend moves bytes and manages panes; it knows nothing of screens, transcripts or completion.

export type BackendKind = "tmux" | "pty" | "iterm2";

/** Facts about one pane, as the backend sees them right now. */
export interface PaneInfo {
  /** Backend-unique pane id (tmux: "%12"; pty: "pty-3"). */
  paneId: string;
  /** tmux window id ("@4") or the pty backend's own group id; panes of one layout share it. */
  windowId: string;
  pid: number;
  dead: boolean;
  /** Exit status of a dead pane; null while alive or when killed by a signal. */
  exitStatus: number | null;
  exitSignal: number | null;
  /** Name of the foreground process (tmux pane_current_command). */
  foreground: string;
  cwd: string;
  rows: number;
  cols: number;
  /** termhive metadata stored with the pane (name, id, created, shell…), so another process can adopt it. */
  meta: Record<string, string>;
}

/**
 * How the panes of one window are arranged (tmux's layout names). Window operations —
 * splitting (CreatePaneOptions.splitFrom), arranging, borders, titles, focus — belong to the
 * backend: the hive asks for them here and never talks to tmux itself.
 */
export const WINDOW_LAYOUTS = ["tiled", "even-horizontal", "even-vertical", "main-vertical", "main-horizontal"] as const;
export type WindowLayout = (typeof WINDOW_LAYOUTS)[number];

/** Where a split puts the new pane relative to the pane it splits. */
export type SplitDirection = "left" | "right" | "above" | "below";

export interface CreatePaneOptions {
  /** Program and arguments, exec'd directly (no shell parses them). */
  argv: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** `env` is the program's whole environment, not additions to the backend's (see launch.ts `clean`). */
  cleanEnv?: boolean;
  rows: number;
  cols: number;
  meta: Record<string, string>;
  /** Split this existing pane instead of creating a new window. */
  splitFrom?: { paneId: string; direction: SplitDirection; percent?: number };
}

/** A pane's current screen contents, used to seed a session adopted after a restart. */
export interface PaneSnapshot {
  /** Scrollback plus visible screen, lines joined with "\r\n", SGR escapes kept. */
  history: string;
  cursorRow: number;
  cursorCol: number;
  alternateScreen: boolean;
  /**
   * How many "output" events for this pane, emitted after snapshot() was called, the history
   * already holds: a caller that held those events back drops this many and feeds the rest.
   */
  outputsIncluded: number;
}

/** A pane's status for a person watching: a name other processes read back, and a colour. */
export interface PaneMark {
  name: string;
  /** A colour name the backend understands (tmux: `yellow`, `colour244`…). */
  colour: string;
}

export interface BackendEvents {
  /** Bytes the pane's program wrote, in order, exactly once per process that listens. */
  output(paneId: string, data: Buffer): void;
  /** The pane's program exited (the pane stays readable until closed). */
  exit(paneId: string, status: number | null, signal: number | null): void;
  /** A pane vanished (closed by a person or another termhive process). */
  closed(paneId: string): void;
  /** Some output was lost (flow control); the session should resynchronise its screen. */
  gap(paneId: string, reason: string): void;
  /** The backend itself died (tmux server killed). Every pane is gone for this process. */
  down(reason: string): void;
  /** The connection to a remote host dropped: only that host's panes are gone, until the next call reconnects. */
  hostDown(host: string, reason: string): void;
  /** A pane of this tmux server left a request for the hive (a host's in-pane `termhive`; Hosts.takeAsks). */
  asked(): void;
  /** The same, on a remote host's tmux server. */
  hostAsked(host: string): void;
}

/** A request a host pane's `termhive` left in its tmux (src/shell/cli/termhive). */
export interface HostAsk {
  /** Its buffer's name, which names the reply's. */
  name: string;
  /** The pane it comes from, as its host's tmux numbers it ("%3"): the buffer's name says so. */
  paneId: string;
  /** Its text; null when it was over the bound and dropped unread. */
  text: string | null;
  bytes: number;
}

/** A remote host made ready for sessions (see src/backends/remote/): where its termhive files are. */
export interface HostFacts {
  /** The ssh destination, as given. */
  host: string;
  /** The remote user's HOME. */
  home: string;
  /** ~/.local/state/termhive on the host: the tmux socket, its config and the shells' state. */
  stateDir: string;
  /** Where the shell-integration scripts were written on the host. */
  shellDir: string;
  /** tmux on the host, as its PATH finds it. */
  tmuxPath: string;
  /** The remote user's login shell (sessions opened without a command run it). */
  shell: string;
  /** bubblewrap on the host (its panes' `sandbox`), null when it has none; absent: not asked. */
  bwrap?: string | null;
  /** The PATH of the host's non-interactive commands, which its tmux server gives panes; absent: not told. */
  path?: string;
}

/**
 * Being a backend at all: which one it is, connecting and detaching, and the events it sends.
 * Every backend has it.
 */
export interface Lifecycle {
  readonly kind: BackendKind;
  /** What the user loses with this backend when it stands in for the one they expect; said in every open result. */
  readonly warning?: string;
  /** Connects (tmux: starts/attaches the control client). Idempotent; reconnects after `down`. */
  start(): Promise<void>;
  readonly connected: boolean;
  on<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void;
  off<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void;
  /** Detaches from (never kills) the panes. */
  stop(): Promise<void>;
  /**
   * Makes the backend collect exited children it has not reaped yet (tmux can miss a SIGCHLD
   * under load and leave a dead pane without its exit status). Optional.
   */
  reapExited?(): Promise<void>;
}

/** Making, finding, feeding and ending panes. Every backend has it; every call names its pane. */
export interface PaneIO {
  createPane(options: CreatePaneOptions): Promise<PaneInfo>;
  listPanes(): Promise<PaneInfo[]>;
  paneInfo(paneId: string): Promise<PaneInfo | undefined>;
  /** Writes raw bytes to the pane's input, byte-exact, in order, chunked as the backend needs. */
  writeInput(paneId: string, data: Buffer): Promise<void>;
  /** Sends named keys (termhive vocabulary, see backends/keys.ts), honouring the pane's keyboard modes. */
  sendKeys(paneId: string, keys: readonly string[]): Promise<void>;
  resize(paneId: string, rows: number, cols: number): Promise<void>;
  setMeta(paneId: string, key: string, value: string): Promise<void>;
  snapshot(paneId: string): Promise<PaneSnapshot>;
  /** Ends the pane (SIGHUP, as closing a terminal does). */
  kill(paneId: string): Promise<void>;
  /** Makes the pane the active one for a person attached to it. */
  focus(paneId: string): Promise<void>;
  /** Shell command a person runs to watch and take over this pane, or null when the backend has none. */
  attachCommand(paneId: string): string | null;
}

/**
 * Shared state: small values (letters, digits, `_` `-` only) that every termhive process on
 * this backend sees, kept with a pane (`paneId`) or with the backend server (`null`), so the
 * truth about a session lives outside any one process. "" means unset. Keys: [a-z0-9._-].
 * Every backend has it.
 */
export interface SharedState {
  readShared(paneId: string | null, key: string): Promise<string>;
  /** Sets (or with "" unsets) a shared value. */
  writeShared(paneId: string | null, key: string, value: string): Promise<void>;
  /**
   * Compare-and-set, atomic across processes: when `key` holds `expected` ("" = unset) it
   * becomes `next` ("" unsets). Returns the value it holds afterwards (=== next: this call won).
   */
  swapShared(paneId: string | null, key: string, expected: string, next: string): Promise<string>;
}

/** Arranging what a person sees of a window. Absent where windows are only logical (pty). */
export interface Windows {
  /** Arranges the panes of the window holding `paneId`. */
  arrangeWindow(paneId: string, layout: WindowLayout): Promise<void>;
  /** Shows pane titles (agent status) on the top border of the window holding `paneId`. No-op where unsupported. */
  showPaneBorders(paneId: string): Promise<void>;
  /** Sets the title shown on the pane's border (status at a glance). */
  setTitle(paneId: string, title: string): Promise<void>;
}

/**
 * Status at a glance for a person watching (absent where nobody can watch): marks a pane (its
 * border takes `mark.colour`; `null` clears), reads the marks of a window's panes as the
 * backend holds them (whichever process set them; "" unmarked), shows a one-line summary for a
 * window, and rings the terminals attached to the pane (bytes written to each).
 */
export interface Marks {
  markPane(paneId: string, mark: PaneMark | null): Promise<void>;
  windowMarks(windowId: string): Promise<string[]>;
  showWindowSummary(windowId: string, text: string): Promise<void>;
  alertAttached(paneId: string, bytes: string): Promise<void>;
}

/** Panes on other hosts (panes whose meta has `host`). Absent where every pane is local. */
export interface Hosts {
  /** Connects to (and sets up) a remote host. */
  prepareHost(host: string): Promise<HostFacts>;
  /**
   * A small file of termhive's on the host of a remote pane (`path` relative to the host's
   * termhive folder), "" when it is missing or holds more than `maxBytes` (then emptied: a
   * sandboxed pane can write it).
   */
  readHostFile(paneId: string, path: string, maxBytes: number): Promise<string>;
  /** Writes such a file (short text) on the pane's host, before any input sent after this call. */
  writeHostFile(paneId: string, path: string, text: string): Promise<void>;
  /**
   * Hosts whose panes the last listPanes left out because they did not answer in time, and hosts
   * that are down (link dropped, not reached since): their panes are not known to be closed.
   */
  hostsLeftOut(): ReadonlySet<string>;
  /** The requests a host's panes left for the hive (their in-pane `termhive`), each taken by this process alone. */
  takeAsks(host: string, maxBytes: number): Promise<{ asks: HostAsk[]; more: boolean }>;
  /** Answers one of them: the script waiting in that pane prints it and exits with `code`. */
  answerAsk(host: string, ask: string, reply: { code: number; stdout: string; stderr: string }): Promise<void>;
}

/** Output a backend can pause (tmux's flow control). Absent where output never pauses. */
export interface PausableOutput {
  /**
   * The pane's output stopped coming although its program went on (tmux paused the pane for
   * this client and the notice never arrived): resumes it, and reports the gap (a "gap" event
   * with `reason`) like any other lost output.
   */
  resumeOutput(paneId: string, reason: string): Promise<void>;
}

/**
 * A terminal backend: the three capabilities every backend has, and optional capability
 * objects a caller checks for as a whole (`backend.windows?.setTitle(…)`).
 */
export interface Backend extends Lifecycle, PaneIO {
  readonly shared: SharedState;
  readonly windows?: Windows;
  readonly marks?: Marks;
  readonly hosts?: Hosts;
  readonly pausable?: PausableOutput;
}

/**
 * A split refused because the window has no room left for another pane: arranging the window
 * (evening out the panes) and splitting again may succeed.
 */
export class NoSpaceForPane extends Error {
  constructor(detail: string) {
    super(`no space for new pane: ${detail}`);
    this.name = "NoSpaceForPane";
  }
}

/** Error thrown for operations a backend cannot do, e.g. attach on the pty backend. */
export class UnsupportedByBackend extends Error {
  constructor(backend: BackendKind, what: string) {
    super(`${what} is not supported by the ${backend} backend`);
    this.name = "UnsupportedByBackend";
  }
}
