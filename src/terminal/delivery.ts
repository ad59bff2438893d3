// Typing a message into an agent's TUI so that it arrives whole and is submitted.
//
// TUIs (Claude Code, Codex, REPLs) swallow an Enter that arrives while they are still handling
// a paste. So: bracketed paste (when the program asked for it), wait for the echo to settle,
// Enter, then verify the program took it — the screen changed after the Enter and the text is
// no longer sitting on the cursor line — and press Enter once more if not. `delivered` says
// what was verified, never what was hoped. The typing itself is terminal_send's (typing.ts).
import type { TerminalSession } from "./session.js";
import { PASTE_SETTLE_MAX_MS, pressEnter, settleAfterPaste, shellTookLine, writeText, type TypingMethod } from "./typing.js";
import { watchSession } from "./watch.js";

/** After Enter, a program that accepted the input reacts (clears/redraws) within this. */
const ACCEPT_MAX_MS = 600;

export interface DeliveryResult {
  delivered: boolean;
  /** Enter presses it took (0 when not submitting). */
  attempts: number;
  method: TypingMethod;
  note?: string;
  /** Not verified, but the screen changed after Enter and the text left the input line: retyping could duplicate it. */
  left?: boolean;
}

function cursorLine(session: TerminalSession): string {
  const snap = session.screen.snapshot();
  return snap.lines[snap.cursor.row] ?? "";
}

/** The last bit of the text that would stay visible on the input line if Enter were swallowed. */
function tailOf(text: string): string {
  const last = text.split(/\r?\n/).filter((l) => l.trim() !== "").pop() ?? "";
  return last.trim().slice(-16);
}

export async function deliverText(session: TerminalSession, text: string, submit: boolean): Promise<DeliveryResult> {
  const shellAtPrompt = session.integrated && session.phase === "prompt";
  const { method, outputBefore } = await writeText(session, text, "always");
  // Echoed: the output settled after the write, or (a slow, loaded pane that never went quiet
  // in time) the text's tail is on the input line now anyway.
  const echoed = shellAtPrompt && submit ? true : (await settleAfterPaste(session, outputBefore)) || (tailOf(text) !== "" && cursorLine(session).includes(tailOf(text)));
  if (!submit) return { delivered: echoed, attempts: 0, method, ...(echoed ? {} : { note: `no echo of the text within ${PASTE_SETTLE_MAX_MS / 1000} s` }) };

  const tail = tailOf(text);
  let attempts = 0;
  for (; attempts < 2; ) {
    const mark = Date.now();
    const promptBefore = session.lastPromptEnd;
    await pressEnter(session);
    attempts++;
    if (shellAtPrompt && (await shellTookLine(session, promptBefore, ACCEPT_MAX_MS))) return { delivered: true, attempts, method };
    const took = await tookLine(session, mark, tail);
    if (!session.alive) return { delivered: false, attempts, method, note: "the program exited" };
    // Taken: the text was echoed where input goes, and after Enter it left the input line.
    if (took && echoed) return { delivered: true, attempts, method };
    if (took) return { delivered: false, left: true, attempts, method, note: "the screen changed after Enter, but the text was never echoed before it; the program may be busy" };
  }
  return {
    delivered: false,
    attempts,
    method,
    note: "Enter pressed twice but the text still sits on the input line (or the screen did not change); the program may be busy",
  };
}

/**
 * After Enter, the program took the line once its screen changed and the text is no longer on
 * the cursor line. Judged on each screen change, not after a quiet window: a program that
 * starts a spinner at once is never quiet, and that is the sign it took the line.
 */
async function tookLine(session: TerminalSession, mark: number, tail: string): Promise<boolean> {
  const r = await watchSession(
    session,
    () => (session.lastOutputAt >= mark && (tail === "" || !cursorLine(session).includes(tail)) ? true : undefined),
    { timeoutMs: ACCEPT_MAX_MS },
  ).catch(() => "timeout" as const);
  if (r === true) await session.screen.settled();
  return r === true;
}
