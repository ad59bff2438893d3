// A session: one backend pane, fed once into the OSC scanner, the virtual screen, the
// transcript and the recording. It tracks where each command's output starts and ends.
import { EventEmitter } from "node:events";
import { StringDecoder } from "node:string_decoder";
import type { Backend, PaneInfo } from "../backends/backend.js";
import type { ShellKind } from "../shell/integration.js";
import { redactSecrets } from "../safety/redact.js";
import { stripAnsi } from "../util/ansi.js";
import { OscScanner, type OscEvent } from "./osc.js";
import { CastRecorder } from "./recording.js";
import { Screen } from "./screen.js";
import { Transcript } from "./transcript.js";

export interface CommandRecord {
  /** The command line, from the shell integration (OSC 633 E), termhive's own run, or the echo. */
  command: string;
  /** Absolute transcript offset where the command's output starts (just past OSC 133 C). */
  outputStart: number;
  /** Absolute offset where it ends (at OSC 133 D); null while it runs. */
  outputEnd: number | null;
  exitCode: number | null;
  startedAt: number;
  endedAt: number | null;
}

/**
 * Where the integrated shell is: starting (no prompt yet), running a command, drawing its
 * next prompt (D or A seen, B not yet), or at its prompt ready for input (B seen).
 */
export type ShellPhase = "starting" | "running" | "redrawing" | "prompt";

export interface SessionMeta {
  id: string;
  name: string;
  created: number;
  /** The program the session was opened with. */
  command: string;
  shell: ShellKind;
  /** The ssh destination of a session on another host; absent for a local one. */
  host?: string;
}

export interface SessionLimits {
  transcriptMaxChars: number;
  scrollback: number;
}

/** How much of the command history to keep (offsets only; the text is in the transcript). */
const KEPT_COMMANDS = 200;

export class TerminalSession extends EventEmitter {
  readonly transcript: Transcript;
  readonly screen: Screen;
  private readonly scanner = new OscScanner();
  private readonly decoder = new StringDecoder("utf8");
  readonly recorder: CastRecorder;

  phase: ShellPhase = "starting";
  /** OSC 133 seen from this pane: completion is exact. */
  integrated = false;
  cwd: string | null = null;
  lastExitCode: number | null = null;
  lastOutputAt = Date.now();
  alive = true;
  exitStatus: number | null = null;
  exitSignal: number | null = null;
  /** Why the session can no longer be used, when it cannot (closed, tmux gone). */
  goneReason: string | null = null;
  readonly commands: CommandRecord[] = [];
  /** Command text announced by OSC 633 E, waiting for its OSC 133 C. */
  private announcedCommand: string | null = null;
  /** Command text termhive itself typed, used when the shell does not announce it. */
  expectedCommand: string | null = null;
  private inputStart: number | null = null;
  /** Absolute offset just past the latest OSC 133 B: the shell is waiting for input there. */
  lastPromptEnd = -1;
  /** Per-client read positions ("new" mode) and last screens ("diff" mode). */
  readonly readCursors = new Map<string, number>();
  readonly lastScreens = new Map<string, string[]>();
  /** Values typed as secrets: masked in everything this session returns or records. */
  readonly secrets: string[] = [];
  /** Foreground program name as last reported by the backend. */
  foreground = "";

  constructor(
    readonly meta: SessionMeta,
    public pane: PaneInfo,
    private readonly backend: Backend,
    limits: SessionLimits,
    recordingDir: string,
  ) {
    super();
    this.setMaxListeners(0);
    this.transcript = new Transcript(limits.transcriptMaxChars);
    this.screen = new Screen(pane.rows, pane.cols, limits.scrollback);
    this.recorder = new CastRecorder(recordingDir, () => this.secrets);
    this.recorder.acquire({ cols: pane.cols, rows: pane.rows, command: meta.command, createdMs: meta.created });
    this.foreground = pane.foreground;
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

  /** Seeds screen and transcript from what the backend still shows (adoption after a restart). */
  seed(history: string, atPrompt: boolean, pane?: { cursorRow: number; cursorCol: number; alternateScreen: boolean }): void {
    // A full-screen program holds the alternate screen: the capture is that screen, drawn in
    // place, with the cursor put where tmux has it.
    const alternate = pane?.alternateScreen === true;
    if (alternate) void this.screen.write("\x1b[?1049h\x1b[H");
    // The history ends on the cursor's line, without a line break: output that follows
    // continues that line, as it does on the pane, so line numbers match every other process's.
    if (history) this.ingestText(history);
    if (pane && alternate) void this.screen.write(`\x1b[${pane.cursorRow + 1};${pane.cursorCol + 1}H`);
    // Trailing blanks a program wrote but capture left out (a REPL's ">>> "): put the screen's
    // cursor where tmux has it.
    else if (pane && pane.cursorCol > 0) void this.screen.write(`\r\x1b[${pane.cursorCol}C`);
    this.phase = atPrompt ? "prompt" : "running";
  }

  /**
   * Takes over what another process recorded about this pane's command (adoption): a command
   * still running gets a record whose output starts here, so its end (OSC 133 D) completes it
   * as if this process had seen it start; an ended one gives the last exit code.
   */
  adoptRun(run: { command: string; startedAt: number; endedAt?: number; exitCode?: number | null; previousExitCode?: number | null }): void {
    if (run.endedAt !== undefined) {
      this.lastExitCode = run.exitCode ?? null;
      return;
    }
    this.lastExitCode = run.previousExitCode ?? null;
    if (this.running) return;
    this.commands.push({
      command: run.command,
      outputStart: this.transcript.end,
      outputEnd: null,
      exitCode: null,
      startedAt: run.startedAt,
      endedAt: null,
    });
    this.phase = "running";
  }

  ingest(data: Buffer): void {
    const text = this.decoder.write(data);
    if (text) this.ingestText(text);
  }

  /** The program asked for bracketed paste at least once (`ESC[?2004h`). */
  private bracketedPasteSeen = false;

  /**
   * Puts the screen model in bracketed-paste mode without output from the program: an adopted
   * shell at its prompt whose pane is known to use it (the mode is not in a capture).
   */
  assumeBracketedPaste(): void {
    this.bracketedPasteSeen = true;
    void this.screen.write("\x1b[?2004h");
  }

  private ingestText(text: string): void {
    if (!this.bracketedPasteSeen && text.includes("\x1b[?2004h")) {
      this.bracketedPasteSeen = true;
      this.emit("bracketed-paste");
    }
    const events = this.scanner.feed(text);
    this.transcript.append(text);
    this.lastOutputAt = Date.now();
    for (const { event, start, end } of events) this.apply(event, start, end);
    this.recorder.output(text);
    void this.screen.write(text).then(() => this.emit("screen"));
    this.emit("output");
  }

  private apply(event: OscEvent, start: number, end: number): void {
    switch (event.type) {
      case "prompt-start": {
        this.integrated = true;
        // A command that ended without D (the shell was interrupted hard) is over all the same.
        const running = this.running;
        if (running) this.finishCommand(running, start, null);
        this.phase = "redrawing";
        break;
      }
      case "command-input":
        this.integrated = true;
        this.inputStart = end;
        this.lastPromptEnd = end;
        this.phase = "prompt";
        this.emit("prompt");
        break;
      case "command-line": {
        // zsh and fish announce the line before C; bash after the command, just before D.
        const current = this.running;
        if (current && current.outputStart <= start) current.command = event.command;
        else this.announcedCommand = event.command;
        break;
      }
      case "command-output": {
        this.integrated = true;
        const current = this.running;
        if (current) {
          // bash runs a multi-line input line by line (a C per line, one D at the end): one command.
          const more = this.announcedCommand ?? "";
          if (more) current.command += "\n" + more;
          this.announcedCommand = null;
          break;
        }
        const typed = this.inputStart === null ? "" : this.transcript.slice(this.inputStart, start).text;
        const record: CommandRecord = {
          command: this.announcedCommand ?? this.expectedCommand ?? firstLineOf(typed),
          outputStart: end,
          outputEnd: null,
          exitCode: null,
          startedAt: Date.now(),
          endedAt: null,
        };
        this.announcedCommand = null;
        this.expectedCommand = null;
        this.commands.push(record);
        this.transcript.pin(end);
        if (this.commands.length > KEPT_COMMANDS) this.commands.shift();
        this.phase = "running";
        this.emit("command-start", record);
        break;
      }
      case "command-end": {
        const running = this.running;
        if (running) this.finishCommand(running, start, event.exitCode);
        break;
      }
      case "cwd":
        this.cwd = event.path;
        break;
      case "custom":
        this.emit("custom", event.id, event.payload);
        break;
    }
  }

  private finishCommand(record: CommandRecord, at: number, exitCode: number | null): void {
    record.outputEnd = at;
    record.exitCode = exitCode;
    record.endedAt = Date.now();
    this.lastExitCode = exitCode;
    this.phase = "redrawing";
    this.emit("command-end", record);
  }

  markExited(status: number | null, signal: number | null): void {
    if (!this.alive) return;
    this.alive = false;
    this.exitStatus = status;
    this.exitSignal = signal;
    const rest = this.decoder.end();
    if (rest) this.ingestText(rest);
    this.emit("exit", status, signal);
  }

  markGone(reason: string): void {
    if (this.goneReason) return;
    this.goneReason = reason;
    this.alive = false;
    this.recorder.close();
    this.screen.dispose();
    this.emit("gone", reason);
  }

  /**
   * Asks the backend whether the pane still lives. The exit notification is the normal path;
   * this is the fallback a quiet wait uses, so a lost notification costs a second, not a timeout.
   */
  async verifyAlive(final = false): Promise<void> {
    if (!this.alive) return;
    let info = await this.backend.paneInfo(this.paneId).catch(() => undefined);
    // tmux marks a pane dead at end of output and learns the status when it reaps the
    // process; until then the exit notification (with the status) is still on its way.
    const known = (pane: typeof info) => pane !== undefined && (pane.exitStatus !== null || pane.exitSignal !== null);
    if (info?.dead && !known(info) && this.backend.reapExited) {
      await this.backend.reapExited().catch(() => {});
      info = (await this.backend.paneInfo(this.paneId).catch(() => undefined)) ?? info;
    }
    const statusKnown = known(info);
    if (info?.dead && (statusKnown || final)) this.markExited(info.exitStatus, info.exitSignal);
  }

  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  async write(data: Buffer): Promise<void> {
    await this.backend.writeInput(this.paneId, data);
  }

  async keys(keys: readonly string[]): Promise<void> {
    await this.backend.sendKeys(this.paneId, keys);
  }

  async resize(rows: number, cols: number): Promise<void> {
    await this.backend.resize(this.paneId, rows, cols);
    this.screen.resize(rows, cols);
    this.recorder.resize(cols, rows);
    this.pane = { ...this.pane, rows, cols };
  }
}

function firstLineOf(text: string): string {
  // The echo of what was typed, without prompt redraw escapes.
  return stripAnsi(text).replace(/\r/g, "").split("\n")[0]?.trim() ?? "";
}
