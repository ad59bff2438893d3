// Full-screen programs (vim, less, htop, any TUI): once one has switched to the alternate screen
// and drawn it, its output is a screen to look at, not a stream to wait on. The transcript of a
// TUI is cursor moves and partial redraws (status-line fragments when flattened), so callers get
// the rendered screen, row by row, and a hint to carry on with terminal_send / terminal_read.
import { countTokens, renderOutput, type Rendered } from "../../output/index.js";
import type { TerminalSession } from "../session/session.js";
import { textForModel } from "./render.js";

/** The visible screen as text, one screen row per line (trailing blank rows dropped). */
export function renderFullscreen(session: TerminalSession, maxTokens: number): Rendered {
  return renderScreenRows(session, session.screen.snapshot().lines, { keepRows: 0, maxTokens, raw: false });
}

/**
 * Screen rows (or changed rows) as text for a model: no reducers, nothing folded by command,
 * blank rows at the end dropped except the first `keepRows` (up to the cursor: where typing goes).
 */
export function renderScreenRows(session: TerminalSession, rows: readonly string[], options: { keepRows: number; maxTokens: number; raw?: boolean; diff?: boolean }): Rendered {
  let end = rows.length;
  while (end > options.keepRows && rows[end - 1]!.trimEnd() === "") end--;
  // A program that clears to the end of each line with spaces (top) leaves them in its cells:
  // they carry nothing for a reader (28 % of top's screen).
  const text = rows.slice(0, end).map((row) => row.trimEnd()).join("\n");
  // The budget that shows the whole screen, for the markers' call (rounded up: the screen moves).
  const screen = { inOrder: !options.diff, maxTokens: Math.max(options.maxTokens + 1, Math.ceil((countTokens(text) * 1.2 + 50) / 100) * 100) };
  const rendered = renderOutput(text, { maxTokens: options.maxTokens, raw: true, reduce: false, firstLine: 1, session: session.name, secrets: session.secrets, screen });
  return { ...rendered, text: textForModel(session, rendered.text, options.raw ?? false) };
}

export function fullscreenHint(session: TerminalSession): string {
  const ref = JSON.stringify(session.name);
  return (
    `a full-screen program is showing (output above is its screen); it keeps running. ` +
    `Type into it with terminal_send {"session":${ref},"text":"…"} or {"keys":[…]}, look again with terminal_read {"session":${ref},"mode":"screen"}.`
  );
}
