// The rules every text typed into a session passes, whichever door or tool types it
// (terminal_run, terminal_send, hive_send, hive_message and its queue, hive_mail): the size
// limit, the safety gate when Enter will run it, and the audit record of what was typed. One
// object, beside the one typing path (typing.ts), so no caller climbs back into the service
// for it.
import type { AuditLog } from "../audit.js";
import { checkCommand, redactSecrets, type SafetyConfig } from "../safety/index.js";
import { ToolError } from "../util/tool-error.js";
import type { TerminalSession } from "./session.js";

export class InputPolicy {
  constructor(
    private readonly limits: { readonly maxInputBytes: number },
    readonly audit: AuditLog,
    private readonly safety: SafetyConfig,
  ) {}

  /**
   * The size limit, and the safety gate when Enter will run the text. Throws before anything
   * is typed.
   */
  check(text: string, session: TerminalSession, options: { enter: boolean; confirm?: boolean }): void {
    const textBytes = Buffer.byteLength(text);
    if (textBytes > this.limits.maxInputBytes) {
      throw new ToolError(`text is ${textBytes} bytes; the limit is ${this.limits.maxInputBytes} (TERMHIVE_MAX_INPUT_BYTES). Nothing was sent.`);
    }
    if (options.enter) this.gate(text, options.confirm, session);
  }

  /** Refuses (ToolError "refused", nothing sent) a command the safety gate flags, unless confirmed. */
  gate(command: string, confirm: boolean | undefined, session: TerminalSession | undefined): void {
    if (confirm) return;
    const verdict = checkCommand(command, this.safety);
    if (verdict.allowed) return;
    const list = verdict.violations.map((v) => `${v.rule} (${v.reason}: \`${v.segment}\`)`).join("; ");
    this.audit.write({ event: "refused", session: session?.id, name: session?.name, command: session ? session.redact(command) : command, rules: verdict.violations.map((v) => v.rule) });
    throw new ToolError(`refused by the safety gate: ${list}. Nothing was sent. If you mean it, resend with confirm: true.`, "refused");
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
