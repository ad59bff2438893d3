// A command line termhive types at an integrated shell must not wait in a pager: the shell's
// PAGER, GIT_PAGER, MANPAGER… point at bin/pager, which prints straight to the terminal while
// this per-session mark is non-empty and runs the user's own pager otherwise. termhive writes
// the mark just before it types a line; the shell empties it at its next prompt, so a line a
// person types in the same pane afterwards gets their pager.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export { isPlainShell, plainShellPagerEnv } from "./plain-shell.js";

/** The mark's path relative to a termhive home (the local one, or a remote host's). */
export function runLineFile(sessionId: string): string {
  return join("shell", `run.${sessionId}`);
}

export function markRunLine(home: string, sessionId: string): void {
  try {
    // Written in place (never replaced): a sandboxed shell sees this file through a bind mount.
    writeFileSync(join(home, runLineFile(sessionId)), "1", { mode: 0o600 });
  } catch {
    // No state dir or a full disk: the line's pager then runs as for a person.
  }
}

export function removeRunLineMark(home: string, sessionId: string): void {
  rmSync(join(home, runLineFile(sessionId)), { force: true });
}
