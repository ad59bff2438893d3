// A command that asks a question and waits for the answer (`read -p 'Continue? [y/N] '`, apt's
// "[Y/n]", sudo's password): a run returns once the question is on the cursor's line and the
// screen has been still a moment, instead of waiting out its timeout. The question rule is the
// one the hive reads a shell agent's screen with; here it must also end the cursor's line, up
// to the cursor (the answer goes right after it), so a log line that mentions "[y/N]" and
// moves on, or output that merely pauses, is no question.
import { SHELL_QUESTION } from "../../hive/programs/builtin-profiles.js";
import type { TerminalSession } from "../session/session.js";

/** How long the screen must stay still with the question at the cursor (the hive takes about as long). */
export const QUESTION_QUIET_MS = 400;

const QUESTION_AT_CURSOR = new RegExp(`(?:${SHELL_QUESTION})\\s*$`);
const MAX_QUESTION_CHARS = 120;

/**
 * A line that ends in a word and "?" (bash's `read -p "Continue? "`, a script's "Overwrite it?"):
 * asked of the cursor's line only when the screen is still, so it is the program's question. (":"
 * stays out: "Downloading:" and "Progress: " pause at the cursor too.)
 */
const ASKS_AT_CURSOR = /\w[^?]*\?\s*$/;

/** The question on the cursor's line, when the line ends with one; else undefined. */
export function questionAtCursor(cursorLine: string): string | undefined {
  return QUESTION_AT_CURSOR.test(cursorLine) || ASKS_AT_CURSOR.test(cursorLine) ? asQuestion(cursorLine) : undefined;
}

/** A yes/no question ("[y/N]", "(yes/no)"): its hint's example answer is "y"; any other's is a placeholder. */
const YES_NO = /\by\/n\b|\byes\/no\b/i;

/** The cursor's line as a question's text: trimmed, its end kept when it is long (the question ends the line). */
function asQuestion(cursorLine: string): string {
  const text = cursorLine.trim();
  return text.length > MAX_QUESTION_CHARS ? `…${text.slice(-(MAX_QUESTION_CHARS - 1))}` : text;
}

/**
 * A program typed into a REPL that asks for input (python's `input('name? ')`, a script's
 * "Enter a value: "): the shell's rule, or any line at the cursor that ends in "?" or ":".
 * Only asked of a REPL's cursor line that is not the REPL's own prompt, once every typed line
 * was echoed and the screen is still: there the program reads a line, as a REPL's prompt does.
 */
export function replQuestionAtCursor(cursorLine: string): string | undefined {
  return QUESTION_AT_CURSOR.test(cursorLine) || /\S.*[?:]\s*$/.test(cursorLine) ? asQuestion(cursorLine) : undefined;
}

export function questionHint(session: TerminalSession, question: string): string {
  const ref = JSON.stringify(session.name);
  const secret = /pass(?:word|phrase)/i.test(question) ? `, or {"session":${ref},"secret":"…"} for a password (masked in every output)` : "";
  return `the command asks ${JSON.stringify(question)} and waits for an answer; it keeps running. Answer with terminal_send {"session":${ref},"text":"${YES_NO.test(question) ? "y" : "<answer>"}\\n"}${secret}, then terminal_wait {"session":${ref},"for":"completion"}; or interrupt it with terminal_send {"session":${ref},"keys":["C-c"]}.`;
}
