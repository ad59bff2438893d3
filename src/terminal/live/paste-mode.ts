// Whether a session's shell takes bracketed paste, kept with its pane. The screen model learns
// it only from the shell's own `ESC[?2004h`, which a process that adopts a session at its
// prompt never sees (capture-pane carries no modes): without this, a fresh process typed a
// multi-line command as keystrokes, the shell ran its first line alone and the run ended there.
// The same holds for an agent's TUI (Claude Code, Codex): typed as keystrokes after a restart,
// Codex took an Enter that followed the text within ~10 ms as a newline, about 1 time in 7.
import type { Backend } from "../../backends/backend.js";
import type { TerminalSession } from "../session/session.js";
import { traced } from "../../util/traced.js";

const PASTE_KEY = "paste";

/** Records, once per pane, that its program asked for bracketed paste. */
export function publishPasteMode(session: TerminalSession, backend: Backend): void {
  // The session fires this once (the first ESC[?2004h), and lives no longer than its pane.
  session.onBracketedPaste(() => {
    void backend.shared.writeShared(session.paneId, PASTE_KEY, "1").catch(traced("publishing a pane's paste mode"));
  });
}

/** For a session adopted at its shell's prompt, or running its own program: that reads input with bracketed paste on. */
export async function adoptPasteMode(session: TerminalSession, backend: Backend): Promise<void> {
  if ((await backend.shared.readShared(session.paneId, PASTE_KEY).catch(() => "")) === "1") session.assumeBracketedPaste();
}
