// The per-session marks termhive writes just before it types into an integrated shell (a secret
// line: src/shell/secret-line.ts; a line it submits: src/shell/run-line.ts), on the host whose
// shell reads them: this machine's TERMHIVE_HOME, or a remote host's own.
import type { Backend } from "../backends/backend.js";
import { isPlainShell, markRunLine, removeRunLineMark, runLineFile } from "../shell/run-line.js";
import { markSecretLine } from "../shell/secret-line.js";
import type { TerminalSession } from "./session.js";
import { traced } from "../util/traced.js";

export async function markLine(backend: Backend, home: string, session: TerminalSession, kind: "secret" | "run"): Promise<void> {
  if (session.meta.host && backend.writeHostFile) {
    const file = kind === "run" ? runLineFile(session.id) : `shell/secret.${session.id}`;
    await backend.writeHostFile(session.paneId, file, "1").catch(traced(`marking the ${kind} line on the remote host`));
  } else if (kind === "run") markRunLine(home, session.id);
  else markSecretLine(home, session.id);
}

/**
 * Before a run types its line: an integrated shell's mark (cleared by its next prompt); a plain
 * shell's (sh, dash: src/shell/plain-shell.ts), which has no prompt hook, comes with the call
 * that clears it once the run returns. Other programs get none.
 */
export async function markRun(backend: Backend, home: string, session: TerminalSession): Promise<(() => Promise<void>) | void> {
  if (session.integrated) return markLine(backend, home, session, "run");
  if (!isPlainShell(session.meta.command) || session.meta.host || session.meta.sandbox) return;
  await markLine(backend, home, session, "run");
  return async () => removeRunLineMark(home, session.id);
}
