// What is known of one session at any moment (see TerminalSession, which keeps it up to date
// as output arrives): the shell's phase and marks, the pane, how the program ended, and the
// commands seen. Read-only from outside; the session writes the protected fields.
import type { PaneInfo } from "../../backends/backend.js";
import { basename } from "node:path";
import { SessionEmitters } from "./session-emitters.js";
import type { CommandRecord, SessionExit, SessionMeta, ShellPhase } from "./session-types.js";

export abstract class SessionState extends SessionEmitters {
  protected currentPhase: ShellPhase = "starting";
  protected integratedShell = false;
  protected shellEnding = false;
  protected currentCwd: string | null = null;
  protected exitCodeOfLast: number | null = null;
  protected outputAt = Date.now();
  protected living = true;
  protected exit: SessionExit = { status: null, signal: null };
  protected gone: string | null = null;
  protected promptEnd = -1;
  /** Absolute offset just past the latest continuation-prompt mark (OSC 133;P;k=c); -1: none. */
  protected continuationEnd = -1;
  /** Absolute offset just past the latest folder report (OSC 7); -1: none yet. */
  protected cwdReportEnd = -1;
  protected paneInfo: PaneInfo;
  protected foregroundProgram: string;
  /** Recent commands, oldest first (records are updated in place as a command ends). */
  readonly commands: CommandRecord[] = [];
  /** Command text announced by OSC 633 E, waiting for its OSC 133 C. */
  protected announcedCommand: string | null = null;
  /** Command text termhive itself typed, used when the shell does not announce it. */
  protected expectedCommand: string | null = null;
  protected inputStart: number | null = null;
  /** Where output was lost (tmux paused the pane for this process), newest last, a few kept. */
  protected readonly gaps: { at: number; reason: string }[] = [];

  /** Per-client read positions ("new" mode) and last screens ("diff" mode). */
  readonly readCursors = new Map<string, number>();
  readonly lastScreens = new Map<string, string[]>();
  protected readonly secretValues: string[] = [];

  constructor(
    readonly meta: SessionMeta,
    pane: PaneInfo,
  ) {
    super();
    this.paneInfo = pane;
    this.foregroundProgram = this.programOf(pane);
  }

  /**
   * A dead pane's "current command" is no program of its own: tmux names the process it was
   * launched through (`sh`). What ran there is the session's program.
   */
  private programOf(pane: PaneInfo): string {
    if (!pane.dead) return pane.foreground;
    return basename(this.meta.command.trim().split(/\s+/)[0] ?? "") || pane.foreground;
  }

  /** Where the integrated shell is (see ShellPhase). */
  get phase(): ShellPhase {
    return this.currentPhase;
  }

  /** OSC 133 seen from this pane (or its shell is one termhive integrates): completion is exact. */
  get integrated(): boolean {
    return this.integratedShell;
  }

  /** The shell's working directory as it last reported it (OSC 7). */
  get cwd(): string | null {
    return this.currentCwd;
  }

  get lastExitCode(): number | null {
    return this.exitCodeOfLast;
  }

  /** When output last arrived (ms since the epoch). */
  get lastOutputAt(): number {
    return this.outputAt;
  }

  /** The shell's exit hook reported its last command: the pane's program is ending. */
  get ending(): boolean {
    return this.shellEnding;
  }

  get alive(): boolean {
    return this.living;
  }

  get exitStatus(): number | null {
    return this.exit.status;
  }

  get exitSignal(): number | null {
    return this.exit.signal;
  }

  /** Why the session can no longer be used, when it cannot (closed, tmux gone). */
  get goneReason(): string | null {
    return this.gone;
  }

  /** Absolute offset just past the latest OSC 133 B: the shell is waiting for input there. */
  get lastPromptEnd(): number {
    return this.promptEnd;
  }

  /** Absolute offset just past the latest OSC 7: an integrated shell reports its folder at each prompt it starts. */
  get lastCwdReportEnd(): number {
    return this.cwdReportEnd;
  }

  /**
   * Absolute offset just past the latest continuation-prompt mark: the shell took a line it
   * cannot run yet (an open quote, loop or trailing backslash) and waits for more.
   */
  get lastContinuationEnd(): number {
    return this.continuationEnd;
  }

  /** The shell shows a continuation prompt now (no new prompt or command since the mark). */
  get awaitingContinuation(): boolean {
    return this.continuationEnd > this.promptEnd && this.currentPhase === "prompt";
  }

  get pane(): PaneInfo {
    return this.paneInfo;
  }

  /** Foreground program name as last reported by the backend. */
  get foreground(): string {
    return this.foregroundProgram;
  }

  /** What the backend now says about the pane (after a refresh, split or re-layout). */
  updatePane(pane: PaneInfo): void {
    this.paneInfo = pane;
    this.foregroundProgram = this.programOf(pane);
  }

  /** Values typed as secrets: masked in everything this session returns or records. */
  get secrets(): readonly string[] {
    return this.secretValues;
  }

  /** From now on `value` is masked in everything this session returns or records. */
  addSecret(value: string): void {
    if (value && !this.secretValues.includes(value)) this.secretValues.push(value);
  }

  /** The command line termhive is about to type: names the command if the shell does not announce it. */
  expectCommand(command: string): void {
    this.expectedCommand = command;
  }

  /** The folder the program was started in: the working directory until the shell reports one (OSC 7). */
  startedIn(cwd: string): void {
    this.currentCwd ??= cwd;
  }

  /** The last exit code as another process recorded it (adoption). */
  restoreLastExitCode(code: number | null): void {
    this.exitCodeOfLast = code;
  }

  get id(): string {
    return this.meta.id;
  }

  get name(): string {
    return this.meta.name;
  }

  get paneId(): string {
    return this.pane.paneId;
  }

  /** The command currently running (integrated shells), if any. */
  get running(): CommandRecord | undefined {
    const last = this.commands[this.commands.length - 1];
    return last && last.outputEnd === null ? last : undefined;
  }
}
