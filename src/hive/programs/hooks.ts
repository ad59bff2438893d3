// Status from the agents' own hooks: the program tells termhive what it is doing at the
// moments it knows exactly (a prompt was submitted, the turn ended, a permission dialog is
// open), instead of termhive guessing from the screen.
//
// A profile declares them (JSON format, see profiles.ts):
//
//   "hooks": {
//     "via": "claude-settings",           // how the program is told: see below
//     "events": [ { "event": "UserPromptSubmit", "status": "working" },
//                 { "event": "Notification", "matcher": "permission_prompt", "status": "waiting_for_input" } ]
//   }
//
// via "claude-settings" (Claude Code): agent_spawn writes a settings file
//   { "hooks": { "<event>": [ { "matcher": "…", "hooks": [ { "type": "command", "command": "…" } ] } ] } }
//   and appends `--settings <file>` to the command; Claude Code merges it with the user's own
//   settings. Each hook runs `termhive hook <event> --status <s> --agent <name>` with the
//   hook's JSON payload on stdin.
// via "codex-hooks" (OpenAI Codex CLI 0.169+): appends `-c hooks.<Event>=[…]` and the hooks'
//   trust records (`-c hooks.state={…}`, codex-hooks.ts); each hook runs the same `termhive
//   hook …` with the JSON payload on stdin. Codex's `notify` is appended too (a turn's end →
//   idle) for a Codex whose hooks are off (`[features] hooks = false`, managed hooks only): it
//   is read only while none of the agent's hooks has reported (`termhive hook`).
// via "codex-notify" (OpenAI Codex CLI, notify only): appends `-c notify=[…]`; Codex runs that
//   program after each turn with its JSON payload ({"type": "agent-turn-complete", …}) as the
//   last argument. Codex calls one notify program, so this style takes exactly one event.
//
// `termhive hook` must never stand in the agent's way: it exits 0 when it has nothing to do
// and never exits 2 (a Claude Code hook exiting 2 blocks the prompt or the stop).
import { z } from "zod";
import { joinWords } from "../../util/words.js";
import { AGENT_STATUSES, clipDetail, type AgentStatus } from "../store/agents.js";
import { HiveError } from "../store/errors.js";
import { CODEX_EVENTS_WITHOUT_MATCHER, CODEX_HOOK_EVENTS, codexHookArgs } from "./codex-hooks.js";

export const HOOK_STYLES = ["claude-settings", "codex-hooks", "codex-notify"] as const;
export type HookStyle = (typeof HOOK_STYLES)[number];

const HOOK_STATUSES = AGENT_STATUSES.filter((s) => s !== "starting") as [AgentStatus, ...AgentStatus[]];

export const HooksSchema = z
  .object({
    via: z.enum(HOOK_STYLES),
    events: z
      .array(
        z
          .object({
            event: z.string().regex(/^[A-Za-z][A-Za-z0-9._-]{0,63}$/, "an event name: letters, digits, . _ -"),
            matcher: z.string().min(1).max(200).optional(),
            status: z.enum(HOOK_STATUSES),
            // PermissionRequest (claude-settings) only: the hook holds the request open this
            // long for hive_answer, then lets the program show its own dialog.
            wait_s: z.number().int().min(1).max(600).optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict()
  .superRefine((h, ctx) => {
    if (h.via === "codex-notify" && h.events.length !== 1) {
      ctx.addIssue({ code: "custom", message: "via codex-notify takes exactly one event (Codex runs one notify program)" });
    }
    for (const e of h.events) {
      if (e.wait_s !== undefined && (h.via !== "claude-settings" || e.event !== "PermissionRequest")) {
        ctx.addIssue({ code: "custom", message: `wait_s is for a claude-settings PermissionRequest hook only (not ${e.event})` });
      }
    }
    if (h.via === "codex-notify" && h.events[0]?.matcher !== undefined) {
      ctx.addIssue({ code: "custom", message: "via codex-notify has no matchers" });
    }
    for (const e of h.via === "codex-hooks" ? h.events : []) {
      if (!(CODEX_HOOK_EVENTS as readonly string[]).includes(e.event)) {
        ctx.addIssue({ code: "custom", message: `via codex-hooks: ${e.event} is not a Codex hook event (${CODEX_HOOK_EVENTS.join(", ")})` });
      }
      if (e.matcher !== undefined && CODEX_EVENTS_WITHOUT_MATCHER.includes(e.event)) {
        ctx.addIssue({ code: "custom", message: `via codex-hooks: Codex ignores a matcher on ${e.event}` });
      }
    }
  });

export type ProfileHooks = z.infer<typeof HooksSchema>;

/** What to add to an agent's command line, and the files that must exist before it starts. */
export interface HookLaunch {
  /** Extra arguments, appended to the command (shell-quote them). */
  args: string[];
  files: { path: string; content: string }[];
}

/** Hooks time out after this (seconds): a stuck termhive must not stall a turn for a minute (both programs wait for them). */
const HOOK_TIMEOUT_S = 10;

/** What Codex's notify reports, and the status it means: the turn's end. */
export const CODEX_NOTIFY_EVENT = { event: "agent-turn-complete", status: "idle" } as const;

/**
 * The arguments and files that make the program run `termhive hook …` at its hook moments.
 * `termhive`: the command that runs termhive from the pane (the shim's absolute path).
 * `settingsFile`: where a claude-settings file goes (one per agent); null: none, the settings go inline.
 */
export function hookLaunch(hooks: ProfileHooks, options: { termhive: string; agent: string; settingsFile: string | null }): HookLaunch {
  const command = (event: string, status: string, waitS?: number) =>
    joinWords([options.termhive, "hook", event, "--status", status, "--agent", options.agent, ...(waitS ? ["--wait", String(waitS)] : [])]);
  const notify = (e: { event: string; status: string }) =>
    // A TOML array of basic strings; JSON's string escapes are valid TOML.
    ["-c", `notify=${JSON.stringify([options.termhive, "hook", e.event, "--status", e.status, "--agent", options.agent])}`];
  if (hooks.via === "codex-notify") return { args: notify(hooks.events[0]!), files: [] };
  if (hooks.via === "codex-hooks") {
    const args = codexHookArgs(hooks.events.map((e) => ({ event: e.event, matcher: e.matcher, command: command(e.event, e.status), timeoutS: HOOK_TIMEOUT_S })));
    return { args: [...args, ...notify(CODEX_NOTIFY_EVENT)], files: [] };
  }
  const byEvent: Record<string, { matcher?: string; hooks: { type: "command"; command: string; timeout: number }[] }[]> = {};
  for (const e of hooks.events) {
    (byEvent[e.event] ??= []).push({
      ...(e.matcher !== undefined ? { matcher: e.matcher } : {}),
      // A hook that waits for the hive's answer gets its wait plus the usual margin.
      hooks: [{ type: "command", command: command(e.event, e.status, e.wait_s), timeout: HOOK_TIMEOUT_S + (e.wait_s ?? 0) }],
    });
  }
  // No file (an agent on a host): --settings takes the JSON itself, as Claude Code's does.
  if (options.settingsFile === null) return { args: ["--settings", JSON.stringify({ hooks: byEvent })], files: [] };
  return {
    args: ["--settings", options.settingsFile],
    files: [{ path: options.settingsFile, content: JSON.stringify({ hooks: byEvent }, null, 2) + "\n" }],
  };
}

export type HookOutcome = { status: AgentStatus; detail: string; endsTurn?: true } | { ignored: string };

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

/** Parses a hook payload (Claude Code: stdin; Codex: last argument). Empty → {}; bad JSON → an error. */
export function parseHookPayload(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new HiveError("invalid", `hook payload is not JSON: ${(err as Error).message}`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new HiveError("invalid", "hook payload is not a JSON object");
  return json as Record<string, unknown>;
}

/**
 * The status a hook reports. `status` is what the profile declared for `event`; the payload
 * refines it: a payload naming another event is ignored (a shared notify program), and
 * Claude Code's SessionEnd for `/clear` is not the end of the program (a new session follows).
 * Codex (0.169) runs notify for side threads too (the title it generates for each new task
 * ends ~1 s before the real turn): `isMainThread` says whether a notify's thread-id is the
 * agent's own conversation; any other thread is ignored. Claude Code's SessionStart after a
 * compaction happens inside a turn: not an idle moment.
 */
export function hookOutcome(event: string, status: string, payload: Record<string, unknown>, options: { isMainThread?: (threadId: string) => boolean } = {}): HookOutcome {
  if (!(HOOK_STATUSES as readonly string[]).includes(status)) {
    throw new HiveError("invalid", `hook status ${JSON.stringify(status)}; valid: ${HOOK_STATUSES.join(", ")}`);
  }
  const named = text(payload.hook_event_name) ?? text(payload.type);
  if (named !== undefined && named !== event) return { ignored: `payload is for ${named}, not ${event}` };
  const threadId = text(payload["thread-id"]);
  if (threadId !== undefined && options.isMainThread && !options.isMainThread(threadId)) return { ignored: `thread ${threadId} is not the agent's main thread` };
  if (event === "SessionStart" && text(payload.source) === "compact") return { ignored: "SessionStart after a compaction: the turn goes on" };
  const reason = text(payload.reason);
  if (event === "SessionEnd" && reason === "clear") return { status: "idle", detail: "SessionEnd hook: session cleared" };
  const detail =
    text(payload.message) ??
    (event === "SessionEnd" ? `session ended${reason ? ` (${reason})` : ""}` : undefined) ??
    (event === "Stop" || event === "agent-turn-complete" ? "turn ended" : undefined) ??
    (event === "UserPromptSubmit" ? "prompt submitted" : undefined) ??
    (event === "SessionStart" && text(payload.session_id) ? `session ${text(payload.session_id)}` : undefined) ??
    (event === "PermissionRequest" && text(payload.tool_name) ? `permission for ${text(payload.tool_name)}` : undefined) ??
    // Claude Code 2.1.332: {"error": "unknown", "last_assistant_message": "API Error: 400 …"}.
    (event === "StopFailure" ? `turn failed: ${text(payload.last_assistant_message) ?? text(payload.error) ?? "no reason given"}` : undefined) ??
    "reported";
  // A failed turn is over (the agent is back at its input box): its error must not hold the
  // turn open, or every later message would queue behind it.
  return { status: status as AgentStatus, detail: clipDetail(`${event} hook: ${detail}`) ?? "", ...(event === "StopFailure" ? { endsTurn: true as const } : {}) };
}
