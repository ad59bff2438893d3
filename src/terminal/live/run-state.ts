// What a session is running, kept with its pane (shared state "run") so every termhive
// process — and the next one after a restart — tells the same story: the command, when it
// started, and how the last one ended.
//
// Any process that sees a command start or end (OSC 133 C / D in the pane's output) writes
// it. When none is connected while a command ends, the shell integration's status file
// ("<pid> <count> <status>", rewritten at every D, see src/shell/) tells the next process
// that it ended and with which status: the count moved on since the one recorded at start.
import type { Backend } from "../../backends/backend.js";
import type { CommandRecord, TerminalSession } from "../session/session.js";
import { decodeShared, encodeShared } from "../model/shared-codec.js";
import { traced } from "../../util/traced.js";
import { STATUS_LINE_MAX_BYTES, capShellFiles, readStatusLine } from "./status-file.js";

export interface RunState {
  /** The running (or last) command line. */
  command: string;
  startedAt: number;
  /** The status file's line when the command started ("" when the shell writes none). */
  status: string;
  /** The exit code of the command before it (what last_exit_code says while this one runs). */
  previousExitCode?: number | null;
  /** Set once it ended. */
  endedAt?: number;
  exitCode?: number | null;
}

export const RUN_KEY = "run";
/** The command text kept with the pane is cut here: it names the command, it is not a copy of it. */
const COMMAND_CHARS = 500;

function cut(command: string): string {
  return command.length > COMMAND_CHARS ? command.slice(0, COMMAND_CHARS) + "…" : command;
}

interface StatusLine {
  pid: string;
  exitCode: number | null;
}

function parseStatus(line: string): StatusLine | undefined {
  const match = /^(\d+) (\d+) (-?\d+|-)$/.exec(line);
  if (!match) return undefined;
  return { pid: match[1]!, exitCode: match[3] === "-" ? null : Number(match[3]) };
}

/**
 * The recorded run as it stands now: a run recorded as still going has ended when the same
 * shell (same pid) has rewritten its status line since. A line from another pid is a nested
 * shell's, which says nothing about the outer command; no line at start means no evidence.
 */
export function resolveRun(state: Partial<RunState> | undefined, statusNow: string): RunState | undefined {
  if (!state || typeof state.command !== "string" || typeof state.startedAt !== "number") return undefined;
  const run: RunState = {
    command: state.command,
    startedAt: state.startedAt,
    status: state.status ?? "",
    previousExitCode: state.previousExitCode ?? null,
  };
  if (typeof state.endedAt === "number") return { ...run, endedAt: state.endedAt, exitCode: state.exitCode ?? null };
  const before = parseStatus(run.status);
  const now = parseStatus(statusNow);
  if (before && now && now.pid === before.pid && statusNow !== run.status) {
    return { ...run, endedAt: Date.now(), exitCode: now.exitCode };
  }
  return run;
}

export function decodeRun(token: string): Partial<RunState> | undefined {
  return decodeShared<RunState>(token);
}

/** Shared-state writes still on their way to tmux: a process that shuts down lets them land first. */
const pendingWrites = new Set<Promise<void>>();

/** Waits (at most `timeoutMs`) for the run states this process is still writing. */
export async function settleRunWrites(timeoutMs = 1000): Promise<void> {
  if (pendingWrites.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([Promise.allSettled([...pendingWrites]), limit]);
  clearTimeout(timer);
}

/**
 * The status line of a session whose shell runs on another host (the file is there), read
 * through the backend; null for a local session (read the file here, synchronously).
 */
export function remoteStatusReader(session: TerminalSession, backend: Backend): (() => Promise<string>) | null {
  const hosts = backend.hosts;
  if (!session.meta.host || !hosts) return null;
  return () => hosts.readHostFile(session.paneId, `shell/status.${session.id}`, STATUS_LINE_MAX_BYTES).then((line) => line.trim(), () => "");
}

/**
 * After tmux dropped output (the running command's D may be among it), checks the shell's
 * status line until that command has ended one way or the other: at once, then every 250 ms
 * for 2 s (a command that ended while this process lagged), then every 2 s (one that ends
 * while tmux still drops this pane's output).
 */
function settleAfterGap(session: TerminalSession, endedByStatus: () => Promise<RunState | undefined>): void {
  const record = session.running;
  if (!record) return;
  const started = Date.now();
  const next = (): void => {
    if (session.running !== record || !session.alive) return;
    void endedByStatus()
      .then((ended) => {
        if (session.running === record && ended?.endedAt !== undefined) session.finishLostCommand(ended.exitCode ?? null);
      })
      .catch(traced("reading a lost command's end"))
      .finally(() => setTimeout(next, Date.now() - started < 2_000 ? 250 : 2_000).unref());
  };
  next();
}

/** Output silent this long while the shell says the running command has ended: a stall. */
const STALL_QUIET_MS = 5_000;
const STALL_CHECK_MS = 1_000;

/**
 * tmux (3.3a) can stop sending a pane's output to this client without the %pause that says
 * so reaching it: seen after this process was stopped past pause-after during a flood, under
 * CPU load; the command ended, and nothing more came until a continue was sent by hand. A
 * running command whose end the shell's status line reports while the pane has been silent
 * for STALL_QUIET_MS is taken for such a stall, once per command: the backend resumes the
 * pane and reports the gap, and the gap's settling ends the command from the status line.
 */
function watchForStall(session: TerminalSession, backend: Backend, endedByStatus: () => Promise<RunState | undefined>): void {
  const pausable = backend.pausable;
  if (!pausable) return;
  // Checked only while a command runs: an idle server keeps no timer per session.
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  session.onCommandStarted((record) => {
    stop();
    // Silence is counted from this process's own checks: after it was stopped or starved, the
    // output waiting in its pipe has not been read yet, and the first late check must not count.
    let lastCheck = Date.now();
    let seenOutputAt = session.lastOutputAt;
    let silentSince = lastCheck;
    const silentLongEnough = () => Date.now() - silentSince >= STALL_QUIET_MS && session.lastOutputAt === seenOutputAt;
    timer = setInterval(() => {
      const now = Date.now();
      if (now - lastCheck > 2 * STALL_CHECK_MS || session.lastOutputAt !== seenOutputAt) {
        silentSince = now;
        seenOutputAt = session.lastOutputAt;
      }
      lastCheck = now;
      if (session.running !== record || !session.alive) return stop();
      if (!silentLongEnough()) return;
      void endedByStatus()
        .then((ended) => {
          if (ended?.endedAt === undefined || session.running !== record || !silentLongEnough()) return;
          stop();
          return pausable.resumeOutput(session.paneId, "the pane's output stopped coming from tmux; resumed");
        })
        .catch(traced("resuming a paused pane's output"));
    }, STALL_CHECK_MS);
    timer.unref();
  });
  session.onCommandFinished(stop);
  session.onClosed(stop);
}

/**
 * Calls `read` at the first prompt after a command's end (and at the first one if `known` is
 * false), not at the prompts after it until the next end. The shell rewrites its status line
 * only at a command's end, so a later prompt mark is the same prompt drawn again: readline
 * redraws the whole prompt, marks included, as it takes a pasted line, just before that line's
 * start (C). Handled late (this process behind the pane under load), that redraw was read after
 * the quick command had already ended in the shell: its own end (or the file emptied by the
 * rewrite) became the line "before" it, and a process adopting the pane after a kill -9 took
 * the ended command as running (record and status line agreeing). `read` returning false (no
 * line yet: a fresh shell, the file mid-rewrite) keeps the next prompt a fresh one.
 */
function freshPrompts(session: TerminalSession, known: boolean, read: () => boolean): void {
  let fresh = !known;
  session.onCommandFinished(() => {
    fresh = true;
  });
  session.onPrompt(() => {
    if (fresh) fresh = !read();
  });
}

/** Mirrors a live session's command starts and ends into the pane's shared state. */
export function publishRuns(session: TerminalSession, backend: Backend, home: string): void {
  const remote = remoteStatusReader(session, backend);
  if (remote) return publishRemoteRuns(session, backend, remote);
  // What runs in a sandbox can write its shell's files (bound in read-write) but no other file of the host.
  if (session.meta.sandbox && session.meta.shell !== "other") session.onClosed(capShellFiles(home, session.id));
  const write = (state: RunState) => {
    // Best effort: a pane closing under us is reported through the backend's events.
    const pending = backend.shared.writeShared(session.paneId, RUN_KEY, encodeShared(state)).catch(traced("publishing a pane's run state"));
    pendingWrites.add(pending);
    void pending.finally(() => pendingWrites.delete(pending));
  };
  // The status line as it stood at the prompt, before the command was typed. Read at the
  // command's start instead, it may already be this command's own end (a quick command whose
  // start this process handles late), and the next process would think it runs for ever.
  // Read once per prompt cycle, at the first prompt after an end (see freshPrompts): a redraw
  // of the same prompt comes with the next command's start.
  let statusAtPrompt = readStatusLine(home, session.id);
  freshPrompts(session, statusAtPrompt !== "", () => {
    statusAtPrompt = readStatusLine(home, session.id);
    return statusAtPrompt !== "";
  });
  // tmux dropped output while this process lagged: the running command's D may be among it.
  // The shell's status line tells whether it ended meanwhile. Checked again shortly after, for
  // a command that ended between tmux's pause and this process's resume.
  const endedByStatus = async () => resolveRun({ command: "", startedAt: 0, status: statusAtPrompt }, readStatusLine(home, session.id));
  session.onOutputLost(() => settleAfterGap(session, endedByStatus));
  watchForStall(session, backend, endedByStatus);
  session.onCommandStarted((record: CommandRecord) => {
    write({
      command: cut(session.redact(record.command)),
      startedAt: record.startedAt,
      status: statusAtPrompt,
      previousExitCode: session.lastExitCode,
    });
  });
  session.onCommandFinished(({ record }) => {
    write({
      command: cut(session.redact(record.command)),
      startedAt: record.startedAt,
      status: "",
      endedAt: record.endedAt ?? Date.now(),
      exitCode: record.exitCode,
    });
  });
}

/** A status read the host does not answer in time is no evidence; the writes after it must not wait for ever. */
const STATUS_READ_MS = 5000;

function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * publishRuns for a shell on another host: its status line is read through the backend, so
 * asynchronously. The read starts at the prompt, on the same ordered connection as the next
 * command's input, so it still sees the line from before that command; writes are chained so
 * a quick command's end never lands before its start.
 */
function publishRemoteRuns(session: TerminalSession, backend: Backend, readStatus: () => Promise<string>): void {
  let chain: Promise<void> = Promise.resolve();
  const write = (state: () => Promise<RunState>) => {
    const pending = (chain = chain
      .then(async () => {
        await backend.shared.writeShared(session.paneId, RUN_KEY, encodeShared(await state()));
      })
      .catch(traced("publishing a remote pane's run state")));
    pendingWrites.add(pending);
    void pending.finally(() => pendingWrites.delete(pending));
  };
  // Only a shell at its prompt has written the file (reading a missing one makes tmux print
  // an error line of its own); a fresh one reads it at its first prompt.
  let statusAtPrompt = session.phase === "prompt" ? readStatus() : Promise.resolve("");
  freshPrompts(session, session.phase === "prompt", () => {
    statusAtPrompt = readStatus();
    return true;
  });
  // As publishRuns: a command whose D was in output tmux dropped ends from the status line,
  // read here on the host.
  const endedByStatus = async () => {
    const [atPrompt, now] = await Promise.all([within(statusAtPrompt, STATUS_READ_MS, ""), readStatus()]);
    return resolveRun({ command: "", startedAt: 0, status: atPrompt }, now);
  };
  session.onOutputLost(() => settleAfterGap(session, endedByStatus));
  watchForStall(session, backend, endedByStatus);
  session.onCommandStarted((record: CommandRecord) => {
    const previousExitCode = session.lastExitCode;
    const atStart = statusAtPrompt;
    write(async () => ({ command: cut(session.redact(record.command)), startedAt: record.startedAt, status: await within(atStart, STATUS_READ_MS, ""), previousExitCode }));
  });
  session.onCommandFinished(({ record }) => {
    const ended = { command: cut(session.redact(record.command)), startedAt: record.startedAt, status: "", endedAt: record.endedAt ?? Date.now(), exitCode: record.exitCode };
    write(async () => ended);
  });
}
