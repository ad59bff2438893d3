// Full-screen programs (vim, less, htop, any TUI): once one has switched to the alternate screen
// and drawn it, its output is a screen to look at, not a stream to wait on. The transcript of a
// TUI is cursor moves and partial redraws (status-line fragments when flattened), so callers get
// the rendered screen, row by row, and a hint to carry on with terminal_send / terminal_read.
import type { TermhiveConfig } from "../config.js";
import { renderOutput, type Rendered } from "../output/index.js";
import type { TerminalSession } from "../terminal/session.js";
import { textForModel } from "./render.js";

/**
 * True once the session shows the alternate screen, the program drew something after `since`
 * (a transcript offset) and has been quiet for the idle time (TERMHIVE_IDLE_QUIET_MS): TUIs draw
 * their first screen in bursts (vim redraws after the terminal answers its queries).
 */
export async function fullscreenSettled(session: TerminalSession, since: number, config: TermhiveConfig): Promise<boolean> {
  if (session.transcript.end <= since || Date.now() - session.lastOutputAt < config.idleQuietMs) return false;
  await session.screen.settled();
  return session.screen.snapshot().alternate;
}

/** Whether the alternate screen is active now (the model's screen brought up to date first). */
export async function onAlternateScreen(session: TerminalSession): Promise<boolean> {
  await session.screen.settled();
  return session.screen.snapshot().alternate;
}

/** The visible screen as text, one screen row per line (trailing blank rows dropped). */
export function renderFullscreen(session: TerminalSession, maxTokens: number): Rendered {
  const snap = session.screen.snapshot();
  const lines = snap.lines.map((line) => line.trimEnd());
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end--;
  const rendered = renderOutput(lines.slice(0, end).join("\n"), { maxTokens, raw: true, reduce: false, firstLine: 1, session: session.name, secrets: session.secrets });
  return { ...rendered, text: textForModel(session, rendered.text, false) };
}

export function fullscreenHint(session: TerminalSession): string {
  const ref = JSON.stringify(session.name);
  return (
    `a full-screen program is showing (output above is its screen); it keeps running. ` +
    `Type into it with terminal_send {"session":${ref},"text":"…"} or {"keys":[…]}, look again with terminal_read {"session":${ref},"mode":"screen"}.`
  );
}
