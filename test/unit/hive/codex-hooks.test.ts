// Codex's hooks under the hive: the trust records termhive gives them (the hashes are pinned to
// what the real Codex 0.171.0 computed), the `-c` arguments, the profile's hooks, and the rule
// that Codex's notify is read only where its hooks do not report.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  HiveError, ProfileRegistry, applyHookReport, codexEventLabel, codexHookArgs, codexHookHash, detectStatus, hookChannelOf, hookLaunch, noteHookConversation, parseProfilesConfig, promptDigest,
} from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

const builtins = new ProfileRegistry();

test("a hook's trusted_hash is the one Codex computes: sha256 of its normalized identity (event label, matcher, command, timeout, async)", () => {
  // `codex app-server` 0.171.0 hooks/list: `-c hooks.UserPromptSubmit=[{hooks=[{type="command",command="echo hi",timeout=10}]}]`.
  assert.equal(codexHookHash({ event: "UserPromptSubmit", command: "echo hi", timeoutS: 10 }), "sha256:d1cae2592e7f8e6aee100211ab5d4d746d693ce20dd381c184248461aa0d63b2");
  // What Codex 0.171.0 wrote to config.toml when a person chose "Trust all and continue" for a
  // user's [[hooks.Stop]] without a timeout (Codex fills in its default, 600 s).
  assert.equal(codexHookHash({ event: "Stop", command: "/tmp/probe/hook.sh UserStop", timeoutS: 600 }), "sha256:8208a3a796f23f2ed00480e9f7af4ac8e3c2834ab13d5ecd3f5cc884e0ec44fd");
  // Codex leaves a matcher out of the identity where it ignores it, keeps it where it matches.
  assert.equal(codexHookHash({ event: "Stop", matcher: "x", command: "/tmp/probe/hook.sh UserStop", timeoutS: 600 }), codexHookHash({ event: "Stop", command: "/tmp/probe/hook.sh UserStop", timeoutS: 600 }));
  assert.notEqual(codexHookHash({ event: "PreToolUse", matcher: "Bash", command: "c", timeoutS: 1 }), codexHookHash({ event: "PreToolUse", command: "c", timeoutS: 1 }));
  assert.deepEqual(["UserPromptSubmit", "PreToolUse", "Stop", "PermissionRequest"].map(codexEventLabel), ["user_prompt_submit", "pre_tool_use", "stop", "permission_request"]);
});

test("codex-hooks: one -c per event and the trust records in the session-flags layer, keyed as Codex keys them; notify appended", () => {
  const launch = hookLaunch(builtins.get("codex").hooks!, { termhive: "/h ome/termhive", agent: "cx", settingsFile: "/unused" });
  assert.deepEqual(launch.files, []);
  const command = (event: string, status: string) => `'/h ome/termhive' hook ${event} --status ${status} --agent cx`;
  const ups = codexHookHash({ event: "UserPromptSubmit", command: command("UserPromptSubmit", "working"), timeoutS: 10 });
  const stop = codexHookHash({ event: "Stop", command: command("Stop", "idle"), timeoutS: 10 });
  assert.deepEqual(launch.args, [
    "-c", `hooks.UserPromptSubmit=[{"hooks"=[{"type"="command","command"=${JSON.stringify(command("UserPromptSubmit", "working"))},"timeout"=10}]}]`,
    "-c", `hooks.Stop=[{"hooks"=[{"type"="command","command"=${JSON.stringify(command("Stop", "idle"))},"timeout"=10}]}]`,
    "-c", `hooks.state={"/<session-flags>/config.toml:user_prompt_submit:0:0"={"trusted_hash"="${ups}"},"/<session-flags>/config.toml:stop:0:0"={"trusted_hash"="${stop}"}}`,
    "-c", 'notify=["/h ome/termhive","hook","agent-turn-complete","--status","idle","--agent","cx"]',
  ]);
  // Two groups of one event: indexes 0 and 1.
  const two = codexHookArgs([{ event: "PreToolUse", matcher: "Bash", command: "a", timeoutS: 5 }, { event: "PreToolUse", command: "b", timeoutS: 5 }]);
  assert.match(two[3]!, /pre_tool_use:0:0.*pre_tool_use:1:0/);
  assert.match(two[1]!, /^hooks\.PreToolUse=\[\{"matcher"="Bash",/);
});

test("the codex built-in reads its hooks (prompt taken → working, Stop → idle), Codex's review screen and an interrupted turn", () => {
  assert.deepEqual(builtins.get("codex").hooks, { via: "codex-hooks", events: [{ event: "UserPromptSubmit", status: "working" }, { event: "Stop", status: "idle" }] });
  assert.deepEqual(builtins.get("codex").checkedVersions, ["0.169.0", "0.171.0"]);
  const review = detectStatus(builtins.get("codex"), {
    screenLines: ["  Hooks need review", "  1 hook is new or changed.", "  Hooks can run outside the sandbox after you trust them.", "› 1. Review hooks", "  2. Trust all and continue", "  3. Continue without trusting (hooks won't run)", "  enter confirm · esc skip"],
    quietMs: 2000,
  });
  assert.equal(review.status, "waiting_for_input");
  assert.match(review.detail ?? "", /^Hooks need review: .*1\. Review hooks \/ 2\. Trust all and continue/);
  const interrupted = detectStatus(builtins.get("codex"), {
    screenLines: ["› interrupt me sleep 8", "■ Conversation interrupted - use /feedback if something went wrong", "› Ask Codex to do anything", "  gpt-5.1-codex default · /p", "  ← for agents · ? for shortcuts"],
    quietMs: 2000,
  });
  assert.deepEqual(interrupted, { status: "idle", detail: "interrupted", by: "rule", overridesHooks: true });
});

test("codex-hooks profiles take Codex's hook events only, without matchers where Codex ignores them", () => {
  const bad = (hooks: unknown, why: RegExp) =>
    assert.throws(() => parseProfilesConfig({ profiles: { p: { hooks } } }, "f.json"), (e: unknown) => e instanceof HiveError && why.test(e.message));
  bad({ via: "codex-hooks", events: [{ event: "Notification", status: "idle" }] }, /not a Codex hook event/);
  bad({ via: "codex-hooks", events: [{ event: "Stop", matcher: "x", status: "idle" }] }, /ignores a matcher on Stop/);
  bad({ via: "codex-hooks", events: [{ event: "PermissionRequest", status: "waiting_for_input", wait_s: 5 }] }, /wait_s/);
  assert.doesNotThrow(() => parseProfilesConfig({ profiles: { p: { hooks: { via: "codex-hooks", events: [{ event: "PreToolUse", matcher: "Bash", status: "working" }] } } } }));
});

test("Codex's notify is read until the agent's hooks report in its launch, then not; a new launch reads it again", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "cx", sessionId: "s1", profile: "codex" });
    const record = () => hive.launches.record({ agent: "cx", profile: "codex", command: "codex", cwd: null, envNames: [], team: null, host: null, rows: null, cols: null, window: null, paneIndex: null, layout: null, sandbox: null });
    record();
    const notify = { event: "agent-turn-complete", status: "idle" as const, detail: "agent-turn-complete hook: turn ended", endsTurn: false, firedAt: Date.now(), channel: hookChannelOf({ type: "agent-turn-complete" }) };
    const hook = (status: "working" | "idle") => ({ event: status === "idle" ? "Stop" : "UserPromptSubmit", status, detail: `${status} by hook`, endsTurn: false, firedAt: Date.now(), channel: hookChannelOf({ hook_event_name: "Stop" }) });
    assert.equal(applyHookReport(hive, "cx", notify), null, "hooks off (none reported): notify reports the turn's end");
    assert.equal(hive.agents.get("cx").statusDetail, "agent-turn-complete hook: turn ended");
    assert.equal(applyHookReport(hive, "cx", hook("working")), null);
    assert.ok(hive.launches.find("cx")!.hooksRanAt !== null);
    assert.match(applyHookReport(hive, "cx", notify) ?? "", /notify is not read/);
    assert.equal(hive.agents.get("cx").status, "working", "the notify did not end the turn the hooks report");
    assert.equal(applyHookReport(hive, "cx", hook("idle")), null);
    assert.equal(hive.agents.get("cx").statusDetail, "idle by hook");
    record();
    assert.equal(hive.launches.find("cx")!.hooksRanAt, null, "a new launch has not shown its hooks yet");
    assert.equal(applyHookReport(hive, "cx", { ...notify, detail: "again" }), null);
    assert.equal(hive.agents.get("cx").statusDetail, "again");
  } finally {
    done();
  }
});

test("the conversation a hook names is kept; a notify's thread names it only while notify is read (Codex's title thread ends after the Stop hook at times)", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "cx", sessionId: "s1", profile: "codex" });
    const record = () => hive.launches.record({ agent: "cx", profile: "codex", command: "codex", cwd: null, envNames: [], team: null, host: null, rows: null, cols: null, window: null, paneIndex: null, layout: null, sandbox: null });
    const main = "01a238b7-0949-7e91-a2eb-d7aa72619e6d";
    const title = "01a238b7-0bee-7ef1-9db2-c98d0aff56a6";
    const stop = { hook_event_name: "Stop", session_id: main };
    const titleNotify = { type: "agent-turn-complete", "thread-id": title };
    record();
    // As the host's door and `termhive hook` take them: the conversation, then the report.
    noteHookConversation(hive, "cx", stop);
    applyHookReport(hive, "cx", { event: "Stop", status: "idle", detail: null, endsTurn: false, firedAt: Date.now(), channel: hookChannelOf(stop) });
    noteHookConversation(hive, "cx", titleNotify);
    assert.equal(hive.launches.find("cx")!.conversationId, main, "the title thread's notify after the Stop hook took the conversation");
    noteHookConversation(hive, "cx", { hook_event_name: "Stop", session_id: "not an id!" });
    assert.equal(hive.launches.find("cx")!.conversationId, main, "an id of another shape is not kept");
    // Hooks off (none reported in this launch): notify's thread is all there is.
    record();
    noteHookConversation(hive, "cx", titleNotify);
    assert.equal(hive.launches.find("cx")!.conversationId, title);
  } finally {
    done();
  }
});

test("the prompts a UserPromptSubmit hook reports: matched by their text (line ends and blank edges aside), per agent, from a moment on", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "cx", sessionId: "s1", profile: "codex" });
    hive.launches.record({ agent: "cx", profile: "codex", command: "codex", cwd: null, envNames: [], team: null, host: null, rows: null, cols: null, window: null, paneIndex: null, layout: null, sandbox: null });
    const before = Date.now();
    applyHookReport(hive, "cx", { event: "UserPromptSubmit", status: "working", detail: null, endsTurn: false, firedAt: before, channel: "hooks", promptDigest: promptDigest("two\r\nlines ") });
    assert.equal(hive.prompts.reportedSince(["cx"], "two\nlines", before), true);
    assert.equal(hive.prompts.reportedSince(["cx"], "two lines", before), false, "another text");
    assert.equal(hive.prompts.reportedSince(["other"], "two\nlines", before), false, "another agent");
    assert.equal(hive.prompts.reportedSince(["cx"], "two\nlines", Date.now() + 1), false, "reported before the Enter it would confirm");
    // A notify before any hook of a new launch says its hooks are off (hooks_ran_at 0): deliveries then go by the screen.
    hive.launches.record({ agent: "cx", profile: "codex", command: "codex", cwd: null, envNames: [], team: null, host: null, rows: null, cols: null, window: null, paneIndex: null, layout: null, sandbox: null });
    applyHookReport(hive, "cx", { event: "agent-turn-complete", status: "idle", detail: null, endsTurn: false, firedAt: Date.now(), channel: "notify" });
    assert.equal(hive.launches.find("cx")!.hooksRanAt, 0);
  } finally {
    done();
  }
});
