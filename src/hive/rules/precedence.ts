// Which status source wins. Three sources write an agent's status: the screen (profile
// detection, a guess re-made on every screen change), the agent itself (`termhive status`,
// OSC 1337) and the agent's hooks (exact, at the moments the program reports). A guess must
// not overwrite an exact report while that report is fresh; it may when the report says
// nothing about what happened since.
//
// Hooks (source "hook"):
//  - while the screen agrees on the status, the hook's record (and source) stays: no churn —
//    except a dialog's question the hook did not describe (its detail names a tool at most):
//    the screen's question, with the digest hive_answer checks, replaces the hook's waiting;
//  - for HOOK_FRESH_MS nothing on screen replaces it (the screen may lag the hook);
//  - a detection without a matching rule ("output is changing", "quiet for …") never replaces it;
//  - a rule-matched waiting_for_input replaces it at once, fresh or not: a dialog on screen is
//    where input goes now, whatever a hook said a moment before (Claude Code's SessionStart
//    fires while its start-up dialog is up; a Stop can come just before a question);
//  - a rule-matched error replaces it once it is no longer fresh (a person must look);
//  - a rule-matched working replaces a hook's idle once that is no longer fresh: a hook that
//    has not fired yet (Codex's notify, where its hooks are off, reports only turn ends) never hides a turn the screen shows;
//  - a hook's waiting_for_input is replaced by the rule-matched screen: no hook reports that a
//    permission dialog was answered. At once when the screen showed the dialog (from shortly
//    before the hook on) and no longer does (`dialogSeen`), else after HOOK_FRESH_MS;
//  - a rule marked overridesHooks replaces it: a state the hooks never report (Claude Code
//    runs no Stop hook when a person interrupts the turn);
//  - after HOOK_HOLD_MS without a hook, a rule-matched screen replaces it: a missed hook
//    (settings overridden, hook failed) must not freeze the status for ever. With hooks that
//    work, the screen agrees with them by then (Claude's spinner during a long turn), so this
//    changes nothing.
// Self reports (source "self"), and the working status a message termhive typed and the
// program took (source "typed": Claude Code runs its UserPromptSubmit hook before it shows a
// spinner, and its input box alone looks idle): held SELF_HOLD_MS against the screen, except
// for waiting_for_input and error. A shell that marks its prompt (OSC 133) says itself when the
// typed command ended: back at its prompt after running it (`turnEnded`), its screen is the
// truth at once, and a quick command is idle in a fraction of a second, not after the hold.
import { clipDetail, type AgentRecord } from "../store/agents.js";
import type { DetectedStatus } from "../programs/detect.js";
import type { AgentProfile } from "../programs/profiles.js";

export const HOOK_FRESH_MS = 2000;
export const HOOK_HOLD_MS = 30_000;
export const SELF_HOLD_MS = 5000;

const needsPerson = (s: string) => s === "waiting_for_input" || s === "error";

/**
 * How long a rule-matched question must have been on screen, still, before it is announced as
 * waiting_for_input: a TUI takes keys for its dialog a moment after it draws it (Claude Code
 * 2.1.332 lost an Enter sent 0–100 ms after its permission dialog showed, took one sent after
 * 200 ms), so "waiting" is said only once a key sent on hearing it is taken.
 */
export const DIALOG_SETTLE_MS = 500;

/**
 * Whether a hook's waiting_for_input is left to the screen: a program whose questions the
 * profile reads on screen (Claude Code runs its PermissionRequest hook before it draws the
 * dialog) is waiting once its question is drawn and still, not when its hook fires. A
 * request held open for hive_answer (`--wait`) is answerable at once and is not left to it.
 */
export function hookWaitingLeftToScreen(profile: AgentProfile | undefined, status: string): boolean {
  return status === "waiting_for_input" && profile !== undefined && profile.rules.some((r) => r.status === "waiting_for_input");
}

/**
 * Whether a screen detection may replace the agent's stored status. `dialogSeen`: the screen
 * showed a waiting_for_input dialog since HOOK_FRESH_MS before the hook reported it (the
 * caller keeps that per agent).
 */
export function screenMayReplace(
  agent: Pick<AgentRecord, "status" | "statusSource" | "updatedAt"> & Partial<Pick<AgentRecord, "statusDetail">>,
  detected: DetectedStatus,
  options: { now?: number; dialogSeen?: boolean; turnEnded?: boolean } = {},
): boolean {
  const age = (options.now ?? Date.now()) - agent.updatedAt;
  if (agent.statusSource === "hook") {
    const newQuestion = detected.question !== undefined && clipDetail(detected.detail) !== agent.statusDetail;
    if ((detected.status === agent.status && !newQuestion) || detected.by !== "rule") return false;
    if (detected.status === "waiting_for_input") return true;
    if (agent.status === "waiting_for_input" && options.dialogSeen) return true;
    if (age < HOOK_FRESH_MS) return false;
    if (needsPerson(detected.status) || agent.status === "waiting_for_input" || detected.overridesHooks) return true;
    if (agent.status === "idle" && detected.status === "working") return true;
    return age >= HOOK_HOLD_MS;
  }
  // A typed message's working stands in until the screen shows the turn: a rule on screen that
  // agrees (the spinner) takes over at once, with its detail.
  if (agent.statusSource === "typed" && (detected.status === agent.status || options.turnEnded) && detected.by === "rule") return true;
  if (agent.statusSource === "self" || agent.statusSource === "typed") return age >= SELF_HOLD_MS || needsPerson(detected.status);
  return true;
}
