// Which events become notices, who wants them, and the bodies Slack, Discord and ntfy take.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { HiveEvent } from "../../../../src/hive/index.js";
import { noticeOf, ntfyRequest, wants, webhookRequest, type Notice, type NotifyEndpoint } from "../../../../src/hive/notify/index.js";

const status = (data: Record<string, unknown>, id = 7): HiveEvent => ({ id, at: 1_700_000_000_000, kind: "status", agent: "alice", sessionId: "s1", data });
const teamOf = (name: string) => (name === "alice" ? "web" : null);

test("status events: waiting, error, a non-zero exit and (opt-in) a finished turn are notices; the rest are not", () => {
  assert.equal(noticeOf(status({ status: "waiting_for_input", previous: "working", detail: "permission prompt" }), teamOf)?.kind, "waiting");
  const waiting = noticeOf(status({ status: "waiting_for_input", previous: "working", detail: "permission prompt" }), teamOf)!;
  assert.deepEqual({ id: waiting.id, team: waiting.team, title: waiting.title }, { id: 7, team: "web", title: "alice needs you" });
  assert.match(waiting.message, /permission prompt/);
  assert.equal(noticeOf(status({ status: "error", previous: "working" }), teamOf)?.kind, "error");
  assert.equal(noticeOf(status({ status: "exited", previous: "working", exitCode: 2 }), teamOf)?.kind, "error");
  assert.equal(noticeOf(status({ status: "exited", previous: "idle", exitCode: 0 }), teamOf), null);
  assert.equal(noticeOf(status({ status: "idle", previous: "working" }), teamOf)?.kind, "turn_done");
  assert.equal(noticeOf(status({ status: "idle", previous: "starting" }), teamOf), null);
  assert.equal(noticeOf(status({ status: "working", previous: "working", detail: "spinner" }), teamOf), null);
  assert.equal(noticeOf(status({ status: "waiting_for_input", previous: "waiting_for_input", detail: "other" }), teamOf), null);
  assert.equal(noticeOf({ ...status({ event: "agent_added" }), kind: "lifecycle" }, teamOf), null);
});

test("watch hits are notices; a disabled-watcher report is not", () => {
  const hit: HiveEvent = { id: 9, at: 0, kind: "watch", agent: null, sessionId: "s2", data: { watcher: 1, label: "build failed", pattern: "FAIL", line: "FAIL src/a.ts", match: "FAIL" } };
  const n = noticeOf(hit, teamOf)!;
  assert.equal(n.kind, "watch");
  assert.match(n.message, /build failed matched in s2: FAIL src\/a\.ts/);
  assert.match(noticeOf(hit, teamOf, (id) => (id === "s2" ? "builder" : undefined))!.message, /matched in builder:/);
  assert.equal(noticeOf({ ...hit, data: { watcher: 1, pattern: "(", disabled: true } }, teamOf), null);
});

test("an endpoint's events, agent/team filters and quiet hours decide whether it wants a notice", () => {
  const n: Notice = { id: 1, kind: "waiting", agent: "alice", team: "web", title: "t", message: "m", at: 0 };
  const all: NotifyEndpoint = { kind: "webhook", url: "https://x", events: ["waiting"] };
  const noon = new Date(2026, 0, 1, 12);
  assert.equal(wants(all, n, noon), true);
  assert.equal(wants({ ...all, events: ["error"] }, n, noon), false);
  assert.equal(wants({ ...all, agents: ["bob"] }, n, noon), false);
  assert.equal(wants({ ...all, agents: ["bob"], teams: ["web"] }, n, noon), true);
  assert.equal(wants({ ...all, teams: ["web"] }, { ...n, team: null }, noon), false);
  assert.equal(wants({ ...all, quiet: { from: 11 * 60, to: 13 * 60 } }, n, noon), false);
});

test("webhook body: Slack's text and Discord's content, plus the structured notice; ntfy: plain text with Title/Tags", () => {
  const n: Notice = { id: 3, kind: "waiting", agent: "alice", team: null, title: "alice needs you", message: "alice is waiting for input: Bash(rm -rf build) — allow?", at: 0 };
  const w = webhookRequest(n);
  assert.equal(w.headers["content-type"], "application/json");
  const body = JSON.parse(w.body);
  assert.equal(body.text, `[termhive] ${n.message}`);
  assert.equal(body.content, body.text);
  assert.equal(body.termhive.event_id, 3);
  assert.equal(body.termhive.kind, "waiting");
  const long = JSON.parse(webhookRequest({ ...n, message: "x".repeat(5000) }).body);
  assert.ok(long.content.length <= 2000, "Discord refuses content over 2000 characters");
  const t = ntfyRequest(n);
  assert.equal(t.body, n.message);
  assert.equal(t.headers.Title, "termhive: alice needs you");
  assert.equal(t.headers.Tags, "bell");
  assert.equal(t.headers.Priority, "high");
  assert.match(ntfyRequest({ ...n, title: "ünïcode\nnext" }).headers.Title!, /^[\x20-\x7e]+$/, "header values stay one Latin-1 line");
});

test("ntfy: high priority for what needs a person (waiting, error), default otherwise; a link is the Click header; the body is clipped", () => {
  const n: Notice = { id: 4, kind: "error", agent: "alice", team: null, title: "alice failed", message: "alice exited with code 2", at: 0 };
  const priority = (kind: Notice["kind"]) => ntfyRequest({ ...n, kind }).headers.Priority;
  assert.deepEqual(["waiting", "error", "turn_done", "watch"].map((kind) => priority(kind as Notice["kind"])), ["high", "high", "default", "default"]);
  assert.equal(ntfyRequest(n).headers.Tags, "warning");
  assert.equal(ntfyRequest(n).headers.Click, undefined, "no link, no Click header");
  assert.equal(ntfyRequest({ ...n, link: "http://127.0.0.1:7777/#s1\nX: y" }).headers.Click, "http://127.0.0.1:7777/#s1?X: y", "one Latin-1 line");
  const long = ntfyRequest({ ...n, message: "x".repeat(5000) }).body;
  assert.equal(long.length, 1900);
  assert.ok(long.endsWith("…"));
});

test("a notice leaves masked and cut: the question's lines with a token, an exit said once", () => {
  const token = `ghp_${"x1Y2z3".repeat(7)}`;
  const waiting = noticeOf(status({ status: "waiting_for_input", previous: "working", detail: "permission prompt", prompt: `Bash command\ncurl -H "Authorization: Bearer ${token}" https://x\nDo you want to proceed?` }), teamOf)!;
  assert.match(waiting.message, /^alice is waiting for input:\nBash command\ncurl -H "Authorization: Bearer \[REDACTED/);
  assert.ok(!waiting.message.includes(token));
  assert.equal(noticeOf(status({ status: "exited", previous: "working", exitCode: 3, detail: "exit code 3" }), teamOf)!.message, "alice ended with exit code 3");
  assert.equal(noticeOf(status({ status: "exited", previous: "working", exitCode: 3, detail: "killed by the OOM killer" }), teamOf)!.message, "alice ended with exit code 3: killed by the OOM killer");
  const hit: HiveEvent = { id: 9, at: 0, kind: "watch", agent: null, sessionId: "s2", data: { watcher: 1, pattern: "x", line: `x ${"y".repeat(5000)}` } };
  assert.ok(noticeOf(hit, teamOf)!.message.length <= 1000);
});
