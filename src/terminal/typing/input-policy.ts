// The rules every text typed into a session passes, whichever door or tool types it
// (terminal_run, terminal_send, hive_send, hive_message and its queue, hive_mail): control
// characters become their pictures (literal-text.ts), the size limit, the safety gate on the
// line Enter will submit (pending-line.ts: what termhive typed there since its last Enter),
// and the audit record of what was typed. One object, beside the one typing path (typing.ts),
// so no caller climbs back into the service for it.
import type { AuditLog } from "../../audit.js";
import type { Backend } from "../../backends/backend.js";
import { checkCommandAsync, redactSecrets, type SafetyConfig } from "../../safety/index.js";
import { ToolError } from "../../util/tool-error.js";
import type { KeyPlan } from "../model/key-plan.js";
import { EMPTY_TEXT, literalText, type LiteralText } from "../model/literal-text.js";
import { EMPTY_LINE, PENDING_MAX_CHARS, readPending, withText, writePending, type PendingLine } from "../model/pending-line.js";
import type { TerminalSession } from "../session/session.js";
import { settleOutput } from "./typing.js";

/** Before judging a line edited by keys, the program redraws it: quiet this long, or at most the max. */
const EDIT_SETTLE_QUIET_MS = 60;
const EDIT_SETTLE_MAX_MS = 1_000;
/** The longest tail of an on-screen line the gate reads. */
const SCREEN_LINE_MAX = 4_000;

export class InputPolicy {
  constructor(
    private readonly limits: { readonly maxInputBytes: number },
    readonly audit: AuditLog,
    private readonly safety: SafetyConfig,
    private readonly backend: Backend,
  ) {}

  /**
   * The checks for a text about to be typed: its literal form, the size limit, and the gate on
   * the line Enter will submit when the text submits it. Throws before anything is typed;
   * returns the text to type.
   */
  async check(text: string, session: TerminalSession, options: { enter: boolean; confirm?: boolean }): Promise<LiteralText> {
    const literal = literalText(text).text;
    this.checkSize(literal);
    // A line break inside the text may submit what precedes it (typed, where the program takes no paste).
    if (options.enter || literal.includes("\n")) await this.judgeLine(session, await this.pending(session), literal, options.confirm);
    return literal;
  }

  /** What termhive typed on the session's input line since its last Enter. */
  pending(session: TerminalSession): Promise<PendingLine> {
    return readPending(this.backend, session.paneId);
  }

  /** Records the session's input line as it is now. */
  setPending(session: TerminalSession, line: PendingLine): Promise<void> {
    return writePending(this.backend, session.paneId, line);
  }

  /** Records text typed into a session: the pending line grows, or starts afresh once submitted. */
  async noteTyped(session: TerminalSession, text: string, submitted: boolean): Promise<void> {
    const line = submitted ? EMPTY_LINE : withText(await this.pending(session), text);
    await this.setPending(session, line);
  }

  /** Refuses, before anything is typed, a text over TERMHIVE_MAX_INPUT_BYTES. */
  checkSize(text: LiteralText, what = "text"): void {
    const textBytes = Buffer.byteLength(text);
    if (textBytes > this.limits.maxInputBytes) {
      throw new ToolError(`${what} is ${textBytes} bytes; the limit is ${this.limits.maxInputBytes} (TERMHIVE_MAX_INPUT_BYTES). Nothing was sent. Write longer text to a file and pass its path.`);
    }
  }

  /**
   * The gate on the line Enter is about to submit: what termhive typed there since its last
   * Enter (pending-line.ts) plus `text`. When keys it cannot follow edited that line, the line
   * as the screen shows it is judged too (from each word on, since the prompt is part of it).
   */
  async judgeLine(session: TerminalSession, line: PendingLine, text: LiteralText, confirm: boolean | undefined, keysSent = false): Promise<void> {
    if (confirm) return;
    const unsent = keysSent ? "The keys before Enter were sent; Enter was not pressed." : "Nothing was sent.";
    if (line.overflow) {
      throw new ToolError(
        `refused: more than ${PENDING_MAX_CHARS} characters were typed on this line since termhive last pressed Enter, so the safety gate cannot judge what Enter would run. ${unsent} Clear the line first (keys ["C-c"]), or resend with confirm: true.`,
        "refused",
      );
    }
    const earlier = line.text === "" ? "" : ` (the line already held ${JSON.stringify(truncate(line.text, 80))}, typed without Enter)`;
    await this.gate(line.text + text, undefined, session, earlier, unsent);
    if (!line.edited) return;
    await session.screen.settled();
    const shown = session.screen.cursorLogicalLine().slice(-SCREEN_LINE_MAX).trimEnd();
    for (let i = 0; i < shown.length; i++) {
      if (i > 0 && !/\s/.test(shown[i - 1]!)) continue;
      await this.gate(shown.slice(i), undefined, session, ` (the line as the screen shows it: it was edited with keys since termhive last pressed Enter)`, unsent);
    }
  }

  /**
   * Sends keys in order. Before a key that submits a line edited by keys termhive cannot follow
   * (cursor moves, history, yank…), the keys before it are sent, the screen is let settle, and the
   * line the screen shows is judged; a refusal leaves that line unsubmitted.
   */
  async sendKeys(session: TerminalSession, keys: readonly string[], plan: KeyPlan, confirmed: boolean): Promise<void> {
    let from = 0;
    for (const [i, step] of plan.steps.entries()) {
      if (!step.submits || !step.line.edited || confirmed) continue;
      if (i > from) {
        const before = session.lastOutputAt;
        await session.keys(keys.slice(from, i));
        await this.setPending(session, step.line);
        await settleOutput(session, before, EDIT_SETTLE_QUIET_MS, EDIT_SETTLE_MAX_MS);
        from = i;
      }
      await this.judgeLine(session, step.line, EMPTY_TEXT, false, keys.slice(0, from).length > 0);
    }
    if (from < keys.length) await session.keys(keys.slice(from));
    await this.setPending(session, plan.after);
  }

  /** Refuses (ToolError "refused", nothing sent) a command the safety gate flags, unless confirmed. */
  async gate(command: string, confirm: boolean | undefined, session: TerminalSession | undefined, where = "", unsent = "Nothing was sent."): Promise<void> {
    if (confirm) return;
    const verdict = await checkCommandAsync(command, this.safety);
    if (verdict.allowed) return;
    const list = verdict.violations.map((v) => `${v.rule} (${v.reason}: \`${v.segment}\`)`).join("; ");
    this.audit.write({ event: "refused", session: session?.id, name: session?.name, command: session ? session.redact(command) : command, rules: verdict.violations.map((v) => v.rule) });
    throw new ToolError(`refused by the safety gate: ${list}${where}. ${unsent} If you mean it, resend with confirm: true.`, "refused");
  }

  /** The audit record of typed input (secrets and redactions applied), for every path that types. */
  recordInput(session: TerminalSession, text: string | undefined, enter: boolean, extra: Record<string, unknown> = {}): void {
    this.audit.write({
      event: "input",
      session: session.id,
      name: session.name,
      text: text === undefined ? undefined : truncate(redactSecrets(session.redact(text), session.secrets), 2000),
      enter,
      ...extra,
    });
  }
}

export function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + "…" : text;
}
