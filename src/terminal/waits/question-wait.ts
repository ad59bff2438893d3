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

/** "[y/N]", "[Y/n]", "(y/n)": the capital letter is the default (what Enter alone gives). */
const Y_N = /\b([yY])\/([nN])\b/;
const YES_NO_WORDS = /\byes\/no\b/i;

/**
 * The answers a hint offers: a yes/no question's two, its default first and named (a model
 * that copies the first answer then takes the default, not "y" to "Deploy now? [y/N]", trial
 * 15); "(yes/no)" asks for the word (ssh refuses "y"); any other question gets a placeholder.
 */
function answersFor(question: string): { text: string; label?: string }[] {
  const yn = Y_N.exec(question);
  if (yn) {
    const yes = { text: "y", label: "yes" };
    const no = { text: "n", label: "no" };
    if (yn[2] === "N" && yn[1] === "y") return [{ ...no, label: "no, the default" }, yes];
    if (yn[1] === "Y" && yn[2] === "n") return [{ ...yes, label: "yes, the default" }, no];
    return [yes, no];
  }
  if (YES_NO_WORDS.test(question)) return [{ text: "yes", label: "yes" }, { text: "no", label: "no" }];
  return [{ text: "<answer>" }];
}

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
  const answers = answersFor(question)
    .map((answer) => `{"session":${ref},"text":"${answer.text}\\n"}${answer.label ? ` (${answer.label})` : ""}`)
    .join(" or ");
  return `the command asks ${JSON.stringify(question)} and waits for an answer; it keeps running. Answer with terminal_send ${answers}${secret}, then terminal_wait {"session":${ref},"for":"completion"}; or interrupt it with terminal_send {"session":${ref},"keys":["C-c"]}.`;
}
