// hive_answer's pure parts (issue 25 §2): the question a dialog shows (detect.ts), what an
// answer means for it (question.ts), the precedence of a screen question over a hook's
// waiting detail, and the permission requests a hook holds open (permission-asks.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { HiveError, HooksSchema, ProfileRegistry, detectStatus, hookLaunch, planAnswer, screenMayReplace, summarizeToolInput, type Question } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

const claude = new ProfileRegistry().get("claude");

test("a numbered dialog's question: text, choices with numbers, the cursor, a digest that follows the content", () => {
  const screen = ["● Bash(touch x)", " Do you want to proceed?", " ❯ 1. Yes", "   2. Yes, and don't ask again", "   3. No, and tell Claude what to do differently (esc)"];
  const d = detectStatus(claude, { screenLines: screen, quietMs: 2000 });
  assert.equal(d.status, "waiting_for_input");
  assert.equal(d.question?.text, "Do you want to proceed?");
  assert.deepEqual(d.question?.choices.map((c) => [c.number, c.label]), [[1, "Yes"], [2, "Yes, and don't ask again"], [3, "No, and tell Claude what to do differently (esc)"]]);
  assert.equal(d.question?.cursor, 0);
  assert.match(d.question!.digest, /^[0-9a-f]{12}$/);
  const other = detectStatus(claude, { screenLines: [...screen.slice(0, 1), " Do you want to make this edit to a.ts?", ...screen.slice(2)], quietMs: 2000 });
  assert.notEqual(other.question?.digest, d.question?.digest);
  const moved = detectStatus(claude, { screenLines: [screen[0]!, screen[1]!, "   1. Yes", " ❯ 2. Yes, and don't ask again", screen[4]!], quietMs: 2000 });
  assert.equal(moved.question?.digest, d.question?.digest, "the cursor's place is not part of the question");
  assert.equal(moved.question?.cursor, 1);
});

test("an unnumbered menu above a footer rule's match is found on the wider screen", () => {
  const d = detectStatus(claude, { screenLines: ["history", "  Which colour?", "  ❯ Red", "    Green", "    Blue", "  Enter to confirm · Esc to cancel"], quietMs: 2000 });
  assert.equal(d.status, "waiting_for_input");
  assert.equal(d.question?.text, "Which colour?");
  assert.deepEqual(d.question?.choices.map((c) => c.label), ["Red", "Green", "Blue"]);
  // The cursor moved down: the footer rule's lines now start inside the menu; it is still all of it.
  const moved = detectStatus(claude, { screenLines: ["history", "  Which colour?", "    Red", "  ❯ Green", "    Blue", "  Enter to confirm · Esc to cancel"], quietMs: 2000 });
  assert.deepEqual(moved.question?.choices.map((c) => c.label), ["Red", "Green", "Blue"]);
  assert.equal(moved.question?.cursor, 1);
  assert.equal(moved.question?.digest, d.question?.digest);
});

const menu = (labels: string[], numbered: boolean, cursor = 0): Question => ({ digest: "d", text: "q?", choices: labels.map((label, i) => ({ number: numbered ? i + 1 : null, label })), cursor });

test("an answer is a number, a label or a unique prefix of one, yes/no; else an error naming the choices", () => {
  const q = menu(["Yes", "Yes, and don't ask again", "No, and tell Claude what to do differently (esc)"], true);
  assert.deepEqual(planAnswer(q, "2"), { kind: "choice", choice: q.choices[1], index: 1, keys: ["2"] });
  assert.equal((planAnswer(q, "yes") as { index: number }).index, 0);
  assert.equal((planAnswer(q, "y") as { index: number }).index, 0);
  assert.equal((planAnswer(q, "no") as { index: number }).index, 2);
  assert.equal((planAnswer(q, "No, and tell Claude what to do differently") as { index: number }).index, 2, "the (esc) hint is not part of the label");
  assert.throws(() => planAnswer(q, "7"), (e: unknown) => e instanceof HiveError && /no choice 7; the choices are: 1\. Yes/.test(e.message));
  assert.throws(() => planAnswer(q, "maybe"), /"maybe" is none of the choices/);
  assert.throws(() => planAnswer(q, "  "), /empty/);
  const colours = menu(["Red", "Green", "Blue"], false, 2);
  assert.deepEqual((planAnswer(colours, "red") as { keys: string[] }).keys, ["Up", "Up", "Enter"], "walked from the cursor");
  assert.deepEqual((planAnswer(colours, "3") as { keys: string[] }).keys, ["Enter"]);
  assert.deepEqual(planAnswer(menu([], false), "yes"), { kind: "text", text: "y" });
  assert.deepEqual(planAnswer(menu([], false), "hunter two"), { kind: "text", text: "hunter two" });
});

test("a screen question replaces a hook's waiting detail; the same question does not churn", () => {
  const screen = [" Do you want to proceed?", " ❯ 1. Yes", "   2. No"];
  const d = detectStatus(claude, { screenLines: screen, quietMs: 2000 });
  const hook = { status: "waiting_for_input" as const, statusSource: "hook" as const, updatedAt: Date.now(), statusDetail: "PermissionRequest hook: permission for Bash" };
  assert.equal(screenMayReplace(hook, d), true);
  assert.equal(screenMayReplace({ ...hook, statusDetail: d.detail }, d), false);
});

test("a PermissionRequest hook with wait_s waits in its command and gets the wait added to its timeout", () => {
  const launch = hookLaunch({ via: "claude-settings", events: [{ event: "PermissionRequest", status: "waiting_for_input", wait_s: 90 }] }, { termhive: "/x/termhive", agent: "a", settingsFile: "/tmp/s.json" });
  const hook = JSON.parse(launch.files[0]!.content).hooks.PermissionRequest[0].hooks[0];
  assert.match(hook.command, /hook PermissionRequest --status waiting_for_input --agent a --wait 90$/);
  assert.equal(hook.timeout, 100);
  const bad = HooksSchema.safeParse({ via: "claude-settings", events: [{ event: "Stop", status: "idle", wait_s: 5 }] });
  assert.equal(bad.success, false);
  assert.match(bad.error!.issues[0]!.message, /wait_s is for a claude-settings PermissionRequest hook only \(not Stop\)/);
});

test("permission asks: one open per agent, decided once, closed when the agent stops waiting", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "a", sessionId: "s1" });
    const first = hive.permissionAsks.open("a", "Bash", summarizeToolInput({ command: "rm  -rf\nbuild" }), 60_000);
    assert.equal(first.summary, "rm -rf build");
    const second = hive.permissionAsks.open("a", "Bash", "ls", 60_000);
    assert.equal(hive.permissionAsks.get(first.id), undefined, "a newer ask supersedes the older");
    assert.notEqual(second.digest, first.digest);
    assert.equal(hive.permissionAsks.pending("a")?.id, second.id);
    assert.equal(hive.permissionAsks.decide(second.id, "allow", null), true);
    assert.equal(hive.permissionAsks.decide(second.id, "deny", null), false, "decided once");
    assert.equal(hive.permissionAsks.pending("a"), undefined);
    const third = hive.permissionAsks.open("a", "Edit", "a.ts", 60_000);
    hive.agents.setStatus("a", "waiting_for_input", { source: "hook" });
    assert.equal(hive.permissionAsks.pending("a")?.id, third.id);
    hive.agents.setStatus("a", "working", { source: "profile" });
    assert.equal(hive.permissionAsks.pending("a"), undefined, "answered in the program's own dialog: the ask goes");
    const expired = hive.permissionAsks.open("a", "Bash", "x", 1);
    assert.equal(hive.permissionAsks.pending("a", Date.now() + 10), undefined);
    assert.equal(hive.permissionAsks.decide(expired.id, "allow", null, Date.now() + 10), false);
  } finally {
    done();
  }
});
