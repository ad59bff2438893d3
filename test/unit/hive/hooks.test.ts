// Hooks (issue 11 §6): the profile format, what agent_spawn hands each program, what a hook
// payload means, which status source wins; and the tmux indicators' pure parts (§9).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  HOOK_FRESH_MS, HOOK_HOLD_MS, HiveError, ProfileRegistry, SELF_HOLD_MS, detectStatus, hookLaunch, hookOutcome, parseHookPayload,
  parseProfilesConfig, screenMayReplace, type DetectedStatus,
} from "../../../src/hive/index.js";
import { alertBytes, paneStatus, summarize } from "../../../src/hive/displays/indicators.js";

const builtins = new ProfileRegistry();

test("the claude and codex built-ins declare their hooks; the others have none", () => {
  const interrupted = detectStatus(builtins.get("claude"), { screenLines: ["⎿  Interrupted · What should Claude do instead?", "> "], quietMs: 2000 });
  assert.deepEqual(interrupted, { status: "idle", detail: "interrupted", by: "rule", overridesHooks: true });
  const claude = builtins.get("claude").hooks!;
  assert.equal(claude.via, "claude-settings");
  assert.deepEqual(claude.events.map((e) => `${e.event}${e.matcher ? `:${e.matcher}` : ""}=${e.status}`), [
    "SessionStart=idle", "UserPromptSubmit=working", "Stop=idle", "StopFailure=error", "PermissionRequest=waiting_for_input",
    "Notification:permission_prompt=waiting_for_input", "Notification:idle_prompt=idle", "SessionEnd=exited",
  ]);
  assert.equal(builtins.get("codex").hooks?.via, "codex-hooks");
  assert.equal(builtins.get("aider").hooks, null);
  assert.equal(builtins.get("shell").hooks, null);
});

test("profiles in the JSON format declare hooks, inherit them with extends, and bad ones are refused naming the fault", () => {
  const reg = new ProfileRegistry(parseProfilesConfig({
    profiles: {
      mine: { extends: "claude", command: "claude --model x" },
      bot: { command: "bot", hooks: { via: "claude-settings", events: [{ event: "Stop", status: "idle" }] } },
    },
  }));
  assert.equal(reg.get("mine").hooks?.events.length, 8);
  assert.deepEqual(reg.get("bot").hooks?.events, [{ event: "Stop", status: "idle" }]);
  const bad = (hooks: unknown, why: RegExp) =>
    assert.throws(() => parseProfilesConfig({ profiles: { p: { hooks } } }, "f.json"), (e: unknown) => e instanceof HiveError && why.test(e.message));
  bad({ via: "telepathy", events: [{ event: "Stop", status: "idle" }] }, /f\.json: .*hooks\.via/);
  bad({ via: "claude-settings", events: [] }, /hooks\.events/);
  bad({ via: "claude-settings", events: [{ event: "Stop", status: "starting" }] }, /status/);
  bad({ via: "claude-settings", events: [{ event: "Stop; rm -rf /", status: "idle" }] }, /event name/);
  bad({ via: "codex-notify", events: [{ event: "a", status: "idle" }, { event: "b", status: "idle" }] }, /exactly one event/);
});

test("claude-settings: one --settings file with a matcher group per declared event, each running termhive hook for its agent", () => {
  const launch = hookLaunch(builtins.get("claude").hooks!, { termhive: "/h ome/bin/termhive", agent: "rev-1", settingsFile: "/h/hooks/rev-1.json" });
  assert.deepEqual(launch.args, ["--settings", "/h/hooks/rev-1.json"]);
  assert.equal(launch.files.length, 1);
  const settings = JSON.parse(launch.files[0]!.content);
  assert.deepEqual(Object.keys(settings.hooks).sort(), ["Notification", "PermissionRequest", "SessionEnd", "SessionStart", "Stop", "StopFailure", "UserPromptSubmit"]);
  assert.deepEqual(settings.hooks.Notification.map((g: { matcher: string }) => g.matcher), ["permission_prompt", "idle_prompt"]);
  assert.equal(settings.hooks.Stop[0].matcher, undefined);
  const hook = settings.hooks.Notification[0].hooks[0];
  assert.equal(hook.type, "command");
  assert.ok(hook.timeout > 0);
  assert.equal(hook.command, "'/h ome/bin/termhive' hook Notification --status waiting_for_input --agent rev-1");
});

test("codex-notify: -c notify=[…] as a TOML array naming the event and status", () => {
  const launch = hookLaunch({ via: "codex-notify", events: [{ event: "agent-turn-complete", status: "idle" }] }, { termhive: "/bin/termhive", agent: "cx", settingsFile: "/unused" });
  assert.deepEqual(launch.files, []);
  assert.deepEqual(launch.args, ["-c", 'notify=["/bin/termhive","hook","agent-turn-complete","--status","idle","--agent","cx"]']);
});

test("hook payloads: the declared status with a detail; another event's payload ignored; /clear is not the end", () => {
  assert.deepEqual(hookOutcome("Stop", "idle", { hook_event_name: "Stop", stop_hook_active: false }), { status: "idle", detail: "Stop hook: turn ended" });
  assert.deepEqual(hookOutcome("Notification", "waiting_for_input", { hook_event_name: "Notification", message: "Claude needs your permission to use Bash" }),
    { status: "waiting_for_input", detail: "Notification hook: Claude needs your permission to use Bash" });
  assert.deepEqual(hookOutcome("Stop", "idle", { hook_event_name: "SubagentStop" }), { ignored: "payload is for SubagentStop, not Stop" });
  assert.deepEqual(hookOutcome("agent-turn-complete", "idle", { type: "agent-turn-complete", "turn-id": "1" }), { status: "idle", detail: "agent-turn-complete hook: turn ended" });
  assert.ok("ignored" in hookOutcome("agent-turn-complete", "idle", { type: "something-new" }));
  assert.deepEqual(hookOutcome("SessionEnd", "exited", { reason: "clear" }), { status: "idle", detail: "SessionEnd hook: session cleared" });
  assert.deepEqual(hookOutcome("SessionEnd", "exited", { reason: "logout" }), { status: "exited", detail: "SessionEnd hook: session ended (logout)" });
  assert.equal((hookOutcome("Notification", "idle", { message: "x\n\u001b[31m".repeat(200) }) as { detail: string }).detail.length, 200);
  assert.throws(() => hookOutcome("Stop", "starting", {}), /hook status/);
  assert.deepEqual(parseHookPayload(""), {});
  assert.throws(() => parseHookPayload("{nope"), /not JSON/);
  assert.throws(() => parseHookPayload("[1]"), /not a JSON object/);
});

const seen = (status: DetectedStatus["status"], by: DetectedStatus["by"] = "rule"): DetectedStatus => ({ status, detail: "d", by });
const hook = (status: "working" | "idle" | "waiting_for_input", ageMs: number) => ({ status, statusSource: "hook" as const, updatedAt: 1_000_000 - ageMs });
const may = (agent: ReturnType<typeof hook> | { status: "idle"; statusSource: "self" | "profile"; updatedAt: number }, d: DetectedStatus, dialogSeen = false) =>
  screenMayReplace(agent, d, { now: 1_000_000, dialogSeen });

test("precedence: a hook status holds against the screen, except where the screen knows more", () => {
  // Agreement keeps the hook's record (no detail churn, source stays "hook").
  assert.equal(may(hook("working", 60_000), seen("working")), false);
  // Fresh: no rule replaces it (the screen may lag the hook)...
  assert.equal(may(hook("idle", HOOK_FRESH_MS - 1), seen("error")), false);
  assert.equal(may(hook("idle", HOOK_FRESH_MS - 1), seen("working")), false);
  // ...except a dialog: input goes there now, whatever a hook said a moment before (issue 23 §2).
  assert.equal(may(hook("idle", 0), seen("waiting_for_input")), true);
  assert.equal(may(hook("working", 0), seen("waiting_for_input")), true);
  // A hook that reports only turn ends (Codex) never hides a turn the screen shows (§3).
  assert.equal(may(hook("idle", HOOK_FRESH_MS), seen("working")), true);
  // Quiet-time guesses never replace a hook.
  assert.equal(may(hook("idle", HOOK_HOLD_MS * 10), seen("working", "quiet")), false);
  // A person must look: a rule-matched dialog or error wins once the hook is not fresh.
  assert.equal(may(hook("working", HOOK_FRESH_MS), seen("waiting_for_input")), true);
  assert.equal(may(hook("idle", HOOK_FRESH_MS), seen("error")), true);
  // Answered dialog: no hook says so; at once when the screen showed the dialog, else after the fresh time.
  assert.equal(may(hook("waiting_for_input", 100), seen("working"), true), true);
  assert.equal(may(hook("waiting_for_input", 100), seen("working")), false);
  assert.equal(may(hook("waiting_for_input", HOOK_FRESH_MS), seen("working")), true);
  // A rule for a state hooks never report (an interrupted turn) replaces it once not fresh.
  assert.equal(may(hook("working", HOOK_FRESH_MS), { ...seen("idle"), overridesHooks: true }), true);
  assert.equal(may(hook("working", HOOK_FRESH_MS - 1), { ...seen("idle"), overridesHooks: true }), false);
  // A hook's working against an idle screen waits for HOOK_HOLD_MS without a hook (a missed hook must not freeze it).
  assert.equal(may(hook("working", HOOK_HOLD_MS - 1), seen("idle")), false);
  assert.equal(may(hook("working", HOOK_HOLD_MS), seen("idle")), true);
  // Self reports: held SELF_HOLD_MS except for waiting/error; screen statuses always replace each other.
  assert.equal(may({ status: "idle", statusSource: "self", updatedAt: 1_000_000 - 10 }, seen("working")), false);
  assert.equal(may({ status: "idle", statusSource: "self", updatedAt: 1_000_000 - 10 }, seen("error")), true);
  assert.equal(may({ status: "idle", statusSource: "self", updatedAt: 1_000_000 - SELF_HOLD_MS }, seen("working")), true);
  assert.equal(may({ status: "idle", statusSource: "profile", updatedAt: 1_000_000 }, seen("working", "quiet")), true);
});

test("indicators: a pane shows its most urgent agent; the window summary counts panes, most urgent first; the ring is BEL + OSC 9", () => {
  assert.equal(paneStatus([{ status: "idle" }, { status: "waiting_for_input" }, { status: "working" }]), "waiting_for_input");
  assert.equal(paneStatus([]), null);
  assert.equal(summarize(["working", "idle", "working", "waiting_for_input", "", "working"]), "1 waiting · 3 working · 1 idle");
  assert.equal(summarize(["", "bogus"]), "");
  assert.equal(alertBytes("termhive: a needs input"), "\x07\x1b]9;termhive: a needs input\x07");
  // A detail cannot end the OSC early or smuggle another sequence.
  assert.equal(alertBytes("x\x07\x1b]0;owned\x07"), "\x07\x1b]9;x ]0;owned\x07");
});

test("precedence: a typed message's working holds against an idle-looking screen, and the spinner takes over at once", () => {
  const typed = (ageMs: number) => ({ status: "working" as const, statusSource: "typed" as const, updatedAt: 1_000_000 - ageMs });
  const check = (ageMs: number, d: DetectedStatus) => screenMayReplace(typed(ageMs), d, { now: 1_000_000 });
  // The input box alone looks idle while the program starts its turn: held.
  assert.equal(check(0, seen("idle")), false);
  assert.equal(check(0, seen("idle", "quiet")), false);
  // The spinner agrees: it takes over with its detail, held or not.
  assert.equal(check(0, seen("working")), true);
  // A guess that happens to agree does not.
  assert.equal(check(0, seen("working", "quiet")), false);
  // A dialog or an error replaces it at once; anything else once the hold is over.
  assert.equal(check(0, seen("waiting_for_input")), true);
  assert.equal(check(SELF_HOLD_MS, seen("idle")), true);
});

test("precedence: a shell back at its marked prompt after the typed command ends the typed hold, on a rule only", () => {
  const typed = { status: "working" as const, statusSource: "typed" as const, updatedAt: 1_000_000 };
  assert.equal(screenMayReplace(typed, seen("idle"), { now: 1_000_000, turnEnded: true }), true);
  assert.equal(screenMayReplace(typed, seen("idle", "quiet"), { now: 1_000_000, turnEnded: true }), false, "a quiet guess is no prompt");
  assert.equal(screenMayReplace(typed, seen("idle"), { now: 1_000_000, turnEnded: false }), false);
});
