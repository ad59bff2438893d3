// A session: one backend pane, fed once into the OSC scanner, the virtual screen, the
// transcript and the recording. It tracks where each command's output starts and ends, and
// tells what happened through typed events (the registry forwards them for every session).
import { StringDecoder } from "node:string_decoder";
import type { Backend, PaneInfo } from "../../backends/backend.js";
import { redactSecrets } from "../../redact.js";
import { SessionState } from "./session-state.js";
import { firstLineOf, locateEndedOutput, saidExitLength } from "../model/command-text.js";
import { OscScanner, type OscEvent } from "../model/osc.js";
import { CastRecorder } from "./recording.js";
import { Screen } from "../model/screen.js";
import { Transcript } from "../model/transcript.js";
import { InputLineEcho } from "./input-echo.js";
import { InputMarks } from "./input-marks.js";
import type { CommandEndReason, CommandFinished, CommandRecord, SessionExit, SessionLimits, SessionMeta, ShellPhase } from "./session-types.js";
import { asksTheTerminal } from "../model/terminal-query.js";
import { traced } from "../../util/traced.js";

export { locateEndedOutput } from "../model/command-text.js";
export type { CommandEndReason, CommandFinished, CommandRecord, SessionExit, SessionLimits, SessionMeta, ShellPhase } from "./session-types.js";

/** The key that tells a shell's exit hook its last D arrived (an empty Enter if the shell is already gone). */
const EXIT_ACK = "\r";

/** How long an exit reported ahead of the pane's last output waits for the shell's last D. */
const EXIT_DRAIN_MAX_MS = 1_000;

/** How much of the command history to keep (offsets only; the text is in the transcript). */
const KEPT_COMMANDS = 200;
export class TerminalSession extends SessionState {
  readonly transcript: Transcript;
  readonly screen: Screen;
  private readonly scanner = new OscScanner();
  private readonly decoder = new StringDecoder("utf8");
  readonly recorder: CastRecorder;
  /** The echo of the line the shell reads, apart from what was printed on it. */
  private readonly line = new InputLineEcho((edge) => this.screen.markInput(edge));
  /** Where input went in, and when live output came (a wait for a pattern looks past the last input). */
  readonly inputs = new InputMarks(() => ({ backend: this.backend, paneId: this.paneId }));

  constructor(
    meta: SessionMeta,
    pane: PaneInfo,
    private readonly backend: Backend,
    limits: SessionLimits,
    recordingDir: string,
  ) {
    super(meta, pane);
    this.transcript = new Transcript(limits.transcriptMaxChars);
    this.screen = new Screen(pane.rows, pane.cols, limits.scrollback);
    this.recorder = new CastRecorder(recordingDir, () => this.secrets, limits.recordingMaxBytes);
    this.recorder.acquire({ cols: pane.cols, rows: pane.rows, command: meta.command, createdMs: meta.created });
  }

  /** Seeds screen and transcript from what the backend still shows (adoption after a restart). */
  seed(history: string, phase: ShellPhase, pane?: { cursorRow: number; cursorCol: number; alternateScreen: boolean }, integrated = false): void {
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
    this.currentPhase = phase;
    if (integrated) this.integratedShell = true;
    if (integrated && phase === "prompt") this.readingFromCursor();
    // No output event: the history is not new output (watchers must not match it again);
    // subscribers that replay a session read it from the transcript.
  }

  /** An integrated shell adopted at its prompt is reading its line from the cursor on (its B went by before this process looked): what comes next is the echo of that line. */
  private readingFromCursor(): void {
    this.line.starts(this.transcript.end);
    this.line.edges = [];
    this.screen.markInput("start");
  }

  /**
   * Adoption learnt that the command the pane listing showed running has ended: the pane was
   * listed just before its end, or the shell runs its own prompt hook (a git prompt) after the
   * end. `atPrompt`: the shell has the terminal back; otherwise its prompt is still to come.
   */
  adoptedPastEnd(atPrompt: boolean): void {
    if (this.currentPhase !== "running" || this.running) return;
    this.currentPhase = atPrompt ? "prompt" : "redrawing";
    if (atPrompt) this.readingFromCursor();
  }

  /**
   * Takes over what another process recorded about this pane's command (adoption): a command
   * still running gets a record whose output starts here, so its end (OSC 133 D) completes it
   * as if this process had seen it start; an ended one gives the last exit code.
   */
  adoptRun(run: { command: string; startedAt: number; endedAt?: number; exitCode?: number | null; previousExitCode?: number | null }): void {
    if (run.endedAt !== undefined) {
      this.exitCodeOfLast = run.exitCode ?? null;
      // Recorded as a command that ended, so a wait for completion here answers at once, as it
      // does in the process that saw it end (one answer, whichever process asks). Where its output lies in the adopted
      // history is found from its echo; not found, the record holds no output, only its end.
      // Only with the shell past that end (at its prompt, or drawing it): a program in the
      // foreground means a later command runs whose start went unrecorded (a process killed as
      // it began).
      if ((this.currentPhase !== "prompt" && this.currentPhase !== "redrawing") || this.running || this.commands.length > 0) return;
      const { outputStart, outputEnd } = locateEndedOutput(this.transcript.slice(this.transcript.start).text, this.transcript.start, run.command);
      this.commands.push({ command: run.command, outputStart, outputEnd, exitCode: run.exitCode ?? null, startedAt: run.startedAt, endedAt: run.endedAt });
      return;
    }
    this.exitCodeOfLast = run.previousExitCode ?? null;
    if (this.running) return;
    this.commands.push({
      command: run.command,
      outputStart: this.transcript.end,
      outputEnd: null,
      exitCode: null,
      startedAt: run.startedAt,
      endedAt: null,
    });
    this.currentPhase = "running";
  }

  /** Takes in a chunk of the pane's output (bytes; a character split across chunks waits for its rest). */
  ingest(data: Buffer): void {
    const text = this.decoder.write(data);
    this.inputs.output(this.transcript.end);
    if (text) this.ingestText(text);
    this.outputEmitter.fire(data);
  }

  private bracketedPasteSeen = false;
  /** The program asked for bracketed paste at least once (`ESC[?2004h`; shells ask at each prompt). */
  get asksForBracketedPaste(): boolean { return this.bracketedPasteSeen; }

  /** The screen model in bracketed-paste mode without the program's output: an adopted shell at its prompt known to use it (a capture lacks the mode). */
  assumeBracketedPaste(): void {
    this.bracketedPasteSeen = true;
    void this.screen.write("\x1b[?2004h");
  }

  /** A terminal query was seen since termhive last typed here: an unread answer may sit in the line editor. */
  private answerMayWait = false;

  private ingestText(text: string): void {
    if (asksTheTerminal(text)) this.answerMayWait = true;
    if (!this.bracketedPasteSeen && text.includes("\x1b[?2004h")) {
      this.bracketedPasteSeen = true;
      this.bracketedPasteEmitter.fire();
    }
    const base = this.transcript.end;
    const events = this.scanner.feed(text);
    this.transcript.append(text);
    this.outputAt = Date.now();
    // The line editor draws the prompt (A, B), the terminal's own echo is over: the prompt is not echo.
    const prompt = events.find((e) => e.event.type === "prompt-start" || e.event.type === "command-input");
    if (!this.line.reading) this.line.typed.scan(prompt ? text.slice(0, Math.max(0, prompt.start - base)) : text, base, (start, end) => this.line.ranges.add(start, end));
    // Recorded before the events are applied: a command that ends in this chunk has it on disk.
    this.recorder.output(text);
    this.line.edges = [];
    this.line.chunkArrived(text, base, events);
    for (const { event, start, end } of events) this.apply(event, start, end);
    // Whole lines printed at the prompt, untyped: output. A line typed elsewhere (another
    // process, a person) is submitted by its Enter, whose C comes with its line break or in
    // the next chunk (see input-echo.ts); the line still being typed stays echo.
    const lastBreak = text.lastIndexOf("\n");
    if (this.line.reading && !this.line.typedOnLine && lastBreak !== -1) this.line.leaveUndecided(base + lastBreak + 1);
    // The screen gets the chunk in pieces, its input edges placed between them.
    let at = 0;
    for (const { at: offset, edge } of this.line.edges) {
      const cut = Math.max(at, Math.min(text.length, offset - base));
      if (cut > at) void this.screen.write(text.slice(at, cut));
      at = cut;
      this.screen.markInput(edge);
    }
    void this.screen.write(at === 0 ? text : text.slice(at)).then(() => this.screenEmitter.fire());
  }

  /**
   * The transcript from `from` (to `to`) as the program printed it: the echo of input taken
   * out (see echo-ranges.ts), its line breaks kept. What patterns, watchers and rules read.
   */
  printedText(from: number, to: number = this.transcript.end): string {
    const slice = this.transcript.slice(from, to);
    return this.line.ranges.cut(slice.text, slice.start);
  }

  /** Where the line the shell reads begins, past what was printed on it (null: none is read). */
  get inputLineFrom(): number | null { return this.line.lineFrom; }

  private apply(event: OscEvent, start: number, end: number): void {
    switch (event.type) {
      case "prompt-start": {
        this.integratedShell = true;
        // A line given up (a blank line, a syntax error, C-c): its echo is its first line;
        // what follows, up to this prompt, is the shell's answer. Nothing typed on it: a
        // redraw after what a job printed (zsh's job notices), all output.
        // A typed line drawn again without a line break (readline's redisplay on a resize) is still typed: its keys stay echo.
        if (this.line.reading) {
          const typed = this.line.typedOnLine;
          const end = typed ? this.firstLineEnd(start) : this.line.printedUpTo(start);
          this.line.ends(end);
          if (typed && end === start) this.line.typedOnLine = true;
        }
        // A command that ended without D (the shell was interrupted hard) is over all the same.
        const running = this.running;
        if (running) this.finishCommand(running, start, null, "prompt");
        this.currentPhase = "redrawing";
        break;
      }
      case "command-input":
        this.integratedShell = true;
        this.line.starts(end);
        this.inputStart = end;
        this.promptEnd = end;
        this.currentPhase = "prompt";
        this.promptEmitter.fire();
        break;
      case "command-line": {
        // zsh and fish announce the line before C; bash after the command, just before D.
        const current = this.running;
        if (current && current.outputStart <= start) current.command = event.command;
        else this.announcedCommand = event.command;
        break;
      }
      case "command-output": {
        this.integratedShell = true;
        this.line.ends(start);
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
        this.currentPhase = "running";
        this.commandStartedEmitter.fire(record);
        break;
      }
      case "command-end": {
        const running = this.running;
        // bash's `exit` printed "exit" (or "logout") before its EXIT trap sent this D: not the command's output.
        const at = event.exiting?.saidExit && running ? start - saidExitLength(this.transcript.slice(running.outputStart, start).text) : start;
        if (running) this.finishCommand(running, at, event.exitCode, "osc133");
        // The shell's exit hook waits for this key before it ends: tmux drops a pane's last
        // output when the program ends before tmux has passed it on (seen here ~1 in 3).
        if (event.exiting) {
          this.shellEnding = true;
          void this.write(Buffer.from(EXIT_ACK)).catch(traced("acknowledging a shell's exit hook"));
        }
        break;
      }
      case "continuation":
        this.continuationEnd = end;
        break;
      case "cwd":
        this.currentCwd = event.path;
        this.cwdReportEnd = end;
        break;
      case "custom":
        this.customEmitter.fire({ id: event.id, payload: event.payload });
        break;
    }
  }

  /** Just past the first line break after the input line began, if before `limit`; else `limit`. */
  private firstLineEnd(limit: number): number {
    const from = this.line.ranges.openAt ?? this.inputStart ?? limit;
    const nl = this.transcript.slice(from, limit).text.indexOf("\n");
    return nl === -1 ? limit : from + nl + 1;
  }

  private finishCommand(record: CommandRecord, at: number, exitCode: number | null, reason: CommandEndReason): void {
    record.outputEnd = at;
    record.exitCode = exitCode;
    record.endedAt = Date.now();
    this.exitCodeOfLast = exitCode;
    // A command's end is reported with its output recorded, however it ended: whoever opens the
    // cast after the run has returned finds all of it (output is otherwise written in batches).
    this.recorder.writePending();
    this.currentPhase = "redrawing";
    this.commandFinishedEmitter.fire({ record, exitCode, reason });
  }

  /** Output the backend could not deliver was dropped at this point of the transcript. */
  noteGap(reason: string): void {
    this.gaps.push({ at: this.transcript.end, reason });
    if (this.gaps.length > 8) this.gaps.shift();
    this.outputLostEmitter.fire(reason);
  }

  /** The running command ended while its output (and its D) was lost: known from the shell's status line. */
  finishLostCommand(exitCode: number | null): void {
    const running = this.running;
    if (running) this.finishCommand(running, this.transcript.end, exitCode, "status-file");
  }

  /** Why output was lost since `offset`, if it was. */
  gapSince(offset: number): string | undefined {
    return this.gaps.find((gap) => gap.at >= offset)?.reason;
  }

  /**
   * The pane's program exited, as the backend reports it. tmux can report that before the pane's
   * last output reaches this process (its pane-died hook line comes through another pane), which
   * lost a run's output when the command ended the shell (`…; exit 3`). An integrated shell
   * running a command sends that command's D from its exit hook, last thing before it ends:
   * wait for it, bounded for a shell that died without running its hook (kill -9).
   */
  async markExitedAfterLastOutput(status: number | null, signal: number | null): Promise<void> {
    if (this.living && this.integratedShell && this.running) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          finished.dispose();
          closed.dispose();
          resolve();
        };
        const timer = setTimeout(done, EXIT_DRAIN_MAX_MS);
        const finished = this.commandFinishedEmitter.event(done);
        const closed = this.closedEmitter.event(done);
      });
    }
    this.markExited(status, signal);
  }

  markExited(status: number | null, signal: number | null): void {
    if (!this.living) return;
    this.living = false;
    this.exit = { status, signal };
    const rest = this.decoder.end();
    if (rest) this.ingestText(rest);
    this.exitedEmitter.fire({ status, signal });
  }

  markGone(reason: string): void {
    if (this.gone) return;
    this.gone = reason;
    this.living = false;
    this.recorder.close();
    this.line.dispose();
    this.screen.dispose();
    this.closedEmitter.fire(reason);
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
      await this.backend.reapExited().catch(traced("reaping exited panes"));
      info = (await this.backend.paneInfo(this.paneId).catch(() => undefined)) ?? info;
    }
    const statusKnown = known(info);
    if (info?.dead && (statusKnown || final)) this.markExited(info.exitStatus, info.exitSignal);
  }

  redact(text: string): string { return redactSecrets(text, this.secrets); }

  async write(data: Buffer, text = data.toString("utf8")): Promise<void> {
    this.answerMayWait = false;
    // An integrated shell's line editor is marked where it reads (B to C); anything else's echo,
    // and a line typed after D before B (the terminal echoes it while prompt hooks run), is found from the text.
    if (!this.noteInput(text) || !this.line.reading) this.line.typed.typed(text);
    await this.backend.writeInput(this.paneId, data);
  }

  async keys(keys: readonly string[]): Promise<void> {
    this.answerMayWait = false;
    this.noteInput();
    await this.backend.sendKeys(this.paneId, keys);
  }

  /**
   * Before termhive types at an integrated shell's prompt: when a program asked the terminal
   * something since termhive last typed here, the answer it never read is in the line editor
   * (input is read in order, so the editor has it before these keys): the line is cleared.
   * termhive typed nothing on it since, so nothing of the caller's is lost.
   */
  async dropUnreadAnswers(): Promise<void> {
    if (!this.answerMayWait || !this.integrated || this.phase !== "prompt") return;
    await this.keys(["C-e", "C-u"]);
  }

  /** Input goes in here now; true when onto an integrated shell's line (then typed on that line). */
  private noteInput(text?: string): boolean {
    this.inputs.sent(this.transcript.end, Date.now(), text);
    const atLine = this.integrated && (this.phase === "prompt" || this.phase === "redrawing");
    if (atLine) this.line.typedOnLine = true;
    return atLine;
  }

  /** Swaps the pane's shared value `key` (every termhive process sees it) from `expected` to `next`; resolves with the value there now. */
  async swapShared(key: string, expected: string, next: string): Promise<string> {
    return this.backend.shared.swapShared(this.paneId, key, expected, next);
  }

  async resize(rows: number, cols: number): Promise<void> {
    await this.backend.resize(this.paneId, rows, cols);
    this.screen.resize(rows, cols);
    this.recorder.resize(cols, rows);
    this.paneInfo = { ...this.paneInfo, rows, cols };
  }
}
