// Typing a message into an agent's TUI so that it arrives whole and is submitted.
//
// TUIs (Claude Code, Codex, REPLs) swallow an Enter that arrives while they are still handling
// a paste. So: bracketed paste (when the program asked for it), wait for the echo to settle,
// Enter, then verify the program took it — the screen changed after the Enter and the text is
// no longer sitting on the cursor line — and press Enter once more if not. `delivered` says
// what was verified, never what was hoped.
import type { TerminalSession } from "../../terminal/session.js";
import { watchSession } from "../../terminal/watch.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
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

/** Resolves once output was produced after `since` and then went quiet, or after maxMs. */
async function settle(session: TerminalSession, since: number, maxMs: number): Promise<boolean> {
  const r = await watchSession(
    session,
    () => (session.lastOutputAt > since && Date.now() - session.lastOutputAt >= SETTLE_QUIET_MS ? true : undefined),
    { timeoutMs: maxMs, quietMs: SETTLE_QUIET_MS },
  ).catch(() => "timeout" as const);
  await session.screen.settled();
  return r === true;
}

export async function deliverText(session: TerminalSession, text: string, submit: boolean): Promise<DeliveryResult> {
  await session.screen.settled();
  const paste = session.screen.bracketedPaste;
  const body = text.replace(/\r?\n/g, "\r");
  const before = Date.now();
  await session.write(Buffer.from(paste ? PASTE_START + body + PASTE_END : body, "utf8"));
  const echoed = await settle(session, before, SETTLE_MAX_MS);
  const method = paste ? "paste" : "typed";
  if (!submit) return { delivered: echoed, attempts: 0, method, ...(echoed ? {} : { note: "no echo of the text within 1 s" }) };

  const tail = tailOf(text);
  let attempts = 0;
  for (; attempts < 2; ) {
    const mark = Date.now();
    await session.write(Buffer.from("\r"));
    attempts++;
    const reacted = await settle(session, mark, ACCEPT_MAX_MS);
    if (!session.alive) return { delivered: false, attempts, method, note: "the program exited" };
    const stillThere = tail !== "" && cursorLine(session).includes(tail);
    if (reacted && !stillThere) return { delivered: true, attempts, method };
  }
  return {
    delivered: false,
    attempts,
    method,
    note: "Enter pressed twice but the text still sits on the input line (or the screen did not change); the program may be busy",
  };
}
