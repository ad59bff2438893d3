// Typing a message into an agent's TUI so that it arrives whole and is submitted.
//
// TUIs (Claude Code, Codex, REPLs) swallow an Enter that arrives while they are still handling
// a paste, and drop a paste that comes while a dialog has the keyboard (or while the input box
// is being redrawn). So: bracketed paste (when the program asked for it), wait until the text
// shows where input goes (its tail on the cursor line, or the TUI's placeholder for a long
// paste) and the echo settles, Enter, then verify the program took it — the screen changed
// after the Enter and the text is no longer on the cursor line — and press Enter once more if
// not. Text that never showed gets no Enter at all: there the Enter would pick a dialog's
// option, and the text was not taken, so the caller may type it again later. `delivered` says
// what was verified, never what was hoped. A program whose hooks report each prompt it takes
// (Claude Code's and Codex's UserPromptSubmit: `taken`) has the last word: its text is
// delivered once that report names it; the screen is the fallback where no hook reports.
// The typing itself is terminal_send's (typing.ts).
import { cancelInputLine, inputLineHasText } from "./prompt-line.js";
import { literalText, type LiteralText } from "../model/literal-text.js";
import type { TerminalSession } from "../session/session.js";
import { PASTE_SETTLE_QUIET_MS, expectTypedCommand, pressEnter, settleOutput, shellTookLine, writeText, type TypingMethod } from "./typing.js";
import { watchSession } from "../waits/watch.js";

/**
 * After the first Enter, a program that accepted the input reacts (clears/redraws) within
 * this; one that has not may have swallowed it (still handling the paste), so Enter again.
 */
const ACCEPT_MAX_MS = 600;
/**
 * A program taking the text shows it where input goes within this. Generous: on a loaded
 * machine Claude Code took over 2 s to draw a paste into its input box, and a text that shows
 * after we gave up sits there unsubmitted.
 */
export const ECHO_MAX_MS = 5000;
/** A text this long already on the input line is ours from an earlier try, not a coincidence. */
const RESUME_MIN_CHARS = 12;

export interface DeliveryResult {
  delivered: boolean;
  /** Who said the text was taken: the program's own hook, or the screen (the text left the input line). */
  confirmedBy?: "hook" | "screen";
  /**
   * When the program was first seen taking the text (the screen or its report), where this
   * call pressed the Enter that did it: its turn started then, however long the report took
   * to confirm it (a wait of seconds must not move the turn's start past its end).
   */
  takenAt?: number;
  /** When this call pressed the Enter the program took: the program's turn (and its hooks) come after it. */
  enteredAt?: number;
  /** Enter presses it took (0 when not submitting, or when the text never showed). */
  attempts: number;
  method: TypingMethod;
  note?: string;
}

/**
 * What a TUI shows in its input box instead of a long paste: Claude Code "[Pasted text #1 +12
 * lines]", Codex "[Pasted Content 1234 chars]".
 */
const PASTE_PLACEHOLDER = /\[Pasted (?:text|Content)\b[^\]]*\]/;

function cursorLines(session: TerminalSession): { line: string; above: string } {
  const snap = session.screen.snapshot();
  return { line: snap.lines[snap.cursor.row] ?? "", above: snap.lines[snap.cursor.row - 1] ?? "" };
}

/** The last bit of the text that would stay visible on the input line if Enter were swallowed. */
function tailOf(text: string): string {
  const last = text.split(/\r?\n/).filter((l) => l.trim() !== "").pop() ?? "";
  return last.trim().slice(-16);
}

const compact = (s: string) => s.replace(/\s+/g, "");

/**
 * The typed text sits where input goes: its tail on the cursor line (or running onto it from
 * the line above, where a long input wrapped), or the TUI's placeholder for a paste.
 */
function inputShows(session: TerminalSession, tail: string): boolean {
  const { line, above } = cursorLines(session);
  if (PASTE_PLACEHOLDER.test(line)) return true;
  const t = compact(tail);
  if (t === "") return false;
  return compact(line).includes(t) || (compact(above + line).includes(t) && !compact(above).includes(t));
}

/**
 * A text typed before (by a process that died before the program took it) still waits where
 * input goes, long enough to be ours and not a coincidence: pressing Enter is all it needs.
 */
export function pendingOnInputLine(session: TerminalSession, text: string): boolean {
  return compact(text).length >= RESUME_MIN_CHARS && inputShows(session, tailOf(text));
}

/** A tail this long may be matched loosely (see echoShows): a short one would match by chance. */
const LOOSE_MIN_CHARS = 10;

/** `needle`'s characters appear in `hay` in order (other characters between them allowed). */
function inOrder(needle: string, hay: string): boolean {
  let i = 0;
  for (const c of hay) if (c === needle[i] && ++i === needle.length) return true;
  return needle.length === 0;
}

/**
 * The echo, judged a little more loosely than inputShows: the tail's characters in order on
 * the cursor line. A pane adopted after a restart may have a screen model whose cursor row is
 * off by a few lines; the program's redraw of its input box then lands on another line of the
 * model, interleaved with what was there ("charlie sayeboth(words+again" for "… both words
 * again"). A dialog redrawing itself does not put the text's characters there in order.
 */
function echoShows(session: TerminalSession, tail: string): boolean {
  if (inputShows(session, tail)) return true;
  const t = compact(tail);
  return t.length >= LOOSE_MIN_CHARS && inOrder(t, compact(cursorLines(session).line));
}

/** Waits (on screen changes) until the text shows where input goes; false after ECHO_MAX_MS. */
async function echoSeen(session: TerminalSession, tail: string): Promise<boolean> {
  const r = await watchSession(session, () => (echoShows(session, tail) ? true : undefined), { timeoutMs: ECHO_MAX_MS }).catch(() => "timeout" as const);
  return r === true;
}

export interface DeliveryOptions {
  /**
   * The text was typed before and did not show in time (or a process that died typed it); if
   * it shows on the input line now (the program drew it late), it is not typed again, only submitted.
   */
  retry?: boolean;
  /**
   * Enter was pressed for this text before (by a process that died before it could record the
   * outcome): it is submitted if it still shows on the input line, and never typed again (the
   * program took it when it no longer shows).
   */
  entered?: boolean;
  /** Called just before the first Enter (the caller records that the text may now be taken). */
  onEnter?: () => void;
  /** The program's own report that it took the text, where it makes one. */
  taken?: TakenReport;
}

/** The program's word on a text submitted at `since` (its UserPromptSubmit hook, through the hive store). */
export interface TakenReport {
  /** The program reported taking the text at `since` or later. */
  reported(since: number): boolean;
  /**
   * Its hooks are known to run (one reported in this launch): a text it does not report is not
   * taken. When unknown, the screen decides once the report is not in within HOOK_UNKNOWN_MS.
   */
  hooksRun(): boolean | "unknown";
  /** What reported: named in the result's note. */
  label: string;
  /**
   * No hook of the launch has reported, and none reported this text within HOOK_UNKNOWN_MS
   * though the screen says it was taken: the hooks count as off from now until one reports,
   * so the next texts are judged on screen at once instead of each waiting HOOK_UNKNOWN_MS.
   */
  silent?(): void;
}

/**
 * How long a program whose hooks run gets to report a text after Enter: the hook's own timeout
 * (10 s; the program waits for it, and a hook process took up to 3.4 s to start at load 13).
 */
export const HOOK_REPORT_MAX_MS = 10_000;
/** When no hook of the launch has reported yet (hooks may be off): a hook's usual start, then the screen decides. */
export const HOOK_UNKNOWN_MS = 4000;
/** The report is written by the hook's process into the store: looked for this often (no event crosses processes here). */
const REPORT_POLL_MS = 50;

export function deliverText(session: TerminalSession, text: string, submit: boolean, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  return deliverLiteral(session, literalText(text).text, submit, options);
}

/** deliverText for a text made literal where it entered (the gate judged that text): not converted again. */
export async function deliverLiteral(session: TerminalSession, text: LiteralText, submit: boolean, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  const shellAtPrompt = session.integrated && session.phase === "prompt";
  const tail = tailOf(text);
  const before: TypingMethod = session.screen.bracketedPaste ? "paste" : "typed";
  if ((options.retry || options.entered) && submit && compact(text).length >= RESUME_MIN_CHARS && inputShows(session, tail)) {
    return await submitShown(session, tail, before, false, options.onEnter, options.taken);
  }
  if (options.entered && submit) return { delivered: true, attempts: 0, method: before, note: "Enter was pressed for it before, and it no longer shows where input goes: the program took it" };
  // Text already on the shell's input line (a person's, or a message a killed process had half
  // typed) would be glued onto this one and run with it: cancelled first, as terminal_run does.
  if (shellAtPrompt && submit && (await inputLineHasText(session))) await cancelInputLine(session);
  expectTypedCommand(session, text, shellAtPrompt && submit);
  const { method, outputBefore } = await writeText(session, text, "always");
  // Echoed: the text shows where input goes. An integrated shell at its prompt is judged by
  // the shell itself after Enter (its line editor may redraw the line in its own way).
  const echoed = (shellAtPrompt && submit) || tail === "" ? true : await echoSeen(session, tail);
  // The program is still drawing the rest of a long paste: Enter once it is quiet. (A shell's
  // line editor reads the Enter after the text whatever it still draws: no quiet window, which
  // cost every message to a shell 40 ms.)
  if (echoed && !(shellAtPrompt && submit)) await settleOutput(session, outputBefore, PASTE_SETTLE_QUIET_MS, ECHO_MAX_MS);
  if (!echoed) {
    return {
      delivered: false, attempts: 0, method,
      note: `the text did not show where input goes within ${ECHO_MAX_MS / 1000} s (a dialog or a busy program has the keyboard)${submit ? "; Enter not pressed" : ""}`,
    };
  }
  if (!submit) return { delivered: true, attempts: 0, method };
  return await submitShown(session, tail, method, shellAtPrompt, options.onEnter, options.taken);
}

/** Presses Enter for a text that shows where input goes, and verifies the program took it. */
async function submitShown(session: TerminalSession, tail: string, method: TypingMethod, shellAtPrompt: boolean, onEnter?: () => void, taken?: TakenReport): Promise<DeliveryResult> {
  let attempts = 0;
  onEnter?.();
  // The program's report counts from the first Enter: a busy program takes that one late, and
  // its hook's report between the first look's end and the second Enter is still of this text
  // (counted from the second, it was missed and the taken text called not delivered).
  const firstMark = Date.now();
  for (; attempts < 2; ) {
    const mark = Date.now();
    const promptBefore = session.lastPromptEnd;
    await pressEnter(session);
    attempts++;
    // The last Enter gets the echo's patience: a busy program may take it late, and "not
    // delivered" for a text it then takes invites the caller to send it twice.
    const patience = attempts === 2 ? ECHO_MAX_MS : ACCEPT_MAX_MS;
    if (shellAtPrompt && (await shellTookLine(session, promptBefore, patience))) return { delivered: true, attempts, method, takenAt: Date.now(), enteredAt: mark };
    const took = await tookLine(session, mark, tail, patience, taken ? () => taken.reported(firstMark) : undefined);
    if (!session.alive) return { delivered: false, attempts, method, note: "the program exited" };
    const takenAt = Date.now();
    if (took && taken) return await confirmed(taken, firstMark, mark, takenAt, attempts, method);
    // Taken: the text showed where input goes, and after Enter it left the input line.
    if (took) return { delivered: true, confirmedBy: "screen", attempts, method, takenAt, enteredAt: mark };
  }
  return {
    delivered: false,
    attempts,
    method,
    note: `Enter pressed twice but the text still sits on the input line ${ECHO_MAX_MS / 1000} s later (or the screen did not change); the program may be busy`,
  };
}

/**
 * After Enter, the program took the line once its screen changed and the text is no longer on
 * the cursor line. Judged on each screen change, not after a quiet window: a program that
 * starts a spinner at once is never quiet, and that is the sign it took the line.
 */
async function tookLine(session: TerminalSession, mark: number, tail: string, maxMs: number, reported?: () => boolean): Promise<boolean> {
  const r = await watchSession(
    session,
    () => ((session.lastOutputAt >= mark && !inputShows(session, tail)) || reported?.() ? true : undefined),
    { timeoutMs: maxMs },
  ).catch(() => "timeout" as const);
  // A report that came after the last screen change has no event of its own: looked at once more.
  const took = r === true || (r === "timeout" && reported?.() === true);
  if (took) await session.screen.settled();
  return took;
}

/**
 * The screen says the program took the text (or its report came already): delivered once the
 * program's own report names it. Where its hooks are known to run, no report means not taken
 * (the text went elsewhere: a dialog, a redraw that dropped it); where that is not known yet,
 * the screen's word stands after HOOK_UNKNOWN_MS. Reports count from `since` (the first Enter).
 */
async function confirmed(taken: TakenReport, since: number, mark: number, takenAt: number, attempts: number, method: TypingMethod): Promise<DeliveryResult> {
  const known = taken.hooksRun();
  const deadline = mark + (known === true ? HOOK_REPORT_MAX_MS : HOOK_UNKNOWN_MS);
  for (;;) {
    if (taken.reported(since)) return { delivered: true, confirmedBy: "hook", attempts, method, takenAt, enteredAt: mark };
    if (known === false || Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, REPORT_POLL_MS));
  }
  if (known === true) {
    return { delivered: false, attempts, method, note: `the text left the input line, but ${taken.label} did not report it within ${HOOK_REPORT_MAX_MS / 1000} s: the program did not take it` };
  }
  if (known === "unknown") taken.silent?.();
  return { delivered: true, confirmedBy: "screen", attempts, method, takenAt, enteredAt: mark, note: `judged on screen: ${taken.label} ${known === false ? "does not run (hooks off)" : `did not report it within ${HOOK_UNKNOWN_MS / 1000} s, and no hook of this agent has reported yet`}` };
}
