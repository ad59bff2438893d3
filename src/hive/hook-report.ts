// What one report of an agent program's hook does to the hive, whichever way it arrives:
// `termhive hook` in the agent's pane (cli/hook.ts) or, from inside a sandbox, the relay a
// server follows (live/relay-follower.ts).
import type { AgentStatus } from "./store/agents.js";
import type { Hive } from "./index.js";
import { hookWaitingLeftToScreen } from "./rules/precedence.js";
import { hookIsStale } from "./store/turns.js";
import { clipDetail } from "./store/agents.js";
import { summarizeToolInput } from "./programs/permission-asks.js";
import { CONVERSATION_ID } from "./store/launches.js";

/** Which of the program's channels reported: its hooks (the payload names the hook event) or Codex's notify. */
export type HookChannel = "hooks" | "notify";

/** The channel a payload came through; undefined when it says neither (a hand-run `termhive hook`). */
export function hookChannelOf(payload: Record<string, unknown>): HookChannel | undefined {
  if (typeof payload.hook_event_name === "string") return "hooks";
  if (typeof payload.type === "string") return "notify";
  return undefined;
}

export interface HookReport {
  event: string;
  status: AgentStatus;
  detail: string | null;
  /** The turn is over whatever follows (a failed turn's error). */
  endsTurn: boolean;
  /** When the program ran the hook: the hook process's start. */
  firedAt: number;
  channel?: HookChannel;
  /** UserPromptSubmit: the digest of the prompt the program took (prompt-reports.ts). */
  promptDigest?: string;
}

/**
 * Applies `r` to agent `name`'s status; returns why it did not, or null. A Codex whose hooks
 * reported in this launch is not read by its notify: notify is the fallback for a Codex whose
 * hooks are off, and the hooks say more (the turn's start; no title thread's end).
 */
export function applyHookReport(hive: Hive, name: string, r: HookReport): string | null {
  if (r.promptDigest !== undefined) hive.prompts.record(name, r.promptDigest);
  if (r.channel === "hooks") hive.launches.noteHooksRan(name);
  else if (r.channel === "notify") {
    if ((hive.launches.find(name)?.hooksRanAt ?? 0) > 0) return "its hooks report this agent's turns: notify is not read";
    hive.launches.noteHooksOff(name);
  }
  // An end reported for a turn older than the message termhive typed since: not this turn's end.
  if (r.status === "idle" && hookIsStale(hive.turns.get(name), r.firedAt)) return "a turn's end from before the message typed since";
  if (hookWaitingLeftToScreen(hive.profiles.find(hive.agents.get(name).profile), r.status)) return "waiting is read on screen";
  hive.agents.setStatus(name, r.status, { detail: r.detail, source: "hook" });
  if (r.endsTurn) hive.turns.cancel([name]);
  return null;
}

/**
 * Keeps the program's own conversation id from a hook payload for agent_restore (Claude Code's
 * and Codex's hooks: session_id; Codex's notify: thread-id; ids of another shape are not kept).
 * A notify that is not read (the launch's hooks report) names none: Codex runs notify for its
 * title side thread too, whose end can reach termhive after the Stop hook's (on a host, where
 * its thread files cannot be read to tell it apart), and restore then resumed that thread.
 */
export function noteHookConversation(hive: Hive, name: string, payload: Record<string, unknown>): void {
  const id = payload.session_id ?? payload["thread-id"];
  if (typeof id !== "string" || !CONVERSATION_ID.test(id)) return;
  if (hookChannelOf(payload) === "notify" && (hive.launches.find(name)?.hooksRanAt ?? 0) > 0) return;
  hive.launches.noteConversation(name, id);
}

/** How often a waiting PermissionRequest hook reads its row (another process answers it: no event reaches here). */
const ASK_POLL_MS = 100;

/**
 * Holds a permission request open for the hive: records it and the agent's waiting status
 * (with the ask's digest), then waits for a decision until `waitS` passes. Returns Claude
 * Code's PermissionRequest decision JSON when one came: the line the hook prints (in the
 * agent's pane, cli/hook.ts; from a host's pane, its script prints what serve/host-door.ts answers).
 */
export async function holdPermission(hive: Hive, name: string, payload: Record<string, unknown>, waitS: number): Promise<string | null> {
  const tool = typeof payload.tool_name === "string" ? payload.tool_name : "a tool";
  const summary = summarizeToolInput(payload.tool_input);
  const ask = hive.permissionAsks.open(name, tool, summary, waitS * 1000);
  hive.agents.setStatus(name, "waiting_for_input", { detail: clipDetail(`PermissionRequest hook: ${tool}: ${summary}`), source: "hook", question: ask.digest });
  const deadline = Date.now() + waitS * 1000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, ASK_POLL_MS));
    const now = hive.permissionAsks.get(ask.id);
    if (!now) return null; // superseded by a newer ask of the same agent
    if (now.decision === null) continue;
    hive.permissionAsks.taken(ask.id);
    const decision = now.decision === "allow" ? { behavior: "allow" } : { behavior: "deny", message: now.message ?? "denied from the termhive hive" };
    return JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } }) + "\n";
  }
  hive.permissionAsks.withdraw(ask.id);
  return null;
}
