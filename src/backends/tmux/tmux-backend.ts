import { paneEnvironment, type PaneEnvPolicy } from "../../util/pane-env.js";
import { EventEmitter } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Backend, type BackendEvents, type HostAsk, type CreatePaneOptions, type Marks, type PaneInfo, type PausableOutput, type PaneSnapshot, type SharedState, type Windows } from "../backend.js";
import { launchArgv } from "../launch.js";
import { resolveKey } from "../keys.js";
import { ControlClient, TmuxError, TmuxGoneError, type ControlOptions } from "./control.js";
import { layoutDropsAKnownPane } from "./layout.js";
import { ASK_SIGNAL, DeathLineReader, SIGNAL_PANE_ARGV, SIGNAL_WINDOW, tmuxConfig, tmuxConfigCommands } from "./config.js";
import type { Notification } from "./protocol.js";
import { tmuxMarks } from "./pane-marks.js";
import { openPane } from "./open-pane.js";
import { cleanServerEnvironment } from "./server-env.js";
import { tmuxWindows } from "./windows.js";
import { tmuxSharedState } from "./shared-state.js";
import { sendBytes } from "./send-bytes.js";
import { tmuxQuote } from "./quote.js";
import { capturePane } from "./capture.js";
import { answerAsk, takeAsks, readViaBuffer, sweepLeftovers, writeViaBuffer } from "./buffers.js";
import { PANE_FORMAT_ARG, parsePaneLines } from "./pane-format.js";
import { shellWord } from "../../util/shell-word.js";
import { traced } from "../../util/traced.js";

export interface TmuxBackendOptions {
  home: string;
  tmuxPath?: string;
  sessionName?: string;
  historyLimit?: number;
  /** Seconds a pane may fall behind before tmux pauses it instead of disconnecting us. */
  pauseAfterSeconds?: number;
  /**
   * A tmux server on another host: its socket and config paths are the host's (the config is
   * written there by whoever prepared the host) and `launch` runs the control client there.
   */
  onHost?: Pick<ControlOptions, "socketPath" | "configPath" | "describeExit"> & { launch: (tmuxArgv: string[]) => string[] };
  /** Local servers: what of this process's environment the server may hold (util/pane-env.ts). */
  paneEnv?: PaneEnvPolicy;
}

/** Messages of a tmux client that lost a race with another one starting the same server. */
const STARTUP_RACE = /server exited unexpectedly|lost server|duplicate session|no server running|error connecting|no current client/i;
const START_ATTEMPTS = 6;

export class TmuxBackend implements Backend {
  readonly kind = "tmux" as const;
  readonly socketPath: string;
  private readonly configPath: string;
  private readonly sessionName: string;
  private readonly events = new EventEmitter();
  private client: ControlClient | null = null;
  private starting: Promise<void> | null = null;
  private readonly metaCache = new Map<string, Record<string, string>>();
  /** Output events emitted per pane, so a snapshot can say which of them it already holds. */
  private readonly outputCounts = new Map<string, number>();
  private readonly tmux = (command: string) => this.cmd(command);
  readonly shared: SharedState = tmuxSharedState(this.tmux);
  readonly windows: Windows = tmuxWindows(this.tmux);
  readonly marks: Marks;
  readonly pausable: PausableOutput = { resumeOutput: (paneId, reason) => this.resumeOutput(paneId, reason) };

  constructor(private readonly options: TmuxBackendOptions) {
    this.socketPath = options.onHost?.socketPath ?? join(options.home, "tmux.sock");
    this.configPath = options.onHost?.configPath ?? join(options.home, "tmux.conf");
    this.sessionName = options.sessionName ?? "termhive";
    this.marks = tmuxMarks(this.tmux, options.onHost !== undefined);
    this.events.setMaxListeners(0);
  }

  get connected(): boolean {
    return this.client?.alive ?? false;
  }

  on<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.on(event, listener as (...args: unknown[]) => void);
  }

  off<E extends keyof BackendEvents>(event: E, listener: BackendEvents[E]): void {
    this.events.off(event, listener as (...args: unknown[]) => void);
  }

  /** Set by stop(), cleared by an explicit start(): only start() may connect again. */
  private stopped = false;

  start(): Promise<void> {
    this.stopped = false;
    // While connecting the client is already alive: callers wait for the set-up to finish,
    // so no command of theirs runs before our options, hook and signal pane are in place.
    if (this.starting) return this.starting;
    if (this.connected) return Promise.resolve();
    this.starting = this.connect().finally(() => (this.starting = null));
    return this.starting;
  }

  private async connect(): Promise<void> {
    const configOptions = { historyLimit: this.options.historyLimit ?? 50000 };
    if (!this.options.onHost) writeFileSync(this.configPath, tmuxConfig(configOptions), { mode: 0o600 });
    const env: NodeJS.ProcessEnv = this.options.paneEnv ? paneEnvironment(process.env, this.options.paneEnv) : { ...process.env };
    delete env.TMUX; // we may be started from inside a tmux pane; our server is our own
    delete env.TMUX_PANE;
    const client = await this.attachClient(env);
    // A server started by an older termhive (or another client) may hold agent identity in its
    // global environment; whatever tmux itself starts (hooks, a person's new window) gets it.
    if (this.options.paneEnv) await cleanServerEnvironment(client, this.sessionName, this.options.paneEnv);
    // An existing server keeps the hook/options of its own start; apply ours again so they hold.
    await Promise.all(tmuxConfigCommands(configOptions).map((command) => client.command(command)));
    await client.command(`refresh-client -f pause-after=${this.options.pauseAfterSeconds ?? 10}`);
    await this.ensureSignalPane(client);
  }

  /**
   * Starts a control client, retrying when it lost a start-up race: several termhive processes
   * starting at once on a fresh home each start a tmux server on the same socket, and tmux
   * then ends them all ("server exited unexpectedly"). A random pause lets one win; the others
   * attach to its server.
   */
  private async attachClient(env: NodeJS.ProcessEnv): Promise<ControlClient> {
    for (let attempt = 1; ; attempt++) {
      const client = new ControlClient({
        tmuxPath: this.options.tmuxPath ?? "tmux",
        socketPath: this.socketPath,
        configPath: this.configPath,
        sessionName: this.sessionName,
        firstWindow: { name: SIGNAL_WINDOW, argv: SIGNAL_PANE_ARGV },
        env,
        launch: this.options.onHost?.launch,
        describeExit: this.options.onHost?.describeExit,
      });
      client.on("notification", (n: Notification) => this.onNotification(n));
      this.client = client;
      try {
        await client.start();
        // Only a client that was up can go down; a failed start is this call's error.
        client.once("closed", (reason: string) => {
          if (this.client === client) this.events.emit("down", reason);
        });
        return client;
      } catch (error) {
        this.client = null;
        if (attempt >= START_ATTEMPTS || !STARTUP_RACE.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80 * attempt));
      }
    }
  }

  /** Finds (or makes) the pane the pane-died hook reports into, and names it in a global option. */
  private async ensureSignalPane(client: ControlClient): Promise<void> {
    const panes = await client.command(
      `list-panes -s -t ${tmuxQuote(this.sessionName + ":")} -F '#{pane_id} #{pane_dead} #{window_name}'`,
    );
    let paneId = panes
      .map((line) => line.split(" "))
      .find(([, dead, name]) => dead === "0" && name === SIGNAL_WINDOW)?.[0];
    if (!paneId) {
      const argv = SIGNAL_PANE_ARGV.map(tmuxQuote).join(" ");
      [paneId] = await client.command(`new-window -d -n ${SIGNAL_WINDOW} -t ${tmuxQuote(this.sessionName + ":")} -P -F '#{pane_id}' ${argv}`);
    }
    this.signalPane = paneId!.trim();
    await client.command(`set -g @termhive_signal ${tmuxQuote(this.signalPane)}`);
  }

  private async cmd(command: string): Promise<string[]> {
    // After stop() a late command (work still settling when its process shuts down) must not
    // start a new control client: that client would keep the process alive for ever.
    if (this.stopped) throw new TmuxGoneError("termhive detached from tmux (stopped)");
    await this.start();
    return this.client!.command(command);
  }

  private async resumeOutput(paneId: string, reason: string): Promise<void> {
    this.events.emit("gap", paneId, reason);
    // Paused (continue) or turned off (on) for this client: both are undone; a pane in neither
    // state is left as it is.
    for (const state of ["on", "continue"]) {
      await this.client?.command(`refresh-client -A ${tmuxQuote(`${paneId}:${state}`)}`).catch(traced("resuming a pane's output"));
    }
  }

  private onNotification(n: Notification): void {
    switch (n.kind) {
      case "output":
        if (n.paneId === this.signalPane) this.onSignal(n.data);
        else {
          this.outputCounts.set(n.paneId, (this.outputCounts.get(n.paneId) ?? 0) + 1);
          this.events.emit("output", n.paneId, n.data);
        }
        return;
      case "pause":
        // Only when we fell behind by pauseAfterSeconds: resume and let the session resync its screen.
        void this.resumeOutput(n.paneId, "tmux paused the pane because termhive fell behind");
        return;
      case "other":
        this.onOther(n.name, n.args);
        return;
      default:
    }
  }

  private signalPane = "";
  private readonly deaths = new DeathLineReader();

  /** The end of the signal pane's last output, where an ask's word may have been cut in two. */
  private askCarry = "";

  private onSignal(data: Buffer): void {
    for (const death of this.deaths.read(data)) this.events.emit("exit", death.paneId, death.status, death.signal);
    const text = this.askCarry + data.toString("latin1");
    this.askCarry = text.slice(-(ASK_SIGNAL.length - 1));
    if (text.includes(ASK_SIGNAL)) {
      this.askCarry = "";
      this.events.emit("asked");
    }
  }

  private onOther(name: string, args: string): void {
    if (name === "window-close" || name === "unlinked-window-close" || (name === "layout-change" && layoutDropsAKnownPane(args, this.paneWindows))) {
      void this.reportClosedPanes();
    }
  }

  private known = new Set<string>();
  /** The window each known pane was last seen in (see layoutDropsAKnownPane). */
  private paneWindows = new Map<string, string>();

  private forget(paneId: string): void {
    this.known.delete(paneId);
    this.paneWindows.delete(paneId);
    this.metaCache.delete(paneId);
    this.outputCounts.delete(paneId);
  }

  private async reportClosedPanes(): Promise<void> {
    try {
      const live = new Set((await this.listPanes()).map((p) => p.paneId));
      for (const paneId of this.known) {
        if (!live.has(paneId)) {
          this.forget(paneId);
          this.events.emit("closed", paneId);
        }
      }
    } catch {
      // reported through "down"
    }
  }

  async createPane(options: CreatePaneOptions): Promise<PaneInfo> {
    const argv = launchArgv({ argv: options.argv, cwd: options.cwd, env: options.env, clean: options.cleanEnv });
    const quotedArgv = argv.map(tmuxQuote).join(" ");
    const line = await openPane(this.tmux, this.sessionName, options, quotedArgv);
    const paneId = (line ?? "").trim();
    if (!/^%\d+$/.test(paneId)) throw new TmuxError(`tmux did not report the new pane (got ${JSON.stringify(line)})`);
    try {
      this.known.add(paneId);
      // In order, in one round trip (tmux runs a control client's commands in order): the pane's info is read after the meta and size are set.
      const [, , info] = await Promise.all([
        this.writeMeta(paneId, options.meta),
        options.splitFrom ? undefined : this.resize(paneId, options.rows, options.cols),
        this.paneInfo(paneId),
      ]);
      if (!info) throw new TmuxError(`pane ${paneId} vanished right after it was created`);
      this.paneWindows.set(paneId, info.windowId);
      return info;
    } catch (error) {
      // A half-made pane must not stay behind (nor be adopted later as a session nobody opened).
      await this.kill(paneId).catch(traced("removing a half-made pane"));
      throw error;
    }
  }

  async listPanes(): Promise<PaneInfo[]> {
    const lines = await this.cmd(`list-panes -s -t ${tmuxQuote(this.sessionName + ":")} -F ${PANE_FORMAT_ARG}`);
    const panes = parsePaneLines(lines);
    for (const pane of panes) {
      if (Object.keys(pane.meta).length) {
        this.known.add(pane.paneId);
        this.paneWindows.set(pane.paneId, pane.windowId);
        this.metaCache.set(pane.paneId, pane.meta);
      }
    }
    return panes;
  }

  async paneInfo(paneId: string): Promise<PaneInfo | undefined> {
    try {
      const lines = await this.cmd(`display-message -p -t ${tmuxQuote(paneId)} ${PANE_FORMAT_ARG}`);
      if (lines.length === 0 || (lines.length === 1 && lines[0] === "")) return undefined;
      return parsePaneLines(lines).find((info) => info.paneId === paneId);
    } catch (error) {
      if (error instanceof TmuxError && /can't find|no such/i.test(error.message)) return undefined;
      throw error;
    }
  }

  writeInput(paneId: string, data: Buffer): Promise<void> {
    return sendBytes(this.tmux, paneId, data);
  }

  async sendKeys(paneId: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const names = keys.map((k) => resolveKey(k).tmux);
    await this.cmd(`send-keys -t ${tmuxQuote(paneId)} ${names.join(" ")}`);
  }

  async resize(paneId: string, rows: number, cols: number): Promise<void> {
    // resize-window also switches the window to manual sizing, so a person attaching
    // with another terminal size does not reflow what the agent sees.
    await this.cmd(`resize-window -t ${tmuxQuote(paneId)} -x ${cols} -y ${rows}`);
  }

  async setMeta(paneId: string, key: string, value: string): Promise<void> {
    const meta = { ...(this.metaCache.get(paneId) ?? (await this.paneInfo(paneId))?.meta ?? {}), [key]: value };
    await this.writeMeta(paneId, meta);
  }

  private async writeMeta(paneId: string, meta: Record<string, string>): Promise<void> {
    const encoded = Buffer.from(JSON.stringify(meta), "utf8").toString("base64url");
    await this.cmd(`set -p -t ${tmuxQuote(paneId)} @termhive_meta ${encoded}`);
    this.metaCache.set(paneId, meta);
  }


  snapshot(paneId: string): Promise<PaneSnapshot> {
    return capturePane({ cmd: (command) => this.cmd(command), client: this.client, outputs: () => this.outputCounts.get(paneId) ?? 0 }, paneId);
  }

  /** A small file on the tmux server's host (for a server on another host: a file there), "" when it cannot be read or holds more than `maxBytes`. */
  readFile(path: string, maxBytes: number): Promise<string> {
    return readViaBuffer((command) => this.cmd(command), path, maxBytes);
  }

  /** Writes a short text file on the tmux server's host; input sent after this call reaches panes after it is written. */
  writeFile(path: string, text: string): Promise<void> {
    return writeViaBuffer((command) => this.cmd(command), path, text);
  }

  /** The requests host panes' `termhive` left in this server's buffers (buffers.ts), each taken once. */
  takeAsks(maxBytes: number): Promise<{ asks: HostAsk[]; more: boolean }> {
    return takeAsks((command) => this.cmd(command), maxBytes);
  }

  /** Removes request and answer buffers a termhive that died mid-request left (buffers.ts). */
  sweepLeftovers(): Promise<number> {
    return sweepLeftovers((command) => this.cmd(command));
  }

  answerAsk(ask: string, reply: { code: number; stdout: string; stderr: string }): Promise<void> {
    return answerAsk((command) => this.cmd(command), ask, reply);
  }

  async kill(paneId: string): Promise<void> {
    await this.cmd(`kill-pane -t ${tmuxQuote(paneId)}`);
    this.forget(paneId);
  }

  async focus(paneId: string): Promise<void> {
    const target = tmuxQuote(paneId);
    await this.cmd(`select-window -t ${target}`);
    await this.cmd(`select-pane -t ${target}`);
  }

  attachCommand(paneId: string): string {
    return `tmux -S ${shellWord(this.socketPath)} attach -t ${shellWord(paneId)}`;
  }

  async reapExited(): Promise<void> {
    // tmux reaps every finished child whenever one SIGCHLD arrives; a short-lived child of
    // the server provides one.
    await this.cmd("run-shell true");
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    await client?.stop();
  }

  /** Kills the whole tmux server (tests and `termhive doctor --reset` only). */
  async killServer(): Promise<void> {
    await this.client?.command("kill-server").catch(traced("killing the tmux server"));
  }
}
