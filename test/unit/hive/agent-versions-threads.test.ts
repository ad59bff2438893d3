// Issue 23 §3 and §7: which Codex notify counts (its main thread, told by its session file),
// what Claude Code's newer hook events mean, and the versions a profile was checked against.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProfileRegistry, compareVersions, hookOutcome, isCodexMainThread, judgeVersion, parseProfilesConfig, parseVersion } from "../../../src/hive/index.js";

test("codex: a thread with a rollout file in the newest session days is the main thread; the title thread has none", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-home-"));
  try {
    // No session files at all: nothing tells the threads apart, every notify counts.
    assert.equal(isCodexMainThread("01a2", home), true);
    const day = join(home, "sessions", "2026", "11", "25");
    mkdirSync(day, { recursive: true });
    mkdirSync(join(home, "sessions", "2026", "11", "24"), { recursive: true });
    writeFileSync(join(day, "rollout-2026-11-25T18-37-43-01a213ff-d818-7310-9a39-cd13db8da3dd.jsonl"), "{}\n");
    assert.equal(isCodexMainThread("01a213ff-d818-7310-9a39-cd13db8da3dd", home), true);
    assert.equal(isCodexMainThread("01a213ff-f8bb-7523-af93-87aea4f7d3dc", home), false);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("hook payloads: Codex's side-thread notify is ignored, the main thread's counts; Claude Code's newer events carry their facts", () => {
  const main = (id: string) => id === "main";
  // Payloads as Codex 0.169.0 sent them (input-messages shortened).
  const title = { type: "agent-turn-complete", "thread-id": "side", "turn-id": "t1", "input-messages": ["Generate a concise, single-line task title…"] };
  assert.deepEqual(hookOutcome("agent-turn-complete", "idle", title, { isMainThread: main }), { ignored: "thread side is not the agent's main thread" });
  const real = { type: "agent-turn-complete", "thread-id": "main", "turn-id": "t2", "last-assistant-message": "ok" };
  assert.deepEqual(hookOutcome("agent-turn-complete", "idle", real, { isMainThread: main }), { status: "idle", detail: "agent-turn-complete hook: turn ended" });
  // Payloads as Claude Code 2.1.332 sent them.
  assert.deepEqual(hookOutcome("SessionStart", "idle", { hook_event_name: "SessionStart", session_id: "46ed3232", source: "startup" }), { status: "idle", detail: "SessionStart hook: session 46ed3232" });
  assert.ok("ignored" in hookOutcome("SessionStart", "idle", { hook_event_name: "SessionStart", session_id: "46ed3232", source: "compact" }));
  assert.deepEqual(hookOutcome("PermissionRequest", "waiting_for_input", { hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "touch x" } }),
    { status: "waiting_for_input", detail: "PermissionRequest hook: permission for Bash" });
  assert.deepEqual(hookOutcome("StopFailure", "error", { hook_event_name: "StopFailure", error: "unknown", last_assistant_message: "API Error: 400 the stand-in was asked to fail" }),
    { status: "error", detail: "StopFailure hook: turn failed: API Error: 400 the stand-in was asked to fail", endsTurn: true });
});

test("versions: parsed from --version output, compared numerically, judged against the profile's checked versions", () => {
  assert.equal(parseVersion("2.1.332 (Claude Code)"), "2.1.332");
  assert.equal(parseVersion("codex-cli 0.169.0"), "0.169.0");
  assert.equal(parseVersion("no version"), null);
  assert.ok(compareVersions("0.169.0", "0.99.9") > 0);
  assert.equal(compareVersions("2.1", "2.1.0"), 0);
  const profiles = new ProfileRegistry();
  assert.deepEqual(profiles.get("claude").checkedVersions, ["2.1.332"]);
  assert.deepEqual(profiles.get("codex").checkedVersions, ["0.169.0", "0.171.0"]);
  assert.equal(judgeVersion(profiles.get("claude"), "2.1.332").known, true);
  assert.equal(judgeVersion(profiles.get("claude"), "2.1.200").known, true);
  assert.equal(judgeVersion(profiles.get("codex"), "0.170.0").known, true);
  const newer = judgeVersion(profiles.get("codex"), "0.172.0");
  assert.equal(newer.known, false);
  assert.match(newer.note, /newer than the codex profile knows \(checked against 0\.169\.0, 0\.171\.0\)/);
  assert.equal(judgeVersion(profiles.get("aider"), "1.0").known, false);
  // A custom profile names its own, inherits the parent's otherwise; a bad version is refused.
  const custom = new ProfileRegistry(parseProfilesConfig({ profiles: { mine: { extends: "claude" }, pinned: { extends: "codex", checkedVersions: ["0.170.1"] } } }));
  assert.deepEqual(custom.get("mine").checkedVersions, ["2.1.332"]);
  assert.deepEqual(custom.get("pinned").checkedVersions, ["0.170.1"]);
  assert.throws(() => parseProfilesConfig({ profiles: { p: { checkedVersions: ["latest"] } } }), /a version/);
});
