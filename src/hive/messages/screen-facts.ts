// What an agent's pane shows right now, for the busy rule (hive/rules/busy-rule.ts). The stored
// status may lag the screen or come from a hook that does not see it: Claude Code's
// SessionStart hook reports idle while its start-up question is up, and its input box is
// redrawn for a moment after a dialog closes. A message typed then is lost in the dialog (or
// its Enter picks an option), so typing asks the screen too, judged by the agent's profile.
import type { AgentRecord, Hive } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";

/**
 * The screen must have been still this long before a queued message is typed: a TUI that
 * just closed a dialog or ended a turn is still redrawing its input box. The same quiet the
 * built-in profiles ask of their input-prompt rules.
 */
export const INPUT_SETTLE_MS = 300;

export interface ScreenFacts {
  /** A dialog, menu or question is on screen (a rule-matched waiting_for_input): input goes there. */
  dialogOnScreen: boolean;
  /** No dialog or running turn on screen, and the screen has been still for INPUT_SETTLE_MS. */
  inputSettled: boolean;
  /** Not settled only because the screen moved recently: worth asking again in this many ms. */
  settlesInMs: number | null;
}

export function screenFacts(hive: Hive, session: TerminalSession | undefined, agent: AgentRecord): ScreenFacts {
  if (!session || !session.alive || session.goneReason) return { dialogOnScreen: false, inputSettled: false, settlesInMs: null };
  const quietMs = Date.now() - session.lastOutputAt;
  let detected;
  try {
    detected = hive.detect(agent, { screenLines: session.screen.printedLines(), quietMs, ready: true });
  } catch {
    return { dialogOnScreen: false, inputSettled: true, settlesInMs: null }; // unknown profile: the stored status alone decides
  }
  const dialogOnScreen = detected.by === "rule" && detected.status === "waiting_for_input";
  // An error line on screen (the last turn's) leaves the input box open: not busy.
  const busyOnScreen = detected.by === "rule" && (detected.status === "waiting_for_input" || detected.status === "working");
  const settled = quietMs >= INPUT_SETTLE_MS;
  return {
    dialogOnScreen,
    inputSettled: !busyOnScreen && settled,
    settlesInMs: !busyOnScreen && !settled ? INPUT_SETTLE_MS - quietMs : null,
  };
}
