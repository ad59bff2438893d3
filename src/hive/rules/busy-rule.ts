// The busy rule: may a message be typed into an agent's pane now, or must it wait in the
// outbox for the agent's next idle moment? One pure function, asked by the cascade
// (hive_message) and by the outbox dispatcher, so the two can never disagree about an agent.
// Facts come from the store (status, turn) and the pane (OSC 133 prompt; what the screen shows
// now, by the agent's profile: live/screen-facts.ts); the rule only judges.

/** Statuses in which a typed message would be dropped or mistaken for an answer. */
const BUSY_STATUSES: ReadonlySet<string> = new Set(["starting", "working", "waiting_for_input"]);

export interface AgentFacts {
  status: string;
  /** A message is being typed to it right now (its turn row says typing). */
  typing: boolean;
  /** A typed message's turn still holds "idle" back (hive/store/turns.ts). */
  holdsIdle: boolean;
  /**
   * The screen shows a dialog now (whatever the stored status says: a hook's idle can arrive
   * while a start-up question is up). Absent: not known, the stored status decides.
   */
  dialogOnScreen?: boolean;
  /** The screen shows the input open and has been still a moment (live/screen-facts.ts). Absent: not known. */
  inputSettled?: boolean;
}

export interface TypingSituation {
  /**
   * "message": a new cascade text (hive_message when: "idle"); "queued": the oldest text in
   * the session's outbox, typed only when every agent there is plainly idle.
   */
  for: "message" | "queued";
  /** The live (not exited) agents in the pane. */
  agents: readonly AgentFacts[];
  /** The session has texts queued already (they go first). Only asked for "message". */
  queuedBefore?: boolean;
  /** The pane's shell says (OSC 133) it is at its prompt: it reads the line now, whatever the screen guess says. */
  atPrompt?: boolean;
}

/** True when a status says the agent is on something (a message typed now could be lost). */
export function isBusyStatus(status: string): boolean {
  return BUSY_STATUSES.has(status);
}

export function mayTypeNow(s: TypingSituation): boolean {
  // A queued text waited already: it is typed only once the input box is really there, and
  // never into a dialog the screen shows, whatever the store says.
  if (s.for === "queued") {
    return s.agents.length > 0 && s.agents.every((a) => a.status === "idle" && !a.holdsIdle && a.dialogOnScreen !== true && a.inputSettled !== false);
  }
  if (s.queuedBefore) return false;
  // A message still being typed goes first, even to a shell at its prompt.
  if (s.agents.some((a) => a.typing && a.holdsIdle)) return false;
  if (s.atPrompt) return true;
  return !s.agents.some((a) => isBusyStatus(a.status) || a.holdsIdle || a.dialogOnScreen === true);
}
