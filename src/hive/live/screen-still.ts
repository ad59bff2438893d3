// How long a pane's screen has looked the same. A TUI may write to its pane without changing
// what it shows (a redraw of the same frame on a timer), so the output's quiet time alone would
// call a drawn dialog never still; the screen's text is compared too. Both are lower bounds of
// the true still time (the text is compared only when someone looks, which the status tracker
// does after every burst of output), so the larger one is used.
import type { TerminalSession } from "../../terminal/session/session.js";

const seen = new WeakMap<TerminalSession, { text: string; since: number }>();

/** Milliseconds the screen `lines` (the session's current snapshot) have been unchanged. */
export function screenStillMs(session: TerminalSession, lines: readonly string[], now = Date.now()): number {
  const text = lines.join("\n");
  let last = seen.get(session);
  if (!last || last.text !== text) {
    last = { text, since: Math.max(now, session.lastOutputAt) };
    // A first look at a screen that printed nothing since: still since its last output.
    if (!seen.has(session)) last.since = session.lastOutputAt;
    seen.set(session, last);
  }
  return Math.max(now - session.lastOutputAt, now - last.since);
}
