// A statement typed into a REPL ends as a person ends it. Python reads a compound statement (a
// `for`, an `if`, a `def`) until an empty line: a block typed without one leaves it waiting at
// `... `, and the next run's text is read as more of that block (a SyntaxError, or code run in
// the loop). So when the REPL shows that prompt after the last typed line, the run types the
// empty line; a REPL still at its continuation prompt after that (an open bracket or string, a
// statement without its `;`) has not run it, and the run cancels it and says `incomplete`.
import { blankLineEndsBlock, matchContinuationPrompt, matchNestedPrompt } from "../model/prompts.js";
import type { TerminalSession } from "../session/session.js";
import { typeText } from "./typing.js";
import { watchSession } from "../waits/watch.js";

/**
 * How long a REPL may take to draw its own prompt again after Ctrl-C. It ends as soon as the
 * prompt shows; 2 s was once missed by python3 on a loaded 2-core machine.
 */
const CANCEL_PROMPT_WAIT_MS = 5_000;

/** How long the REPL may take to draw its continuation prompt after the echo of the last line. */
const CONTINUATION_PROMPT_WAIT_MS = 1_000;

/** Types the empty line that ends the block, when the continuation prompt shown takes one; true when it did. */
export async function closeBlock(session: TerminalSession): Promise<boolean> {
  // The run saw the continuation prompt in the output; the screen can still be a step behind it
  // (the last line's echo drawn, its fresh `... ` not yet): under load a single look read the
  // echo and left the block open.
  const shown = await watchSession(
    session,
    async () => {
      if (!session.alive) return false;
      await session.screen.settled();
      return blankLineEndsBlock(session.screen.cursorLinePrefix()) ? true : undefined;
    },
    { timeoutMs: CONTINUATION_PROMPT_WAIT_MS },
  ).catch(() => false);
  if (shown !== true) return false;
  await typeText(session, "", true);
  return true;
}

/**
 * Whether the text's last line opens a block (python's `while True:`, `def f(x):`) that no line
 * of its body follows: the empty line that ends a block would end this one empty (an
 * IndentationError in the trial), so such a statement is incomplete as it stands.
 */
export function opensBlockWithoutBody(text: string): boolean {
  const last = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== "").at(-1);
  return last !== undefined && /:\s*(?:#.*)?$/.test(last);
}

/**
 * Drops what the REPL holds of an unfinished statement (Ctrl-C: python, node, psql and sqlite3
 * discard their input buffer), so the next run starts at its own prompt. Resolves true once
 * that prompt shows again.
 */
export async function cancelReplInput(session: TerminalSession): Promise<boolean> {
  const before = session.transcript.end;
  await session.keys(["C-c"]);
  const back = await watchSession(
    session,
    async () => {
      if (!session.alive) return false;
      if (session.transcript.end <= before) return undefined;
      await session.screen.settled();
      const line = session.screen.cursorLinePrefix();
      return matchNestedPrompt(line) && !matchContinuationPrompt(line) ? true : undefined;
    },
    { timeoutMs: CANCEL_PROMPT_WAIT_MS },
  ).catch(() => false);
  return back === true;
}

export function replIncompleteHint(session: TerminalSession, prompt: string | undefined, closed: boolean, cancelled: boolean): string {
  const ref = JSON.stringify(session.name);
  const what = `the program (${prompt ?? "a REPL"}) waits at its continuation prompt for more of the last statement (an open bracket or string, a block without its body${closed ? "; the empty line that ends a block was typed" : ""}), so that statement did not run.`;
  return cancelled
    ? `${what} It was cancelled (Ctrl-C) and the program is back at its prompt: send the whole statement in one terminal_run.`
    : `${what} It did not come back to its prompt after Ctrl-C: see terminal_read {"session":${ref},"mode":"screen"}.`;
}
