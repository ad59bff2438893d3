// Typing a message into an agent's TUI so that it arrives whole and is submitted.
//
// TUIs (Claude Code, Codex, REPLs) swallow an Enter that arrives while they are still handling
// a paste. So: bracketed paste (when the program asked for it), wait for the echo to settle,
// Enter, then verify the program took it — the screen changed after the Enter and the text is
// no longer sitting on the cursor line — and press Enter once more if not. `delivered` says
// what was verified, never what was hoped.
import type { TerminalSession } from "../../terminal/session.js";
import { watchSession } from "../../terminal/watch.js";
import { PASTE_END, PASTE_START, settleOutput } from "../input.js";

/** The program's echo of a paste is over once output is quiet this long. */
const SETTLE_QUIET_MS = 40;
/** A program that never echoes (busy, or reads without echo) gets at most this long. */
const SETTLE_MAX_MS = 1000;
/** After Enter, a program that accepted the input reacts (clears/redraws) within this. */
const ACCEPT_MAX_MS = 600;

export interface DeliveryResult {
  delivered: boolean;
  /** Enter presses it took (0 when not submitting). */
  attempts: number;
  method: "paste" | "typed";
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

function settle(session: TerminalSession, since: number, maxMs: number): Promise<boolean> {
  return settleOutput(session, since, SETTLE_QUIET_MS, maxMs);
}

/**
 * An integrated shell at its prompt reads input in order and says when it starts a command
 * (OSC 133 C) or comes back to its prompt: no quiet windows needed to know it took the line.
 */
async function shellTookLine(session: TerminalSession, mark: number, promptBefore: number): Promise<boolean> {
  const r = await watchSession(
    session,
    () => (session.commands.some((c) => c.startedAt >= mark) || session.lastPromptEnd > promptBefore ? true : undefined),
    { timeoutMs: ACCEPT_MAX_MS },
  ).catch(() => "timeout" as const);
  return r === true;
}

export async function deliverText(session: TerminalSession, text: string, submit: boolean): Promise<DeliveryResult> {
  await session.screen.settled();
  const paste = session.screen.bracketedPaste;
  const body = text.replace(/\r?\n/g, "\r");
  const before = Date.now();
  const shellAtPrompt = session.integrated && session.phase === "prompt";
  await session.write(Buffer.from(paste ? PASTE_START + body + PASTE_END : body, "utf8"));
  // Echoed: the output settled after the write, or (a slow, loaded pane that never went quiet
  // in time) the text's tail is on the input line now anyway.
  const echoed = shellAtPrompt && submit ? true : (await settle(session, before, SETTLE_MAX_MS)) || (tailOf(text) !== "" && cursorLine(session).includes(tailOf(text)));
  const method = paste ? "paste" : "typed";
  if (!submit) return { delivered: echoed, attempts: 0, method, ...(echoed ? {} : { note: "no echo of the text within 1 s" }) };

  const tail = tailOf(text);
  let attempts = 0;
  for (; attempts < 2; ) {
    const mark = Date.now();
    const promptBefore = session.lastPromptEnd;
    await session.write(Buffer.from("\r"));
    attempts++;
    if (shellAtPrompt && (await shellTookLine(session, mark, promptBefore))) return { delivered: true, attempts, method };
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
