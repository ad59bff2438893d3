// A `secret` typed at an integrated shell's prompt becomes a whole command line, which the
// shell would hand to termhive (OSC 633;E, through bash's command-line file) and keep in its
// history. termhive writes this per-session file just before it types such a secret; the
// shell's next hook sees it non-empty, empties it, and leaves no trace of that line.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function secretLinePath(home: string, sessionId: string): string {
  return join(home, "shell", `secret.${sessionId}`);
}

export function markSecretLine(home: string, sessionId: string): void {
  try {
    writeFileSync(secretLinePath(home, sessionId), "1", { mode: 0o600 });
  } catch {
    // No state dir or a full disk: the shell then records the line as usual.
  }
}

export function removeSecretLineMark(home: string, sessionId: string): void {
  rmSync(secretLinePath(home, sessionId), { force: true });
}
