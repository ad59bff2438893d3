// Typing into a session: plain text, multi-line text as a bracketed paste with its Enter sent
// once the paste has settled, and named keys.
import type { TerminalSession } from "../terminal/session.js";
import { watchSession } from "../terminal/watch.js";

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
/** A program reacting to a paste (redrawing its input box) goes quiet within this; then Enter is safe. */
const PASTE_SETTLE_QUIET_MS = 30;
const PASTE_SETTLE_MAX_MS = 1000;

/**
 * What terminal_send types: a text ending in one newline is submitted, that newline being the
 * Enter key whatever `enter` says ("make\n" with enter: false runs make, as a person pressing
 * Return would), and with enter: true it is still one Enter, never two. Only the last newline
 * counts; the others are part of the text (pasted). (terminal_run types its command as given
 * plus Enter: there a trailing blank line means something, e.g. it closes a Python block.)
 */
export function submission(text: string, enter: boolean): { text: string; enter: boolean } {
  const m = /\r?\n$/.exec(text);
  return m ? { text: text.slice(0, m.index), enter: true } : { text, enter };
}

/** Types text; returns the number of bytes written. */
export async function typeText(session: TerminalSession, text: string, enter: boolean): Promise<number> {
  const multiline = text.includes("\n");
  if (!multiline) {
    const bytes = Buffer.from(enter ? text + "\r" : text, "utf8");
    await session.write(bytes);
    return bytes.length;
  }
  await session.screen.settled();
  const body = text.replace(/\r?\n/g, "\r");
  if (!session.screen.bracketedPaste) {
    // The program did not ask for bracketed paste: type the lines as a person would.
    const bytes = Buffer.from(enter ? body + "\r" : body, "utf8");
    await session.write(bytes);
    return bytes.length;
  }
  const paste = Buffer.from(PASTE_START + body + PASTE_END, "utf8");
  const before = session.lastOutputAt;
  await session.write(paste);
  if (!enter) return paste.length;
  await settleAfterPaste(session, before);
  await session.write(Buffer.from("\r"));
  return paste.length + 1;
}

/** Waits until the program has echoed the paste and gone quiet (or a short bound passes). */
async function settleAfterPaste(session: TerminalSession, outputBefore: number): Promise<void> {
  await settleOutput(session, outputBefore, PASTE_SETTLE_QUIET_MS, PASTE_SETTLE_MAX_MS);
}

/**
 * Resolves true once the program produced output after `since` and then stayed quiet for
 * quietMs; false when maxMs passes first (or the session goes away).
 */
export async function settleOutput(session: TerminalSession, since: number, quietMs: number, maxMs: number): Promise<boolean> {
  const r = await watchSession(
    session,
    () => (session.lastOutputAt > since && Date.now() - session.lastOutputAt >= quietMs ? true : undefined),
    { timeoutMs: maxMs, quietMs },
  ).catch(() => "timeout" as const);
  await session.screen.settled();
  return r === true;
}

/** How long terminal_send waits for an integrated shell to take a line it submitted. */
const SHELL_ACCEPT_WAIT_MS = 1000;

/**
 * Types text and, when it submits a line to an integrated shell at its prompt, waits until the
 * shell has taken it (the command started, or a new prompt came for a blank or rejected line).
 * Without this a terminal_run right after terminal_send {text: "python3"} saw the shell still
 * at its prompt and typed its command as a second shell command.
 */
export async function typeIntoSession(session: TerminalSession, typed: string, pressEnter: boolean): Promise<number> {
  const { text, enter } = submission(typed, pressEnter);
  const toShell = session.integrated && session.phase === "prompt" && enter;
  const promptBefore = session.lastPromptEnd;
  const sent = await typeText(session, text, enter);
  if (toShell) {
    await watchSession(session, () => (session.phase !== "prompt" || session.lastPromptEnd > promptBefore ? true : undefined), {
      timeoutMs: SHELL_ACCEPT_WAIT_MS,
    }).catch(() => undefined);
  }
  return sent;
}
