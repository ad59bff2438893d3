// "working" needs the program's own evidence. An agent reported working by a hook (Claude Code's
// UserPromptSubmit) or by a message termhive typed holds that status against the screen's idle
// input box, which Claude Code shows during its turns too. A dialog no profile rule knows (Claude
// Code 2.1.332's "Auto mode can't check actions in this session … ❯ No / Yes" behind a gateway
// without safety verdicts; the next release's new ones) fires no hook: without this rule the
// agent would read as working for as long as the dialog waits for a person.
//
// So: once the screen has shown none of the profile's working signs (its "working" rules:
// Claude Code's spinner line "esc to interrupt", Codex's "Working" line) for NO_WORK_SIGN_MS and
// is still, the held working gives way to waiting_for_input, its detail the screen's question
// lines. Pure: the caller passes what it knows.
import type { AgentRecord } from "../store/agents.js";
import { screenQuestion, type DetectedStatus } from "../programs/detect.js";
import type { AgentProfile } from "../programs/profiles.js";
import { screenMayReplace } from "./precedence.js";

/**
 * How long a working agent's screen must show no working sign, and be still, before it counts
 * as a question: longer than Claude Code's Stop hook takes to report a turn's end on a loaded
 * machine (up to 3.4 s at load 13), so an ended turn is not taken for a question meanwhile.
 */
export const NO_WORK_SIGN_MS = 5000;
export const UNKNOWN_LABEL = "unknown dialog (no sign of work on screen)";

/** An empty input line (the prompt character alone): the program waits for a new message, not for an answer. */
const EMPTY_INPUT = /^[\s│]*[>❯›▌]\s*│?\s*$/m;

export type UnknownVerdict = { kind: "none" } | { kind: "pending"; inMs: number } | { kind: "keep" } | { kind: "question"; detected: DetectedStatus };

export function unknownQuestion(
  profile: AgentProfile,
  agent: Pick<AgentRecord, "status" | "statusSource" | "updatedAt"> & Partial<Pick<AgentRecord, "statusDetail">>,
  detected: DetectedStatus,
  screen: { lines: readonly string[]; stillMs: number },
): UnknownVerdict {
  const signs = profile.rules.filter((r) => r.status === "working");
  if (signs.length === 0) return { kind: "none" };
  const shownUnknown = agent.status === "waiting_for_input" && (agent.statusDetail ?? "").startsWith(UNKNOWN_LABEL);
  const heldWorking = agent.status === "working" && (agent.statusSource === "hook" || agent.statusSource === "typed") && !screenMayReplace(agent, detected);
  if (!shownUnknown && !heldWorking) return { kind: "none" };
  // What a rule knows (a known dialog with its exact question, a spinner, an error, an interrupt) is said as it is.
  if (detected.by === "rule" && (detected.status !== "idle" || detected.overridesHooks)) return { kind: "none" };
  const text = screen.lines.join("\n");
  const nearBottom = screen.lines.filter((l) => l.trim() !== "").slice(-6).join("\n");
  if (signs.some((r) => r.pattern.test(text)) || EMPTY_INPUT.test(nearBottom)) return { kind: "none" };
  if (screen.stillMs < NO_WORK_SIGN_MS) return shownUnknown ? { kind: "keep" } : { kind: "pending", inMs: NO_WORK_SIGN_MS - screen.stillMs };
  const { detail, question } = screenQuestion(screen.lines, UNKNOWN_LABEL);
  return { kind: "question", detected: { status: "waiting_for_input", detail, by: "rule", question } };
}
