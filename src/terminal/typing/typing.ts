// Typing into a session, one path for terminal_send, terminal_run's command and hive delivery:
// the text goes in as a bracketed paste when the program asked for that mode (and the text is
// multi-line, or the caller always pastes), otherwise as keystrokes; after a paste, Enter waits
// until the program has echoed it and gone quiet (one paste timing for every caller).
import type { TerminalSession } from "../session/session.js";
import { watchSession } from "../waits/watch.js";
import { literalText, type LiteralText } from "../model/literal-text.js";
import { promptRedrawn } from "../waits/ready.js";
import { cancelInputLine } from "./prompt-line.js";

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
/** A program reacting to a paste (redrawing its input box) goes quiet within this; then Enter is safe. */
export const PASTE_SETTLE_QUIET_MS = 40;
/** A program that never echoes (busy, or reads without echo) gets at most this long. */
export const PASTE_SETTLE_MAX_MS = 1000;

export type TypingMethod = "paste" | "typed";

export interface Typed {
  method: TypingMethod;
  /** Bytes written (the Enter included when it was pressed). */
  bytes: number;
  /** The session's lastOutputAt just before the write: output after it is the program's reaction. */
  outputBefore: number;
}

/**
 * What terminal_send types: a text ending in one newline is submitted, that newline being the
 * Enter key whatever `enter` says ("make\n" with enter: false runs make, as a person pressing
 * Return would), and with enter: true it is still one Enter, never two. Only the last newline
 * counts; the others are part of the text (pasted). (terminal_run types its command as given
 * plus Enter: there a trailing blank line means something, e.g. it closes a Python block.)
 */
export function submission<T extends string>(text: T, enter: boolean): { text: T; enter: boolean } {
  const m = /\r?\n$/.exec(text);
  return m ? { text: text.slice(0, m.index) as T, enter: true } : { text, enter };
}

/**
 * Writes text without Enter. `paste`: "multiline" pastes only text with line breaks (a single
 * line is typed, as a person would); "always" pastes any text (hive delivery: a TUI takes a
 * paste as one input, keystrokes may trigger its shortcuts).
 */
export async function writeText(session: TerminalSession, text: LiteralText, paste: "multiline" | "always"): Promise<Typed> {
  await session.dropUnreadAnswers();
  if (paste === "multiline" && !text.includes("\n")) {
    const outputBefore = session.lastOutputAt;
    const bytes = Buffer.from(text, "utf8");
    await session.write(bytes);
    return { method: "typed", bytes: bytes.length, outputBefore };
  }
  // The screen model knows whether the program asked for bracketed paste once it has parsed all output.
  await session.screen.settled();
  const outputBefore = session.lastOutputAt;
  const body = text.replace(/\n/g, "\r");
  // A shell that takes pastes turns the mode on only once its line editor starts, a moment
  // after the prompt is drawn (zsh: seen typed as keystrokes, so the first line ran alone).
  // Its editor reads a paste typed before that from the terminal's buffer all the same.
  const shellTakesPaste = session.integrated && session.asksForBracketedPaste && (session.phase === "prompt" || session.phase === "redrawing");
  const pasted = session.screen.bracketedPaste || shellTakesPaste;
  const bytes = Buffer.from(pasted ? PASTE_START + body + PASTE_END : body, "utf8");
  await session.write(bytes);
  return { method: pasted ? "paste" : "typed", bytes: bytes.length, outputBefore };
}

export async function pressEnter(session: TerminalSession): Promise<void> {
  await session.write(Buffer.from("\r"));
}

/**
 * Types text and, with `enter`, submits it: keystrokes carry their Enter in the same write; a
 * paste gets its Enter once the program has echoed it (see settleAfterPaste).
 */
export function typeText(session: TerminalSession, given: string, enter: boolean): Promise<number> {
  return typeLiteral(session, literalText(given).text, enter);
}

/** typeText for a text made literal where it entered (the gate judged that text): not converted again. */
export async function typeLiteral(session: TerminalSession, text: LiteralText, enter: boolean): Promise<number> {
  await session.dropUnreadAnswers();
  if (!text.includes("\n")) {
    const bytes = Buffer.from(enter ? text + "\r" : text, "utf8");
    await session.write(bytes);
    return bytes.length;
  }
  const typed = await writeText(session, text, "multiline");
  if (!enter) return typed.bytes;
  if (typed.method === "paste") await settleAfterPaste(session, typed.outputBefore);
  await pressEnter(session);
  return typed.bytes + 1;
}

/** Waits until the program has echoed a paste and gone quiet (or `maxMs` passes); true when it did. */
export function settleAfterPaste(session: TerminalSession, outputBefore: number, maxMs = PASTE_SETTLE_MAX_MS): Promise<boolean> {
  return settleOutput(session, outputBefore, PASTE_SETTLE_QUIET_MS, maxMs);
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
export async function typeIntoSession(session: TerminalSession, typed: LiteralText, pressEnterKey: boolean): Promise<number> {
  const { text, enter } = submission(typed, pressEnterKey);
  const toShell = session.integrated && session.phase === "prompt" && enter;
  expectTypedCommand(session, text, toShell);
  const promptBefore = session.lastPromptEnd;
  const sent = await typeLiteral(session, text, enter);
  if (toShell) await shellTookLine(session, promptBefore, SHELL_ACCEPT_WAIT_MS);
  return sent;
}

/**
 * Presses keys and, when the last of them ends the line of an integrated shell at its prompt,
 * waits until the shell has taken it: Enter (the command started, or a new prompt), C-c (a new
 * prompt; see cancelInputLine, which presses it again when the shell left it pending). A run
 * right after otherwise typed into bash's handling of the SIGINT, which drops the key it
 * reads ("cho x" for "echo x").
 */
export async function pressKeysIntoSession(session: TerminalSession, keys: readonly string[], press: () => Promise<void>): Promise<void> {
  // Right after a command ended its prompt is still coming: taken for the key's, it would end the wait early.
  await promptRedrawn(session);
  const last = keys.at(-1);
  const atPrompt = session.integrated && session.phase === "prompt";
  if (atPrompt && last === "C-c") {
    await cancelInputLine(session, press);
    return;
  }
  const promptBefore = session.lastPromptEnd;
  await press();
  if (atPrompt && last === "Enter") await shellTookLine(session, promptBefore, SHELL_ACCEPT_WAIT_MS);
}

/**
 * An integrated shell at its prompt reads input in order and says when it starts a command
 * (OSC 133 C) or comes back to its prompt: no quiet windows needed to know it took the line.
 * `promptBefore` is its lastPromptEnd before Enter was pressed.
 */
export async function shellTookLine(session: TerminalSession, promptBefore: number, maxMs: number): Promise<boolean> {
  const r = await watchSession(session, () => (session.phase !== "prompt" || session.lastPromptEnd > promptBefore ? true : undefined), {
    timeoutMs: maxMs,
  }).catch(() => "timeout" as const);
  return r === true;
}

/**
 * A line termhive submits to an integrated shell at its prompt is the command that runs: named
 * from the text itself, not from the shell's echo, whose redraws (a paste highlighted then
 * drawn again, a line wrapped across rows) read back garbled ("…'Shiecho …"). A person's
 * typing is still named from the echo (or the shell's own announcement, which wins).
 */
export function expectTypedCommand(session: TerminalSession, text: LiteralText, toShell: boolean): void {
  const line = text.trim();
  if (toShell && line !== "" && !line.includes("\n")) session.expectCommand(line);
}
