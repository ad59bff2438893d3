// The integrated shell's input line, kept clean around a run: a run is typed on an empty line
// (text a person left at the prompt would be glued onto the command), and a line the shell
// could not finish (an open quote or block, a trailing backslash) is cancelled so the next run
// is not typed into it. Both use Ctrl-C, which every integrated shell takes the same way in
// emacs and vi modes alike (insert or command): the line is dropped, nothing runs, and a new
// prompt (OSC 133 A/B) is drawn, starting in insert mode.
import { stripAnsi } from "../../util/ansi.js";
import type { TerminalSession } from "../session/session.js";
import { watchSession } from "../waits/watch.js";

/**
 * How long a shell may take to draw its new prompt after each Ctrl-C. bash's readline loses a
 * Ctrl-C that comes while it waits to tell a lone Escape from an escape sequence (vi mode: a
 * person pressed Escape under half a second before; keyseq-timeout), and leaves one pending
 * that comes while it is not reading (see newPromptSince): the line stays and no new prompt
 * comes. The second Ctrl-C, after that wait is over, is taken.
 */
const CANCEL_PROMPT_WAITS_MS = [1_000, 2_000] as const;

/**
 * Something is on the shell's input line: printable text echoed since the prompt ended, or
 * the shell waiting for the rest of an unfinished line. (A right-hand prompt counts too: the
 * cost is one needless Ctrl-C, never text glued onto a command.)
 */
export async function inputLineHasText(session: TerminalSession): Promise<boolean> {
  if (!session.integrated || session.phase !== "prompt") return false;
  if (session.awaitingContinuation) return true;
  if (session.lastPromptEnd >= 0 && session.lastPromptEnd >= session.transcript.start) {
    // Lines a program printed at the prompt (a background job's) are not on the input line.
    const echoed = stripAnsi(session.transcript.slice(Math.max(session.lastPromptEnd, session.inputLineFrom ?? -1)).text);
    // Printable characters only: a shell's line editor also moves the cursor and erases (\b, \r).
    return /[^\s\x00-\x1f\x7f]/.test(echoed);
  }
  // Where the prompt ended is not known (a session this process adopted at its prompt, or whose
  // prompt's output was trimmed away): the cursor's line tells. An empty line ends with the
  // prompt's last sign and the cursor after it; typed text, or a cursor moved into it (vi's
  // command mode sits on the last character), does not. An unusual prompt costs a Ctrl-C.
  await session.screen.settled();
  const { lines, cursor } = session.screen.snapshot();
  const line = lines[cursor.row] ?? "";
  const beforeCursor = line.slice(0, cursor.col);
  const afterCursor = line.slice(cursor.col);
  return afterCursor.trim() !== "" || !EMPTY_PROMPT_END.test(beforeCursor);
}

/** How a prompt line ends when nothing is typed on it: a prompt sign, then blanks. */
const EMPTY_PROMPT_END = /[$#%>❯»λ→]\s*$/;

/** Where the session stood before a Ctrl-C: a prompt drawn past it answers that key. */
interface InterruptMark {
  promptEnd: number;
  outputEnd: number;
}

/**
 * The shell started a new prompt after the Ctrl-C. For bash that takes its prompt hook having
 * run (its folder report, OSC 7, comes before the prompt): when the SIGINT comes while readline
 * is not waiting for a key, readline only redraws the old prompt and line (marks and all) and
 * bash leaves the interrupt pending until the next key arrives — which it drops ("cho" for
 * "echo" typed next). Seen 7 in 1,500 Ctrl-Cs right after typed text; a second Ctrl-C ends it.
 */
function newPromptSince(session: TerminalSession, mark: InterruptMark): boolean {
  if (session.phase !== "prompt" || session.lastPromptEnd <= mark.promptEnd) return false;
  // (A bash that never reported its folder has lost its prompt hook: its prompt is all there is.)
  return session.meta.shell !== "bash" || session.lastCwdReportEnd < 0 || session.lastCwdReportEnd > mark.outputEnd;
}

/**
 * Cancels what is on the shell's input line with Ctrl-C and waits (bounded) for the new prompt.
 * Resolves true when the shell drew it. `press` sends the first Ctrl-C (terminal_send's keys
 * go through the input policy); a Ctrl-C the shell did not answer is sent again.
 */
export async function cancelInputLine(session: TerminalSession, press: () => Promise<void> = () => session.keys(["C-c"])): Promise<boolean> {
  for (const [attempt, waitMs] of CANCEL_PROMPT_WAITS_MS.entries()) {
    if (!session.alive) return false;
    const mark = { promptEnd: session.lastPromptEnd, outputEnd: session.transcript.end };
    await (attempt === 0 ? press() : session.keys(["C-c"]));
    const drawn = await watchSession(session, () => (newPromptSince(session, mark) ? true : undefined), { timeoutMs: waitMs }).catch(() => "timeout" as const);
    if (drawn === true) return true;
  }
  return false;
}
