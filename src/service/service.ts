// The operations every door (MCP, gRPC, CLI) calls. No door holds behaviour of its own.
import { basename } from "node:path";
import type { Backend } from "../backends/backend.js";
import { createBackend } from "../backends/select.js";
import { AuditLog } from "../audit.js";
import type { TermhiveConfig } from "../config.js";
import { checkCommand, loadSafetyConfig, redactSecrets, type SafetyConfig } from "../safety/index.js";
import { watchSession } from "../terminal/watch.js";
import { ensurePrivateDir } from "../util/paths.js";
import { SafeRegex, InvalidRegexError } from "../util/regex.js";
import { ToolError } from "./errors.js";
import { typeText } from "./input.js";
import { readSession, type ReadResult } from "./read.js";
import { SessionRegistry } from "./registry.js";
import { deadError, runCommand, type RunResult } from "./run.js";
import type { closeInput, Input, openInput, readInput, resizeInput, runInput, sendInput, waitInput } from "./schemas.js";
import { waitSession, type WaitResult } from "./wait.js";
import type { TerminalSession } from "../terminal/session.js";
import { matchNestedPrompt } from "../terminal/prompts.js";
import { resolveKey } from "../terminal/keys.js";

/** Who is calling: read cursors ("new", "diff") are per client; progress goes back to it. */
export interface CallContext {
  clientId: string;
  onProgress?: (elapsedMs: number, message: string) => void;
}

export interface SessionSummary {
  session: string;
  name: string;
  backend: string;
  alive: boolean;
  exit_code?: number | null;
  foreground: string;
  cwd: string | null;
  running: string | null;
  last_exit_code: number | null;
  idle_s: number;
  tui: boolean;
  pane: string;
}

/** How long terminal_open waits for a fresh shell's first prompt (or a program's first output). */
const OPEN_READY_MS = 10_000;
const OPEN_QUIET_MS = 150;

export class TermhiveService {
  readonly registry: SessionRegistry;
  readonly audit: AuditLog;
  private readonly safety: SafetyConfig;

  constructor(readonly config: TermhiveConfig, backend?: Backend) {
    ensurePrivateDir(config.home);
    this.audit = new AuditLog(config.home);
    this.safety = loadSafetyConfig();
    this.registry = new SessionRegistry(
      backend ?? createBackend(config),
      config,
      this.audit,
    );
  }

  get backend(): Backend {
    return this.registry.backend;
  }

  session(ref: string): Promise<TerminalSession> {
    return this.registry.get(ref);
  }

  async open(input: Input<typeof openInput>) {
    const session = await this.registry.open({ ...input, rows: input.rows ?? 40, cols: input.cols ?? 120 });
    await this.waitReady(session);
    return {
      session: session.id,
      name: session.name,
      backend: this.backend.kind,
      pid: session.pane.pid,
      pane: session.paneId,
      shell: session.meta.shell,
      integrated: session.integrated,
      attach: this.backend.attachCommand(session.paneId),
      cwd: session.cwd ?? session.pane.cwd,
      ...(this.backend.warning ? { warning: this.backend.warning } : {}),
    };
  }

  /** A shell is ready at its first prompt; another program once it has printed and gone quiet. */
  private async waitReady(session: TerminalSession): Promise<void> {
    const shell = session.meta.shell !== "other";
    await watchSession(
      session,
      () => {
        if (!session.alive) return true;
        if (shell) return session.phase !== "starting" ? true : undefined;
        return session.transcript.end > 0 && Date.now() - session.lastOutputAt >= OPEN_QUIET_MS ? true : undefined;
      },
      { timeoutMs: OPEN_READY_MS, quietMs: shell ? undefined : OPEN_QUIET_MS },
    ).catch(() => undefined);
  }

  async run(input: Input<typeof runInput>, ctx: CallContext): Promise<RunResult> {
    const session = await this.session(input.session);
    this.gate(input.command, input.confirm, session);
    const until = input.until === undefined ? undefined : this.regex(input.until, "until");
    this.audit.write({ event: "run", session: session.id, name: session.name, command: session.redact(input.command) });
    const result = await runCommand(
      session,
      {
        command: input.command,
        timeoutMs: (input.timeout_s ?? 30) * 1000,
        until,
        maxTokens: input.max_tokens ?? this.config.maxTokens,
        raw: input.raw,
        reduce: input.reduce,
        onProgress: ctx.onProgress && ((ms) => ctx.onProgress!(ms, `waiting for ${truncate(input.command, 60)} (${Math.round(ms / 1000)} s)`)),
      },
      this.config,
    );
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

  async send(input: Input<typeof sendInput>, _ctx: CallContext): Promise<{ sent_bytes: number; keys?: number }> {
    const session = await this.session(input.session);
    if (!session.alive) throw deadError(session);
    if (input.text === undefined && input.keys === undefined && input.secret === undefined) {
      throw new ToolError("nothing to send: give text, keys or secret");
    }
    const enter = input.enter ?? true;
    if (input.text !== undefined) this.checkInput(input.text, session, { enter, confirm: input.confirm });
    const keys = input.keys ?? [];
    // Validate every key before typing anything, so a bad key name sends nothing.
    try {
      for (const key of keys) resolveKey(key);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    let sent = 0;
    if (input.text !== undefined) sent += await typeText(session, input.text, enter && input.secret === undefined);
    if (input.secret !== undefined) {
      if (input.secret && !session.secrets.includes(input.secret)) session.secrets.push(input.secret);
      sent += await typeText(session, input.secret, true);
    }
    if (keys.length) await session.keys(keys);
    this.auditInput(session, input.text, enter, {
      keys: keys.length ? keys : undefined,
      secret: input.secret === undefined ? undefined : `[secret, ${Buffer.byteLength(input.secret)} bytes]`,
    });
    return { sent_bytes: sent, ...(keys.length ? { keys: keys.length } : {}) };
  }

  async read(input: Input<typeof readInput>, ctx: CallContext): Promise<ReadResult> {
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

  async wait(input: Input<typeof waitInput>, ctx: CallContext): Promise<WaitResult> {
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
    const sessions = this.registry.all().map((s) => this.summary(s));
    return { sessions };
  }

  summary(s: TerminalSession): SessionSummary {
    const running = s.running;
    const snap = s.goneReason ? undefined : s.screen.snapshot();
    return {
      session: s.id,
      name: s.name,
      backend: this.backend.kind,
      alive: s.alive,
      ...(s.alive ? {} : { exit_code: s.exitStatus }),
      foreground: s.pane.foreground,
      cwd: s.cwd ?? (s.pane.cwd || null),
      running: running ? running.command : s.integrated || !s.alive ? null : (snap && matchNestedPrompt(s.screen.cursorLinePrefix()) ? null : basename(s.meta.command)),
      last_exit_code: s.lastExitCode,
      idle_s: Math.round((Date.now() - s.lastOutputAt) / 100) / 10,
      tui: snap?.alternate ?? false,
      pane: s.paneId,
    };
  }

  async close(input: Input<typeof closeInput>): Promise<{ closed: boolean; session: string; name: string; exit_code?: number | null }> {
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

  async resize(input: Input<typeof resizeInput>): Promise<{ session: string; rows: number; cols: number }> {
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
   * (terminal_send, hive_send, hive_message and its queue): the size limit, and the safety
   * gate when Enter will run it. Throws before anything is typed.
   */
  checkInput(text: string, session: TerminalSession, options: { enter: boolean; confirm?: boolean }): void {
    const textBytes = Buffer.byteLength(text);
    if (textBytes > this.config.maxInputBytes) {
      throw new ToolError(`text is ${textBytes} bytes; the limit is ${this.config.maxInputBytes} (TERMHIVE_MAX_INPUT_BYTES). Nothing was sent.`);
    }
    if (options.enter) this.gate(text, options.confirm, session);
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
  gate(command: string, confirm: boolean | undefined, session: TerminalSession): void {
    if (confirm) return;
    const verdict = checkCommand(command, this.safety);
    if (verdict.allowed) return;
    const list = verdict.violations.map((v) => `${v.rule} (${v.reason}: \`${v.segment}\`)`).join("; ");
    this.audit.write({ event: "refused", session: session.id, name: session.name, command: session.redact(command), rules: verdict.violations.map((v) => v.rule) });
    throw new ToolError(`refused by the safety gate: ${list}. Nothing was sent. If you mean it, resend with confirm: true.`, "refused");
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
    await this.backend.stop();
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + "…" : text;
}
