// The operations every door (MCP, gRPC, CLI) calls. No door holds behaviour of its own.
import { randomBytes } from "node:crypto";
import { basename } from "node:path";
import type { Backend } from "../backends/backend.js";
import { createBackend } from "../backends/select.js";
import { AuditLog } from "../audit.js";
import type { TermhiveConfig } from "../config.js";
import { checkCommand, loadSafetyConfig, redactSecrets, type SafetyConfig } from "../safety/index.js";
import { promptRedrawn, waitUntilReady } from "../terminal/ready.js";
import { ensurePrivateDir } from "../util/paths.js";
import { SafeRegex, InvalidRegexError } from "../util/regex.js";
import { ToolError } from "./errors.js";
import { settleOutput, submission, typeIntoSession, typeText } from "../terminal/typing.js";
import { literalText } from "../terminal/literal-text.js";
import { EMPTY_LINE, PENDING_MAX_CHARS, readPending, withText, writePending, type PendingLine } from "../terminal/pending-line.js";
import { planKeys, type KeyPlan } from "../terminal/key-plan.js";
import { readSession, type ReadResult } from "../terminal/read.js";
import { SessionRegistry, ownProgramInForeground } from "../terminal/registry.js";
import { deadError, runCommand, waitShellStarted, type RunResult } from "../terminal/run.js";
import { acquireRunLock } from "../terminal/run-lock.js";
import { settleRunWrites } from "../terminal/run-state.js";
import { describePolicy } from "../sandbox/policy.js";
import type { CloseInput, OpenInput, ReadInput, ResizeInput, RunInput, SendInput, WaitInput } from "./inputs.js";
import { waitSession, type WaitResult } from "../terminal/wait.js";
import type { TerminalSession } from "../terminal/session.js";
import { matchNestedPrompt } from "../terminal/prompts.js";
import { resolveKey } from "../backends/keys.js";
import { markSecretLine } from "../shell/secret-line.js";

/** Who is calling: read cursors ("new", "diff") are per client; progress goes back to it. */
/** Where a run without session ran (see runThrowaway). */
export interface ThrowawayFacts {
  session?: string;
  session_name?: string;
  /** true: the throwaway session was closed after the command; false: kept (still running). */
  session_closed?: boolean;
}

export interface CallContext {
  clientId: string;
  onProgress?: (elapsedMs: number, message: string) => void;
}

export interface SessionSummary {
  session: string;
  name: string;
  backend: string;
  /** ssh destination of a session on another host. */
  host?: string;
  alive: boolean;
  exit_code?: number | null;
  foreground: string;
  cwd: string | null;
  running: string | null;
  last_exit_code: number | null;
  idle_s: number;
  tui: boolean;
  pane: string;
  /** The sandbox its program runs in, described (absent: the user's full rights). */
  sandbox?: string;
}

/** How long terminal_open waits for a fresh shell's first prompt (or a program's first output). */
const OPEN_READY_MS = 10_000;
const OPEN_QUIET_MS = 150;
/**
 * A program that prints nothing when it starts (`cat`, a server waiting for input) counts as
 * ready once it has been silent this long, not after OPEN_READY_MS: there is nothing to see.
 */
const OPEN_SILENT_MS = 1_000;
/** Before judging a line edited by keys, the program redraws it: quiet this long, or at most the max. */
const EDIT_SETTLE_QUIET_MS = 60;
const EDIT_SETTLE_MAX_MS = 1_000;
/** The longest tail of an on-screen line the gate reads. */
const SCREEN_LINE_MAX = 4_000;

export class TermhiveService {
  readonly registry: SessionRegistry;
  readonly audit: AuditLog;
  private readonly safety: SafetyConfig;

  constructor(readonly config: TermhiveConfig, backend?: Backend) {
    ensurePrivateDir(config.home);
    this.audit = new AuditLog(config.home, config.auditMaxBytes);
    this.safety = loadSafetyConfig();
    this.registry = new SessionRegistry(
      backend ?? createBackend(config),
      config,
      this.audit,
    );
    // Loaded only when asked for: the closer pulls in the hive (SQLite) to see agent bindings.
    if (config.idleCloseS > 0) {
      void import("./idle-closer.js").then(({ IdleCloser }) => {
        const closer = new IdleCloser(this);
        this.onShutdown(() => closer.stop());
      });
    }
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
    if (!shell) await this.waitReady(session);
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
      ...(this.backend.warning ? { warning: this.backend.warning } : {}),
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
    const max = this.config.maxSessions;
    if (sessions.length + count <= max) return;
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
      `${sessions.length} sessions are open${asked}, the limit is ${max} (TERMHIVE_MAX_SESSIONS); nothing was opened. ` +
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
    const session = await this.session(input.session);
    // The command is typed as literal text, after whatever termhive typed on the line without Enter.
    const command = literalText(input.command).text;
    await this.judgeLine(session, await readPending(this.backend, session.paneId), command, input.confirm);
    const until = input.until === undefined ? undefined : this.regex(input.until, "until");
    const timeoutMs = (input.timeout_s ?? 30) * 1000;
    const release = await acquireRunLock(this.backend, session, session.redact(command), timeoutMs);
    this.audit.write({ event: "run", session: session.id, name: session.name, command: session.redact(command) });
    await writePending(this.backend, session.paneId, EMPTY_LINE);
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
      },
      this.config,
    ).finally(release);
    // A run's output counts as read by this client.
    session.readCursors.set(ctx.clientId, session.transcript.end);
    this.audit.write({
      event: "complete",
      session: session.id,
      name: session.name,
      reason: result.reason,
      exit_code: result.exit_code,
      duration_ms: result.duration_ms,
    });
    return result;
  }

  /**
   * terminal_run without session: a throwaway shell in the caller's folder (or cwd). It is closed
   * once the command has finished, so nothing is left behind; a command still running (timeout,
   * until, a full-screen program or a REPL waiting) keeps it, and the result names it.
   */
  private async runThrowaway(input: RunInput, ctx: CallContext): Promise<RunResult & ThrowawayFacts> {
    // Refusals come before anything is opened.
    this.gate(literalText(input.command).text, input.confirm, undefined);
    if (input.until !== undefined) this.regex(input.until, "until");
    await this.ensureRoomFor(1);
    const session = await this.registry.open({ name: `run-${randomBytes(3).toString("hex")}`, cwd: input.cwd, rows: 40, cols: 120, refreshed: true });
    let result: RunResult;
    try {
      await this.waitReady(session);
      result = await this.run({ ...input, session: session.id, cwd: undefined, confirm: true }, ctx);
    } catch (error) {
      await this.registry.close(session).catch(() => undefined);
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
    const hint = result.reason === "exit" ? "the command ended the throwaway shell; its output is above, and the session is closed." : result.hint;
    return { ...result, hint, session: session.id, session_name: session.name, session_closed: true };
  }

  async send(input: SendInput, _ctx: CallContext): Promise<{ sent_bytes: number; keys?: number; replaced?: number }> {
    const session = await this.session(input.session);
    if (!session.alive) throw deadError(session);
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
    let line = await readPending(this.backend, session.paneId);
    if (literal !== undefined) {
      this.checkSize(literal.text);
      if (submitted!.enter || literal.text.includes("\n")) await this.judgeLine(session, line, literal.text, input.confirm);
      line = submitted!.enter ? EMPTY_LINE : withText(line, literal.text);
    }
    if (input.secret !== undefined && !input.confirm) await this.judgeLine(session, line, input.secret, false);
    // The keys' submits that the typed text alone can judge are judged before anything is sent.
    const plan = planKeys(line, keyNames);
    if (!input.confirm) for (const step of plan.steps) if (step.submits && !step.line.edited) await this.judgeLine(session, step.line, "", false);
    let sent = 0;
    if (literal !== undefined) {
      sent += await typeIntoSession(session, literal.text, enter && input.secret === undefined);
      await writePending(this.backend, session.paneId, line);
    }
    if (input.secret !== undefined) {
      session.addSecret(input.secret);
      // Right after a command ended the shell may still be drawing its prompt: the mark must
      // be there before the shell's hooks read the line, so the prompt is waited for first.
      await promptRedrawn(session);
      if (session.integrated && session.phase === "prompt") {
        // A remote shell looks for the mark on its own host.
        if (session.meta.host && this.backend.writeHostFile) await this.backend.writeHostFile(session.paneId, `shell/secret.${session.id}`, "1").catch(() => {});
        else markSecretLine(this.config.home, session.id);
      }
      sent += await typeText(session, input.secret, true);
      line = EMPTY_LINE;
      await writePending(this.backend, session.paneId, line);
    }
    if (keys.length) await this.sendKeys(session, keys, plan, input.confirm === true);
    this.auditInput(session, input.text, enter, {
      keys: keys.length ? keys : undefined,
      secret: input.secret === undefined ? undefined : `[secret, ${Buffer.byteLength(input.secret)} bytes]`,
    });
    return { sent_bytes: sent, ...(keys.length ? { keys: keys.length } : {}), ...(literal?.replaced ? { replaced: literal.replaced } : {}) };
  }

  /**
   * Sends keys in order. Before a key that submits a line edited by keys termhive cannot follow
   * (cursor moves, history, yank…), the keys before it are sent, the screen is let settle, and the
   * line the screen shows is judged; a refusal leaves that line unsubmitted.
   */
  private async sendKeys(session: TerminalSession, keys: readonly string[], plan: KeyPlan, confirmed: boolean): Promise<void> {
    let from = 0;
    for (const [i, step] of plan.steps.entries()) {
      if (!step.submits || !step.line.edited || confirmed) continue;
      if (i > from) {
        const before = session.lastOutputAt;
        await session.keys(keys.slice(from, i));
        await writePending(this.backend, session.paneId, step.line);
        await settleOutput(session, before, EDIT_SETTLE_QUIET_MS, EDIT_SETTLE_MAX_MS);
        from = i;
      }
      await this.judgeLine(session, step.line, "", false, keys.slice(0, from).length > 0);
    }
    if (from < keys.length) await session.keys(keys.slice(from));
    await writePending(this.backend, session.paneId, plan.after);
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
    const leftOut = this.backend.hostsLeftOut?.() ?? new Set<string>();
    const sessions = this.registry.all().filter((s) => s.meta.host === undefined || !leftOut.has(s.meta.host)).map((s) => this.summary(s));
    return { sessions };
  }

  summary(s: TerminalSession): SessionSummary {
    // A pane whose program exited runs nothing, whatever record was open when it did.
    const running = s.alive ? s.running : undefined;
    const snap = s.goneReason ? undefined : s.screen.snapshot();
    return {
      session: s.id,
      name: s.name,
      backend: this.backend.kind,
      ...(s.meta.host ? { host: s.meta.host } : {}),
      alive: s.alive,
      ...(s.alive ? {} : { exit_code: s.exitStatus }),
      foreground: s.pane.foreground,
      cwd: s.cwd ?? (s.pane.cwd || null),
      running: running ? running.command : s.integrated || !s.alive ? null : (snap && matchNestedPrompt(s.screen.cursorLinePrefix()) ? null : basename(s.meta.command)),
      last_exit_code: s.lastExitCode,
      idle_s: Math.round((Date.now() - s.lastOutputAt) / 100) / 10,
      tui: snap?.alternate ?? false,
      pane: s.paneId,
      ...(s.meta.sandbox ? { sandbox: describePolicy(s.meta.sandbox) } : {}),
    };
  }

  async close(input: CloseInput): Promise<{ closed: boolean; session: string; name: string; exit_code?: number | null }> {
    const session = await this.session(input.session);
    if (session.alive && session.running && !input.force) {
      throw new ToolError(
        `session ${session.name} is running \`${session.running.command}\`; pass force: true to kill it, or interrupt it first with terminal_send keys ["C-c"]`,
        "busy",
      );
    }
    const exitCode = session.alive ? undefined : session.exitStatus;
    await this.registry.close(session);
    return { closed: true, session: session.id, name: session.name, ...(exitCode !== undefined ? { exit_code: exitCode } : {}) };
  }

  async resize(input: ResizeInput): Promise<{ session: string; rows: number; cols: number }> {
    const session = await this.session(input.session);
    if (!session.alive) throw deadError(session);
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

  /**
   * The checks every text typed into a session passes, whichever door or tool types it
   * (terminal_send, hive_send, hive_message and its queue): control characters become their
   * pictures (literal-text.ts), the size limit, and the safety gate on the line Enter will submit
   * when the text submits it. Throws before anything is typed; returns the text to type.
   */
  async checkInput(text: string, session: TerminalSession, options: { enter: boolean; confirm?: boolean }): Promise<string> {
    const literal = literalText(text).text;
    this.checkSize(literal);
    // A line break inside the text may submit what precedes it (typed, where the program takes no paste).
    if (options.enter || literal.includes("\n")) await this.judgeLine(session, await readPending(this.backend, session.paneId), literal, options.confirm);
    return literal;
  }

  /** Records text typed into a session: the pending line grows, or starts afresh once submitted. */
  async noteTyped(session: TerminalSession, text: string, submitted: boolean): Promise<void> {
    const line = submitted ? EMPTY_LINE : withText(await readPending(this.backend, session.paneId), text);
    await writePending(this.backend, session.paneId, line);
  }

  private checkSize(text: string): void {
    const textBytes = Buffer.byteLength(text);
    if (textBytes > this.config.maxInputBytes) {
      throw new ToolError(`text is ${textBytes} bytes; the limit is ${this.config.maxInputBytes} (TERMHIVE_MAX_INPUT_BYTES). Nothing was sent.`);
    }
  }

  /**
   * The gate on the line Enter is about to submit: what termhive typed there since its last
   * Enter (pending-line.ts) plus `text`. When keys it cannot follow edited that line, the line
   * as the screen shows it is judged too (from each word on, since the prompt is part of it).
   */
  private async judgeLine(session: TerminalSession, line: PendingLine, text: string, confirm: boolean | undefined, keysSent = false): Promise<void> {
    if (confirm) return;
    const unsent = keysSent ? "The keys before Enter were sent; Enter was not pressed." : "Nothing was sent.";
    if (line.overflow) {
      throw new ToolError(
        `refused: more than ${PENDING_MAX_CHARS} characters were typed on this line since termhive last pressed Enter, so the safety gate cannot judge what Enter would run. ${unsent} Clear the line first (keys ["C-c"]), or resend with confirm: true.`,
        "refused",
      );
    }
    const earlier = line.text === "" ? "" : ` (the line already held ${JSON.stringify(truncate(line.text, 80))}, typed without Enter)`;
    this.gate(line.text + text, undefined, session, earlier, unsent);
    if (!line.edited) return;
    await session.screen.settled();
    const shown = session.screen.cursorLogicalLine().slice(-SCREEN_LINE_MAX).trimEnd();
    for (let i = 0; i < shown.length; i++) {
      if (i > 0 && !/\s/.test(shown[i - 1]!)) continue;
      this.gate(shown.slice(i), undefined, session, ` (the line as the screen shows it: it was edited with keys since termhive last pressed Enter)`, unsent);
    }
  }

  /** The audit record of typed input (secrets and redactions applied), for every path that types. */
  auditInput(session: TerminalSession, text: string | undefined, enter: boolean, extra: Record<string, unknown> = {}): void {
    this.audit.write({
      event: "input",
      session: session.id,
      name: session.name,
      text: text === undefined ? undefined : truncate(redactSecrets(session.redact(text), session.secrets), 2000),
      enter,
      ...extra,
    });
  }

  /** Refuses (ToolError "refused", nothing sent) a command the safety gate flags, unless confirmed. */
  gate(command: string, confirm: boolean | undefined, session: TerminalSession | undefined, where = "", unsent = "Nothing was sent."): void {
    if (confirm) return;
    const verdict = checkCommand(command, this.safety);
    if (verdict.allowed) return;
    const list = verdict.violations.map((v) => `${v.rule} (${v.reason}: \`${v.segment}\`)`).join("; ");
    this.audit.write({ event: "refused", session: session?.id, name: session?.name, command: session ? session.redact(command) : command, rules: verdict.violations.map((v) => v.rule) });
    throw new ToolError(`refused by the safety gate: ${list}${where}. ${unsent} If you mean it, resend with confirm: true.`, "refused");
  }

  private readonly shutdownHooks: (() => void)[] = [];

  /** Runs `hook` when the service shuts down (parts built on the service, e.g. the hive). */
  onShutdown(hook: () => void): void {
    this.shutdownHooks.push(hook);
  }

  async shutdown(): Promise<void> {
    for (const hook of this.shutdownHooks.splice(0)) {
      try {
        hook();
      } catch {
        // one part failing to close must not keep the others (or the recordings) open
      }
    }
    for (const session of this.registry.all()) session.recorder.close();
    // A command's end seen just before shutdown is written to its pane before we detach.
    await settleRunWrites();
    await this.backend.stop();
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + "…" : text;
}
