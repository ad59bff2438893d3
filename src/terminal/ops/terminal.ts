// The terminal of this process: the one object its operations (the files beside this one) work
// over, as the hive's operations work over the crew. It holds what every operation shares —
// the sessions (registry), the rules every typed text passes (input policy), the config and the
// audit log — and no operation of its own.
import { AuditLog } from "../../audit.js";
import type { Backend } from "../../backends/backend.js";
import { createBackend } from "../../backends/select.js";
import type { TermhiveConfig } from "../../config.js";
import { safetyConfigFrom } from "../../safety/index.js";
import { ensurePrivateDir } from "../../util/paths.js";
import { InvalidRegexError, SafeRegex } from "../../util/regex.js";
import { ToolError } from "../../util/tool-error.js";
import { InputPolicy } from "../typing/input-policy.js";
import { SessionRegistry } from "../live/registry.js";
import { settleRunWrites } from "../live/run-state.js";
import type { TerminalSession } from "../session/session.js";

export class Terminal {
  readonly registry: SessionRegistry;
  readonly audit: AuditLog;
  /** Size limit, safety gate, pending line and audit of every typed text (terminal/typing/input-policy.ts). */
  readonly policy: InputPolicy;

  constructor(readonly config: TermhiveConfig, backend?: Backend) {
    ensurePrivateDir(config.home);
    this.audit = new AuditLog(config.home, config.auditMaxBytes);
    this.registry = new SessionRegistry(backend ?? createBackend(config), config, this.audit);
    this.policy = new InputPolicy(config, this.audit, safetyConfigFrom(config.safety), this.registry.backend);
  }

  get backend(): Backend {
    return this.registry.backend;
  }

  session(ref: string): Promise<TerminalSession> {
    return this.registry.get(ref);
  }
}

/** A caller's pattern (until, filter, pattern), or the ToolError that says what is wrong with it. */
export function userRegex(source: string, what: string, flags?: string): SafeRegex {
  try {
    return new SafeRegex(source, what, flags);
  } catch (error) {
    if (error instanceof InvalidRegexError) throw new ToolError(error.message);
    throw error;
  }
}

/** The last step of the root's shutdown: recordings closed, run ends written, backend stopped. */
export async function stopTerminal(terminal: Terminal): Promise<void> {
  for (const session of terminal.registry.all()) session.recorder.close();
  // A command's end seen just before shutdown is written to its pane before we detach.
  await settleRunWrites();
  await terminal.backend.stop();
}
