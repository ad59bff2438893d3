// A pager waiting for keys on the normal screen: `less -X` (git's `less -FRX`), `more`, man's
// less. It never switches to the alternate screen, so the full-screen check cannot see it, and
// it takes every key typed next as one of its commands. Commands termhive types do not page
// (src/shell/bin/pager), so one showing here was called by the command itself or by a person.
import type { TerminalSession } from "../session/session.js";

/**
 * What a pager shows on its last row while it waits, up to the cursor: less's `:` and `(END)`,
 * its long prompts (`lines 1-40/300 12%`, `byte 2048`), man's `Manual page ls(1) line 1 …`,
 * more's `--More--(12%)`.
 */
const PAGER_PROMPT = /^(?::|\(END\)|.*\(END\)|--More--.*|Manual page .* line \d+.*|.*\blines \d+-\d+(?:\/\d+)?.*|.*\bbyte \d+(?:\/\d+)?.*)$/;

/** Whether a pager's prompt is on the screen's last row, where the cursor waits after it. */
export async function pagerShowing(session: TerminalSession): Promise<boolean> {
  await session.screen.settled();
  const snap = session.screen.snapshot();
  if (snap.alternate || snap.cursor.row !== snap.rows - 1) return false;
  return PAGER_PROMPT.test(session.screen.cursorLinePrefix().trimEnd());
}

/** What a screen that takes keys for itself is, if it is one: a pager, or a full-screen program. */
export type KeysTakenBy = "pager" | "full-screen";

export async function keysTakenBy(session: TerminalSession): Promise<KeysTakenBy | undefined> {
  if (!session.alive) return undefined;
  if (await pagerShowing(session)) return "pager";
  return session.screen.snapshot().alternate ? "full-screen" : undefined;
}

export function pagerHint(session: TerminalSession): string {
  const ref = JSON.stringify(session.name);
  return (
    `a pager is showing the output and waits for keys (the output above is its screen); it takes any text sent as its own commands. ` +
    `Leave it with terminal_send {"session":${ref},"text":"q","enter":false}; to get the whole output, rerun the command without its pager (e.g. piped to cat, or git --no-pager).`
  );
}

/** What a send's result says when the input went to a pager or a full-screen program. */
export function takenByNote(takenBy: KeysTakenBy): string {
  return takenBy === "pager"
    ? "a pager was waiting for keys when this arrived: it read the input as its own commands, not as a command line (q leaves it; terminal_read mode screen shows it)"
    : "a full-screen program was showing when this arrived: it read the input as its own keys (terminal_read mode screen shows what it did)";
}
