// Live sessions of this process: created here or adopted from the backend (another termhive
// process, or this one before a restart), resolved by id or name, kept in step with the panes.
// Every session's lifecycle is announced here as typed events (opened, output, screen changed,
// command started/finished, exited, closed): subscribers follow sessions through these only.
import { paneEnvironment } from "../../util/pane-env.js";
import { closeSync, openSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import type { Backend, HostFacts, PaneInfo } from "../../backends/backend.js";
import type { TermhiveConfig } from "../../config.js";
import { detectShell, integrationLaunch } from "../../shell/integration.js";
import { Emitter } from "../../util/event.js";
import { DisposableStore } from "../../util/lifecycle.js";
import { TerminalSession, type SessionMeta } from "../session/session.js";
import { ensurePrivateDir } from "../../util/paths.js";
import type { AuditLog } from "../../audit.js";
import { ToolError } from "../../util/tool-error.js";
import { EndedSessions, newSessionId, validateName } from "./session-names.js";
import { hostCliEnv, paneCliEnv } from "./pane-cli.js";
import { publishRuns } from "./run-state.js";
import { statusFilePath } from "./status-file.js";
import { adoptRecordedRun, shellStatusWritten } from "./adopt-run.js";
import { prepareHost } from "./host-prepare.js";
import { cleanCallerEnv, type SandboxedLaunch } from "../../sandbox/launch.js";
import { paneSandbox } from "./pane-sandbox.js";
import { RELAY_ENV } from "../../sandbox/relay.js";
import type { SandboxOption, SandboxPolicy } from "../../sandbox/policy.js";
import { claimName, markNameOpened, releaseName } from "./name-claim.js";
import { adoptPasteMode, publishPasteMode } from "./paste-mode.js";
import { removeSecretLineMark } from "../../shell/secret-line.js";
import { plainShellPagerEnv, removeRunLineMark } from "../../shell/run-line.js";
import { metaFromPane, ownProgramInForeground, remoteCwd, resolveCwd } from "./pane-place.js";
import type { CommandStartedEvent, CommandFinishedEvent, SessionClosedEvent, SessionEvent, SessionExitedEvent, SessionOutputEvent } from "./registry-events.js";

export { ownProgramInForeground } from "./pane-place.js";
export type { CommandFinishedEvent, CommandStartedEvent, SessionClosedEvent, SessionEvent, SessionExitedEvent, SessionOutputEvent } from "./registry-events.js";

export interface OpenOptions {
  name?: string;
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
  rows: number;
  cols: number;
  /** An ssh destination: the session runs in that host's tmux (see src/backends/remote/). */
  host?: string;
  /** Split this session's pane instead of opening a new window (layouts). */
  splitFrom?: { session: TerminalSession; direction: "left" | "right" | "above" | "below"; percent?: number };
  /** The caller has just refreshed the registry (checking the session limit): not again. */
  refreshed?: boolean;
  /** Run the pane's program under this sandbox policy (src/sandbox/). */
  sandbox?: SandboxOption;
  /** A policy granted before (agent_restore), opened as it was instead of `sandbox`. */
  grantedSandbox?: SandboxPolicy;
}

/** Output for panes not registered yet (a new pane prints before createPane returns), bounded. */
const ORPHAN_LIMIT = 256 * 1024;

export class SessionRegistry {
  private readonly sessions = new Map<string, TerminalSession>();
  /** The same sessions by pane id: every output chunk is routed through it. */
  private readonly panes = new Map<string, TerminalSession>();
  private readonly orphans = new Map<string, Buffer[]>();
  /** Output of panes being adopted, held until their snapshot is in (see adopt). */
  private readonly seeding = new Map<string, Buffer[]>();
  private refreshing: Promise<void> | null = null;
  /** Ids of sessions this process is creating: a concurrent refresh must not adopt them. */
  private readonly opening = new Set<string>();
  private readonly ended = new EndedSessions();
  private nameCounter = 0;

  /** One emitter per kind of session event; subscribers see only the on… events below. */
  private readonly emit = {
    opened: new Emitter<SessionEvent>(),
    output: new Emitter<SessionOutputEvent>(),
    screenChanged: new Emitter<SessionEvent>(),
    commandStarted: new Emitter<CommandStartedEvent>(),
    commandFinished: new Emitter<CommandFinishedEvent>(),
    exited: new Emitter<SessionExitedEvent>(),
    closed: new Emitter<SessionClosedEvent>(),
  };
  /** A session joined this process: opened here, or adopted from the backend. */
  readonly onOpened = this.emit.opened.event;
  readonly onOutput = this.emit.output.event;
  readonly onScreenChanged = this.emit.screenChanged.event;
  readonly onCommandStarted = this.emit.commandStarted.event;
  readonly onCommandFinished = this.emit.commandFinished.event;
  /** A session's program exited; the session stays (its output is still readable) until closed. */
  readonly onExited = this.emit.exited.event;
  /** A session left this process for good (closed, pane vanished, backend gone); its last event. */
  readonly onClosed = this.emit.closed.event;

  constructor(
    readonly backend: Backend,
    private readonly config: TermhiveConfig,
    private readonly audit: AuditLog,
  ) {
    backend.on("output", (paneId, data) => this.route(paneId, data));
    backend.on("exit", (paneId, status, signal) => {
      const session = this.byPane(paneId);
      if (!session) return;
      void session.markExitedAfterLastOutput(status, signal).then(() => {
        this.audit.write({ event: "exit", session: session.id, name: session.name, status, signal });
      });
    });
    backend.on("closed", (paneId) => {
      const session = this.byPane(paneId);
      if (!session) return;
      this.forget(session, "its pane was closed");
      void releaseName(this.backend, session.name, session.id);
      session.markGone("its pane was closed");
      this.audit.write({ event: "closed", session: session.id, name: session.name });
    });
    backend.on("gap", (paneId, reason) => {
      const session = this.byPane(paneId);
      if (!session) return;
      session.noteGap(reason);
      this.audit.write({ event: "output-lost", session: session.id, name: session.name, reason });
    });
    backend.on("down", (reason) => {
      const said = reason ? ` (${reason})` : "";
      for (const session of this.sessions.values()) this.ended.note(session, `the ${backend.kind} server that held it ended${said}, and its sessions ended with it`);
      for (const session of this.sessions.values()) session.markGone(`the ${backend.kind} server went away${said}`);
      for (const map of [this.sessions, this.panes, this.orphans]) map.clear();
      this.audit.write({ event: "backend-down", reason });
    });
    // That host's sessions are dropped here only: the next call that names one reconnects and
    // adopts it again from the host's tmux, output made meanwhile included.
    backend.on("hostDown", (host, reason) => {
      for (const session of this.all().filter((s) => s.meta.host === host)) {
        this.forget(session, reason);
        session.markGone(reason);
      }
    });
  }

  private route(paneId: string, data: Buffer): void {
    const seeding = this.seeding.get(paneId);
    if (seeding) {
      seeding.push(Buffer.from(data));
      return;
    }
    const session = this.byPane(paneId);
    if (session) {
      session.ingest(data);
      return;
    }
    const held = this.orphans.get(paneId) ?? [];
    // A copy: the backend's chunk may share its memory with a much larger read.
    if (held.reduce((n, b) => n + b.length, 0) < ORPHAN_LIMIT) held.push(Buffer.from(data));
    this.orphans.set(paneId, held);
  }

  /** The live session with this id, if this process has one. */
  byId(id: string): TerminalSession | undefined {
    return this.sessions.get(id);
  }

  /** The live session showing this pane, if this process has one. */
  byPane(paneId: string): TerminalSession | undefined {
    return this.panes.get(paneId);
  }

  private forget(session: TerminalSession, why: string): void {
    this.ended.note(session, why);
    this.sessions.delete(session.id);
    if (this.panes.get(session.paneId) === session) this.panes.delete(session.paneId);
  }

  /** Starts the backend if needed and adopts every termhive pane it has. */
  async ensureStarted(): Promise<void> {
    if (!this.backend.connected) {
      try {
        await this.backend.start();
      } catch (error) {
        throw new ToolError(`cannot start the ${this.backend.kind} backend: ${(error as Error).message}`, "unavailable");
      }
      await this.refresh();
    }
  }

  /** Re-reads the backend's panes: adopts new termhive panes, drops vanished ones. */
  refresh(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => (this.refreshing = null));
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    // Only sessions this process had before the listing began can be missing from it: one
    // opened while it ran (on a host the listing did not ask yet: a team spawned on two hosts
    // at once) is simply newer than the listing.
    const listedSince = new Set([...this.sessions.keys()].filter((id) => !this.opening.has(id)));
    const panes = await this.backend.listPanes();
    // A host that did not answer in time is not a host whose panes closed.
    const leftOut = this.backend.hosts?.hostsLeftOut() ?? new Set<string>();
    const seen = new Set<string>();
    for (const pane of panes) {
      const id = pane.meta.id;
      if (!id || this.opening.has(id)) continue; // being opened by this process right now
      seen.add(id);
      const existing = this.sessions.get(id);
      if (existing) {
        if (existing.paneId !== pane.paneId && this.panes.get(existing.paneId) === existing) this.panes.delete(existing.paneId);
        existing.updatePane(pane);
        this.panes.set(pane.paneId, existing);
        // verifyAlive, not the listing's status: tmux can list a pane dead before it has reaped
        // the program, and a status taken then is null (`exit 3` read as exit_code null).
        if (pane.dead) await existing.verifyAlive(true);
        continue;
      }
      await this.adopt(pane);
    }
    for (const [id, session] of this.sessions) {
      if (!seen.has(id) && listedSince.has(id) && !(session.meta.host !== undefined && leftOut.has(session.meta.host))) {
        this.forget(session, "its pane was closed");
        void releaseName(this.backend, session.name, session.id);
        session.markGone("its pane was closed");
      }
    }
  }

  private async adopt(pane: PaneInfo): Promise<void> {
    const meta = metaFromPane(pane);
    const session = this.createSession(meta, pane);
    this.orphans.delete(pane.paneId); // the snapshot below already holds that output
    // Live output is held back while the snapshot is taken: what the snapshot holds is
    // dropped, the rest is fed after it, so no line is there twice or out of order.
    const held: Buffer[] = [];
    this.seeding.set(pane.paneId, held);
    try {
      const snap = await this.backend.snapshot(pane.paneId);
      // A shell still reading its rc files (opened by a process that returned at once) has not
      // written its status line yet: it stays "starting" here too, until its first prompt.
      const starting = meta.shell !== "other" && !pane.dead && !(await shellStatusWritten(session, this.backend, this.config.home));
      const atPrompt = meta.shell !== "other" && ownProgramInForeground(pane, meta);
      session.seed(snap.history, starting ? "starting" : atPrompt ? "prompt" : "running", snap, meta.shell !== "other");
      // Before the held output: an end (OSC 133 D) in it must find the running command.
      if (session.integrated && !pane.dead) await adoptRecordedRun(session, this.backend, this.config.home, pane, atPrompt);
      // A shell at its prompt, or a program run without a shell (an agent's TUI, which keeps
      // the mode on while it runs): the pane says whether it takes bracketed paste.
      if ((atPrompt || meta.shell === "other") && !pane.dead) await adoptPasteMode(session, this.backend);
      this.seeding.delete(pane.paneId);
      for (const chunk of held.slice(snap.outputsIncluded)) session.ingest(chunk);
    } catch {
      // The pane vanished while we looked; the next refresh drops it.
    } finally {
      if (this.seeding.get(pane.paneId) === held) {
        this.seeding.delete(pane.paneId);
        for (const chunk of held) session.ingest(chunk);
      }
    }
    if (pane.dead) await session.verifyAlive(true);
    this.audit.write({ event: "adopt", session: meta.id, name: meta.name, pane: pane.paneId });
  }

  private createSession(meta: SessionMeta, pane: PaneInfo): TerminalSession {
    const dir = ensurePrivateDir(join(this.config.home, "sessions", meta.id));
    const session = new TerminalSession(
      meta,
      pane,
      this.backend,
      { transcriptMaxChars: this.config.transcriptMaxChars, scrollback: this.config.scrollback, recordingMaxBytes: this.config.recordingMaxBytes },
      dir,
    );
    this.sessions.set(meta.id, session);
    this.panes.set(pane.paneId, session);
    publishRuns(session, this.backend, this.config.home);
    publishPasteMode(session, this.backend);
    this.forward(session);
    this.emit.opened.fire({ session });
    return session;
  }

  /** Re-announces one session's events as the registry's, until it closes. */
  private forward(session: TerminalSession): void {
    const wiring = new DisposableStore();
    wiring.add(session.onOutput((data) => this.emit.output.fire({ session, data })));
    wiring.add(session.onScreenChanged(() => this.emit.screenChanged.fire({ session })));
    wiring.add(session.onCommandStarted((record) => this.emit.commandStarted.fire({ session, record })));
    wiring.add(session.onCommandFinished((finished) => this.emit.commandFinished.fire({ session, ...finished })));
    wiring.add(session.onExited((exit) => this.emit.exited.fire({ session, ...exit })));
    wiring.add(session.onClosed((reason) => {
      wiring.dispose();
      this.emit.closed.fire({ session, reason });
    }));
  }

  all(): TerminalSession[] {
    return [...this.sessions.values()];
  }

  /** Finds a session by id or name; unknown → an error listing the live ones. */
  async get(ref: string): Promise<TerminalSession> {
    await this.ensureStarted();
    const found = this.find(ref);
    if (found) return found;
    await this.refresh();
    const again = this.find(ref);
    if (again) return again;
    const live = this.all().map((s) => `${s.name} (${s.id})`);
    const why = this.ended.of(ref);
    throw new ToolError(
      `unknown session ${JSON.stringify(ref)}${why}; ` + (live.length ? `live sessions: ${live.join(", ")}` : "no sessions are open — use terminal_open"),
      "not_found",
    );
  }

  private find(ref: string): TerminalSession | undefined {
    return this.sessions.get(ref) ?? this.all().find((s) => s.name === ref);
  }

  async open(options: OpenOptions): Promise<TerminalSession> {
    await this.ensureStarted();
    if (!options.refreshed) await this.refresh();
    const given = options.name === undefined ? undefined : validateName(options.name, "session name");
    // A split pane lives in its session's tmux window, so on its host.
    const splitHost = options.splitFrom?.session.meta.host;
    if (options.splitFrom && options.host !== undefined && options.host !== splitHost) {
      throw new ToolError(`a split pane runs on the host of ${options.splitFrom.session.name} (${splitHost ?? "this machine"}), not ${options.host}; nothing was opened`);
    }
    const hostName = options.host ?? splitHost;
    const host = hostName === undefined ? null : await prepareHost(this.backend, hostName);
    const cwd = host ? remoteCwd(host, options.cwd) : resolveCwd(options.cwd);
    const id = newSessionId();
    const { name, release } = await this.claim(given, options.command, id);
    const program = options.command?.trim() || (host ? host.shell : this.config.shell);
    const single = !/\s/.test(program);
    const shellKind = single ? detectShell(program) : "other";
    const launch =
      shellKind === "other"
        ? { argv: single ? [program] : ["/bin/sh", "-c", program], env: {} as Record<string, string> }
        : integrationLaunch(program, {
            stateDir: ensurePrivateDir(join(this.config.home, "shell")),
            ...(host ? { assetDir: host.shellDir, baseEnv: {} } : {}),
          });
    // Made owner-only here: the shell's `>|` rewrite keeps the mode, never the user's umask.
    if (shellKind !== "other" && !host) closeSync(openSync(statusFilePath(this.config.home, id), "a", 0o600));
    const callerEnv = host ? {} : paneEnvironment(process.env, this.config.paneEnv);
    const asked = options.grantedSandbox ? { granted: options.grantedSandbox } : options.sandbox;
    // A refused policy releases the name it claimed (it stayed "being opened by another termhive process").
    const sandbox: SandboxedLaunch | undefined = await paneSandbox({ asked, host, argv: launch.argv, cwd, program, sessionId: id, shell: shellKind !== "other", termhiveHome: this.config.home, callerEnv, ...(options.env ? { env: options.env } : {}) })
      .catch(async (error: unknown) => { await release(); throw error; });
    // A local pane's environment is this process's (the caller's, util/pane-env.ts), never the
    // tmux server's; a remote pane starts from its host's.
    const env: Record<string, string> = {
      ...(sandbox?.policy.env === "clean" ? cleanCallerEnv(callerEnv) : callerEnv),
      LANG: process.env.LANG || "C.UTF-8",
      ...launch.env,
      TERMHIVE_HOME: host ? host.stateDir : this.config.home,
      TERMHIVE_SESSION: id,
      TERMHIVE_SESSION_NAME: name,
      ...(host ? hostCliEnv(host) : paneCliEnv(this.config.home)),
      // The in-pane `termhive` reaches the hive through this folder (sandbox/relay.ts), not TERMHIVE_HOME.
      ...(sandbox?.relayDir ? { [RELAY_ENV]: sandbox.relayDir } : {}),
      ...options.env,
      ...(sandbox || host ? {} : plainShellPagerEnv(program, { ...callerEnv, ...options.env })),
    };
    const meta: SessionMeta = { id, name, created: Date.now(), command: program, shell: shellKind, ...(host ? { host: host.host } : {}), ...(sandbox ? { sandbox: sandbox.policy } : {}) };
    this.opening.add(id);
    try {
      const session = await this.createOpened(meta, sandbox ?? launch, env, { ...options, cwd });
      await markNameOpened(this.backend, name, id, session.paneId);
      return session;
    } catch (error) {
      await release();
      throw error;
    } finally {
      this.opening.delete(id);
    }
  }

  /**
   * Reserves the session's name for every termhive process (see name-claim.ts). A generated
   * name that another process took meanwhile moves on to the next number.
   */
  private async claim(given: string | undefined, command: string | undefined, id: string): Promise<{ name: string; release: () => Promise<void> }> {
    for (let attempt = 0; ; attempt++) {
      const name = given ?? this.generateName(command);
      const clash = this.all().find((s) => s.name === name);
      try {
        if (clash) throw new ToolError(`a session named ${JSON.stringify(name)} already exists (${clash.id}); pick another name or close it first`);
        const release = await claimName(this.backend, name, id, new Set(this.sessions.keys()));
        return { name, release };
      } catch (error) {
        if (given !== undefined || attempt >= 20) throw error;
      }
    }
  }

  private async createOpened(
    meta: SessionMeta,
    launch: { argv: string[] },
    env: Record<string, string>,
    options: OpenOptions,
  ): Promise<TerminalSession> {
    const { id, name } = meta;
    const program = meta.command;
    const shellKind = meta.shell;
    const pane = await this.backend.createPane({
      argv: launch.argv,
      cwd: options.cwd,
      env,
      cleanEnv: !meta.host,
      rows: options.rows,
      cols: options.cols,
      meta: { id, name, created: String(meta.created), command: program, shell: shellKind, ...(meta.host ? { host: meta.host } : {}), ...(meta.sandbox ? { sandbox: JSON.stringify(meta.sandbox) } : {}) },
      splitFrom: options.splitFrom
        ? { paneId: options.splitFrom.session.paneId, direction: options.splitFrom.direction, percent: options.splitFrom.percent }
        : undefined,
    });
    const session = this.createSession(meta, pane);
    // A shell still reading its rc files has not reported its folder yet (OSC 7); a local one starts here.
    if (!meta.host && options.cwd) session.startedIn(options.cwd);
    for (const chunk of this.orphans.get(pane.paneId) ?? []) session.ingest(chunk);
    this.orphans.delete(pane.paneId);
    // A sandboxed pane's policy is on record: what it may write and reach, for a later look at what it did.
    this.audit.write({ event: "open", session: id, name, command: program, cwd: options.cwd, pane: pane.paneId, ...(meta.sandbox ? { sandbox: meta.sandbox } : {}) });
    return session;
  }

  private generateName(command: string | undefined): string {
    const base = basename((command?.trim() || this.config.shell).split(/\s+/)[0] ?? "term").replace(/[^A-Za-z0-9._-]/g, "") || "term";
    for (;;) {
      const name = `${base}-${++this.nameCounter}`;
      if (!this.all().some((s) => s.name === name)) return name;
    }
  }

  async close(session: TerminalSession): Promise<void> {
    this.forget(session, "it was closed (terminal_close)");
    try {
      await this.backend.kill(session.paneId).catch(async (error: unknown) => {
        // Another process closed it between our lookup and our kill: answered as for any
        // session that is already closed, not as a backend failure.
        if ((await this.backend.paneInfo(session.paneId).catch(() => null)) !== undefined) throw error;
        throw new ToolError(`unknown session ${JSON.stringify(session.name)}: another termhive process closed it just now`, "not_found");
      });
      await releaseName(this.backend, session.name, session.id);
      rmSync(statusFilePath(this.config.home, session.id), { force: true });
      removeSecretLineMark(this.config.home, session.id);
      removeRunLineMark(this.config.home, session.id);
    } finally {
      session.markGone("closed");
      this.audit.write({ event: "close", session: session.id, name: session.name });
    }
  }
}
