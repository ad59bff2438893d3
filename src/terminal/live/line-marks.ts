// The per-session marks termhive writes just before it types into an integrated shell (a secret
// line: src/shell/secret-line.ts; a line it submits: src/shell/run-line.ts), on the host whose
// shell reads them: this machine's TERMHIVE_HOME, or a remote host's own.
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import type { Backend } from "../../backends/backend.js";
import { isPlainShell, markRunLine, removeRunLineMark, runLineFile } from "../../shell/run-line.js";
import { markSecretLine } from "../../shell/secret-line.js";
import type { TerminalSession } from "../session/session.js";
import { traced } from "../../util/traced.js";
import { STATUS_LINE_MAX_BYTES } from "./status-file.js";

export async function markLine(backend: Backend, home: string, session: TerminalSession, kind: "secret" | "run"): Promise<void> {
  if (session.meta.host && backend.hosts) {
    const file = kind === "run" ? runLineFile(session.id) : `shell/secret.${session.id}`;
    await backend.hosts.writeHostFile(session.paneId, file, "1").catch(traced(`marking the ${kind} line on the remote host`));
  } else if (kind === "run") markRunLine(home, session.id);
  else markSecretLine(home, session.id);
}

/**
 * Whether a line termhive typed into the shell is still running: the run mark is set just
 * before the line is typed and the shell empties it at its next prompt. Read as untrusted (the
 * pane can write it): its size only, never through a link, never waiting on a FIFO.
 */
export async function runLineMarked(backend: Backend, home: string, session: TerminalSession): Promise<boolean> {
  if (session.meta.host && backend.hosts) {
    return (await backend.hosts.readHostFile(session.paneId, runLineFile(session.id), STATUS_LINE_MAX_BYTES).catch(() => "")).trim() !== "";
  }
  let fd: number;
  try {
    fd = openSync(join(home, runLineFile(session.id)), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const stat = fstatSync(fd);
    return !stat.isFile() || stat.size > 0;
  } finally {
    closeSync(fd);
  }
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
