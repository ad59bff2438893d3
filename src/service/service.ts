// The terminal operations every door (MCP, gRPC, CLI) calls, built once per process by the
// composition root (root.ts). No door holds behaviour of its own.
import { randomBytes } from "node:crypto";
import type { Backend } from "../backends/backend.js";
import { createBackend } from "../backends/select.js";
import { AuditLog } from "../audit.js";
import type { TermhiveConfig } from "../config.js";
import { safetyConfigFrom } from "../safety/index.js";
import { InputPolicy, truncate } from "../terminal/input-policy.js";
import { exitedWhileOpening, promptRedrawn, waitUntilReady } from "../terminal/ready.js";
import { ensurePrivateDir } from "../util/paths.js";
import { SafeRegex, InvalidRegexError } from "../util/regex.js";
import { ToolError } from "./errors.js";
import { pressKeysIntoSession, submission, typeIntoSession, typeText } from "../terminal/typing.js";
import { literalText } from "../terminal/literal-text.js";
import { EMPTY_LINE, withText } from "../terminal/pending-line.js";
import { planKeys } from "../terminal/key-plan.js";
import { readSession, type ReadResult } from "../terminal/read.js";
import { SessionRegistry, ownProgramInForeground } from "../terminal/registry.js";
import { deadError, runCommand, throwIfEnding, waitShellStarted, type RunResult } from "../terminal/run.js";
import { acquireRunLock } from "../terminal/run-lock.js";
import { RunTyping, withinRunTimeout } from "../terminal/run-deadline.js";
import { settleRunWrites } from "../terminal/run-state.js";
import { describePolicy } from "../sandbox/policy.js";
import { traced } from "../util/traced.js";
import type { CallContext, CloseInput, OpenInput, ReadInput, ResizeInput, RunInput, SendInput, SendResult, ThrowawayFacts, WaitInput } from "./inputs.js";
import { waitSession, type WaitResult } from "../terminal/wait.js";
import type { TerminalSession } from "../terminal/session.js";
import { sessionSummary, type SessionSummary } from "../terminal/summary.js";
import { resolveKey } from "../backends/keys.js";
import { markLine, markRun } from "../terminal/line-marks.js";
import { keysTakenBy, takenByNote } from "../terminal/pager.js";

export type { CallContext, SessionSummary, ThrowawayFacts } from "./inputs.js";

/** How long terminal_open waits for a fresh shell's first prompt (or a program's first output). */
const OPEN_READY_MS = 10_000;
const OPEN_QUIET_MS = 150;
/**
 * A program that prints nothing when it starts (`cat`, a server waiting for input) counts as
 * ready once it has been silent this long, not after OPEN_READY_MS: there is nothing to see.
 */
const OPEN_SILENT_MS = 1_000;
export class TermhiveService {
  readonly registry: SessionRegistry;
  readonly audit: AuditLog;
  /** Size limit, safety gate, pending line and audit of every typed text (terminal/input-policy.ts). */
  readonly policy: InputPolicy;

  constructor(readonly config: TermhiveConfig, backend?: Backend) {
    ensurePrivateDir(config.home);
    this.audit = new AuditLog(config.home, config.auditMaxBytes);
    this.registry = new SessionRegistry(
      backend ?? createBackend(config),
      config,
      this.audit,
    );
    this.policy = new InputPolicy(config, this.audit, safetyConfigFrom(config.safety), this.registry.backend);
  }

  get backend(): Backend {
    return this.registry.backend;
  }

  session(ref: string): Promise<TerminalSession> {
    return this.registry.get(ref);
  }

  async open(input: OpenInput) {
    await this.ensureRoomFor(1);
    const session = await this.registry.open({ ...input, rows: input.rows ?? 40, cols: input.cols ?? 120, refreshed: true });
    // A shell becomes ready in the background, however long its rc files take: every path that
    // types into it (terminal_run, terminal_send, layouts) waits for its first prompt, in any
    // process. Another program is waited for here (only its output tells when it is ready).
    const shell = session.meta.shell !== "other";
    // A sandboxed shell is waited for too: bwrap refuses what it cannot set up only as the pane starts.
    if (!shell || session.meta.sandbox) await this.waitReady(session);
    const died = session.alive ? undefined : await exitedWhileOpening(session);
    const starting = shell && session.phase === "starting" && session.alive;
    return {
      session: session.id,
      name: session.name,
      backend: this.backend.kind,
      ...(session.meta.host ? { host: session.meta.host } : {}),
      pid: session.pane.pid,
      pane: session.paneId,
      shell: session.meta.shell,
      // A shell still starting has not reported yet; it is started with integration.
      integrated: session.integrated || starting,
      ready: !starting,
      ...(starting ? { hint: "the shell is still starting (its rc files run); terminal_run and terminal_send wait for its first prompt." } : {}),
      attach: this.backend.attachCommand(session.paneId),
      cwd: session.cwd ?? session.pane.cwd,
      ...(session.meta.sandbox ? { sandbox: describePolicy(session.meta.sandbox) } : {}),
      ...(died || this.backend.warning ? { warning: [died, this.backend.warning].filter(Boolean).join("\n") } : {}),
    };
  }

  /**
   * TERMHIVE_MAX_SESSIONS, checked before every open (terminal_open, a throwaway run, agent
   * spawns, layouts, splits): refuses `count` new sessions when the home cannot take them all,
   * naming the idle ones (longest idle first) so the caller can close some. Counted from tmux
   * (refresh), so sessions of every termhive process count; two processes opening at the same
   * instant can each pass the check, which a limit meant against runaway loops can afford.
   */
  async ensureRoomFor(count: number): Promise<void> {
    await this.registry.ensureStarted();
    await this.registry.refresh();
    const sessions = this.registry.all();
    if (sessions.length + count <= this.config.maxSessions) return;
    // Idle: exited, or nothing running and the shell itself in the foreground (the pane's
    // foreground process, fresh from the refresh, also tells a process that adopted the session
    // mid-command that something runs).
    const idle = sessions
      .filter((s) => !s.alive || (!s.running && ownProgramInForeground(s.pane, s.meta)))
      .map((s) => this.summary(s))
      .sort((a, b) => b.idle_s - a.idle_s);
    const named = idle.slice(0, 10).map((s) => `${s.name} (${s.alive ? `idle ${Math.round(s.idle_s)} s` : "exited"})`);
    const more = idle.length > named.length ? ` and ${idle.length - named.length} more` : "";
    const asked = count === 1 ? "" : `, ${count} were asked for`;
    throw new ToolError(
      `${sessions.length} sessions are open${asked}, the limit is ${this.config.maxSessions} (TERMHIVE_MAX_SESSIONS); nothing was opened. ` +
        (named.length ? `Idle sessions you could close with terminal_close: ${named.join(", ")}${more}.` : "None is idle: close one with terminal_close (force: true kills what it runs)."),
      "unavailable",
    );
  }

  /** A shell is ready at its first prompt; another program once it has printed and gone quiet. */
  private async waitReady(session: TerminalSession): Promise<void> {
    await waitUntilReady(session, { timeoutMs: OPEN_READY_MS, quietMs: OPEN_QUIET_MS, silentMs: OPEN_SILENT_MS });
  }

  async run(input: RunInput, ctx: CallContext): Promise<RunResult & ThrowawayFacts> {
    if (input.session === undefined) return this.runThrowaway(input, ctx);
    if (input.cwd !== undefined) {
      throw new ToolError(`cwd is for a run without session (it opens a throwaway session there); in session ${input.session}, put a cd in the command. Nothing was run.`);
    }
    const startedAt = Date.now();
    const session = await this.session(input.session);
    const timeoutMs = (input.timeout_s ?? 30) * 1000;
    // timeout_s bounds the whole call: a host whose link froze answers no step before the keys.
    const typing = new RunTyping();
    const result = await withinRunTimeout(this.runIn(session, input, ctx, startedAt, timeoutMs, typing), typing, startedAt, timeoutMs, session.meta.host);
    // A run's output counts as read by this client.
    session.readCursors.set(ctx.clientId, session.transcript.end);
    this.audit.write({ event: "complete", session: session.id, name: session.name, reason: result.reason, exit_code: result.exit_code, duration_ms: result.duration_ms });
    return result;
  }

  private async runIn(session: TerminalSession, input: RunInput, ctx: CallContext, startedAt: number, timeoutMs: number, typing: RunTyping): Promise<RunResult> {
    // The command is typed as literal text, after whatever termhive typed on the line without Enter.
    const command = literalText(input.command).text;
    await this.policy.judgeLine(session, await this.policy.pending(session), command, input.confirm);
    const until = input.until === undefined ? undefined : this.regex(input.until, "until");
    const release = await acquireRunLock(this.backend, session, session.redact(command), timeoutMs);
    this.audit.write({ event: "run", session: session.id, name: session.name, command: session.redact(command) });
    // Not waited for: tmux runs this process's commands in order, so the record is cleared
    // before the command's keys arrive, and the run spares a round trip.
    void this.policy.setPending(session, EMPTY_LINE).catch(traced("clearing the pending line before a run"));
    const result = await runCommand(
      session,
      {
        command,
        timeoutMs,
        until,
        maxTokens: input.max_tokens ?? this.config.maxTokens,
        raw: input.raw,
        reduce: input.reduce,
        onProgress: ctx.onProgress && ((ms) => ctx.onProgress!(ms, `waiting for ${truncate(command, 60)} (${Math.round(ms / 1000)} s)`)),
        // A line termhive submits in a shell: its pager prints instead of waiting.
        beforeTyping: () => markRun(this.backend, this.config.home, session),
        startedAt,
        typing,
      },
      this.config,
    ).finally(release);
    return result;
  }

  /**
   * terminal_run without session: a throwaway shell in the caller's folder (or cwd). It is closed
   * once the command has finished, so nothing is left behind; a command still running (timeout,
   * until, a full-screen program or a REPL waiting) keeps it, and the result names it.
   */
  private async runThrowaway(input: RunInput, ctx: CallContext): Promise<RunResult & ThrowawayFacts> {
    // Refusals come before anything is opened.
    await this.policy.gate(literalText(input.command).text, input.confirm, undefined);
    if (input.until !== undefined) this.regex(input.until, "until");
    await this.ensureRoomFor(1);
    const session = await this.registry.open({ name: `run-${randomBytes(3).toString("hex")}`, cwd: input.cwd, rows: 40, cols: 120, refreshed: true });
    let result: RunResult;
    try {
      await this.waitReady(session);
      result = await this.run({ ...input, session: session.id, cwd: undefined, confirm: true }, ctx);
    } catch (error) {
      await this.registry.close(session).catch(traced("closing the throwaway session after a failed run"));
      throw error;
    }
    const ref = JSON.stringify(session.name);
    if (result.running) {
      const hint = `ran in the throwaway session ${session.name} (${session.id}), kept because the command is still running; close it with terminal_close {"session":${ref},"force":true} when done.`;
      return { ...result, session: session.id, session_name: session.name, session_closed: false, hint: result.hint ? `${result.hint} ${hint}` : hint };
    }
    await this.registry.close(session);
    // The session is gone: a hint that sends the caller to it (terminal_read, terminal_close) would
    // answer "unknown session".
    const hint = result.reason === "exit" || result.session_ended ? "the command ended the throwaway shell; its output is above, and the session is closed." : result.hint;
    return { ...result, hint, session: session.id, session_name: session.name, session_closed: true };
  }

  async send(input: SendInput, _ctx: CallContext): Promise<SendResult> {
    const session = await this.session(input.session);
    await throwIfEnding(session);
    if (input.text === undefined && input.keys === undefined && input.secret === undefined) {
      throw new ToolError("nothing to send: give text, keys or secret");
    }
    const enter = input.enter ?? true;
    const keys = input.keys ?? [];
    // Validate every key before typing anything, so a bad key name sends nothing.
    let keyNames: string[];
    try {
      keyNames = keys.map((key) => resolveKey(key).name);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    // Nothing is typed into a shell still starting (its rc files would read it, or it would be lost).
    if (session.meta.shell !== "other" && session.phase === "starting") await waitShellStarted(session, this.config);
    const literal = input.text === undefined ? undefined : literalText(input.text);
    // A trailing newline submits the text even with enter: false, so the gate sees it then too.
    const submitted = literal === undefined ? undefined : submission(literal.text, enter && input.secret === undefined);
    let line = await this.policy.pending(session);
    if (literal !== undefined) {
      this.policy.checkSize(literal.text);
      if (submitted!.enter || literal.text.includes("\n")) await this.policy.judgeLine(session, line, literal.text, input.confirm);
      line = submitted!.enter ? EMPTY_LINE : withText(line, literal.text);
    }
    if (input.secret !== undefined && !input.confirm) await this.policy.judgeLine(session, line, input.secret, false);
    // The keys' submits that the typed text alone can judge are judged before anything is sent.
    const plan = planKeys(line, keyNames);
    if (!input.confirm) for (const step of plan.steps) if (step.submits && !step.line.edited) await this.policy.judgeLine(session, step.line, "", false);
    // Said in the result: a pager or a full-screen program reads what is typed as its own keys.
    const takenBy = await keysTakenBy(session);
    let sent = 0;
    if (literal !== undefined) {
      if (!takenBy && session.integrated && (submitted!.enter || literal.text.includes("\n"))) await markLine(this.backend, this.config.home, session, "run");
      sent += await typeIntoSession(session, literal.text, enter && input.secret === undefined);
      await this.policy.setPending(session, line);
    }
    if (input.secret !== undefined) {
      for (const value of [input.secret, literalText(input.secret).text]) session.addSecret(value); // and as typed: controls as pictures
      // Right after a command ended the shell may still be drawing its prompt: the mark must
      // be there before the shell's hooks read the line, so the prompt is waited for first.
      await promptRedrawn(session);
      if (session.integrated && session.phase === "prompt") await markLine(this.backend, this.config.home, session, "secret");
      sent += await typeText(session, input.secret, true);
      line = EMPTY_LINE;
      await this.policy.setPending(session, line);
    }
    if (keys.length) await pressKeysIntoSession(session, keyNames, () => this.policy.sendKeys(session, keys, plan, input.confirm === true));
    this.policy.recordInput(session, input.text, enter, {
      keys: keys.length ? keys : undefined,
      secret: input.secret === undefined ? undefined : `[secret, ${Buffer.byteLength(input.secret)} bytes]`,
    });
    return { sent_bytes: sent, ...(keys.length ? { keys: keys.length } : {}), ...(literal?.replaced ? { replaced: literal.replaced } : {}), ...(takenBy ? { taken_by: takenBy, note: takenByNote(takenBy) } : {}) };
  }

  async read(input: ReadInput, ctx: CallContext): Promise<ReadResult> {
    const session = await this.session(input.session);
    const filter = input.filter === undefined ? undefined : this.regex(input.filter, "filter");
    return readSession(session, {
      mode: input.mode ?? "auto",
      clientId: ctx.clientId,
      fromLine: input.from_line,
      toLine: input.to_line,
      raw: input.raw,
      filter,
      context: input.context,
      maxTokens: input.max_tokens ?? this.config.maxTokens,
      reduce: input.reduce,
    });
  }

  async wait(input: WaitInput, ctx: CallContext): Promise<WaitResult> {
    const session = await this.session(input.session);
    const pattern = input.pattern === undefined ? undefined : this.regex(input.pattern, "pattern");
    const waitFor = input.for ?? (pattern ? "pattern" : "completion");
    return waitSession(
      session,
      {
        for: waitFor,
        pattern,
        timeoutMs: (input.timeout_s ?? 30) * 1000,
        idleMs: input.idle_ms ?? this.config.idleQuietMs,
        clientId: ctx.clientId,
        maxTokens: input.max_tokens ?? this.config.maxTokens,
        onProgress: ctx.onProgress && ((ms) => ctx.onProgress!(ms, `waiting for ${waitFor} (${Math.round(ms / 1000)} s)`)),
      },
      this.config,
    );
  }

  async list(): Promise<{ sessions: SessionSummary[] }> {
    await this.registry.ensureStarted();
    await this.registry.refresh();
    // Sessions of a host that did not answer within the list's budget are left out until it does.
    const leftOut = this.backend.hosts?.hostsLeftOut() ?? new Set<string>();
    const sessions = this.registry.all().filter((s) => s.meta.host === undefined || !leftOut.has(s.meta.host)).map((s) => this.summary(s));
    return { sessions };
  }

  summary(s: TerminalSession): SessionSummary {
    return sessionSummary(s, this.backend.kind);
  }

  async close(input: CloseInput): Promise<{ closed: boolean; session: string; name: string; exit_code?: number | null }> {
    const session = await this.session(input.session);
    if (session.alive && session.running && !input.force) {
      throw new ToolError(`session ${session.name} is running \`${session.running.command}\`; pass force: true to kill it, or interrupt it first with terminal_send keys ["C-c"]`, "busy");
    }
    const exitCode = session.alive ? undefined : session.exitStatus;
    await this.registry.close(session);
    return { closed: true, session: session.id, name: session.name, ...(exitCode !== undefined ? { exit_code: exitCode } : {}) };
  }

  async resize(input: ResizeInput): Promise<{ session: string; rows: number; cols: number }> {
    const session = await this.session(input.session);
    await throwIfEnding(session);
    await session.resize(input.rows, input.cols);
    return { session: session.id, rows: input.rows, cols: input.cols };
  }

  regex(source: string, what: string, flags?: string): SafeRegex {
    try {
      return new SafeRegex(source, what, flags);
    } catch (error) {
      if (error instanceof InvalidRegexError) throw new ToolError(error.message);
      throw error;
    }
  }

  /** The last step of the root's shutdown: recordings closed, run ends written, backend stopped. */
  async shutdown(): Promise<void> {
    for (const session of this.registry.all()) session.recorder.close();
    // A command's end seen just before shutdown is written to its pane before we detach.
    await settleRunWrites();
    await this.backend.stop();
  }
}

