// Sending (against a real local HTTP receiver: retries, a hang, a refusal), the bounded queue,
// the claim that makes each notice go out once from two Hive objects on one file (two
// processes), and the notifier end to end over the event log.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Hive, ProfileRegistry } from "../../../../src/hive/index.js";
import { EndpointQueue, NotificationClaims, Notifier, parseNotifyConfig, redactUrl, sendWithRetry, type Notice } from "../../../../src/hive/notify/index.js";
import { openHive } from "../helpers.js";
import { Receiver, refusedUrl } from "./receiver.js";

/**
 * The sender's pauses between attempts do not hold a process open (a finished CLI command must
 * not wait on a dead endpoint), so a test awaiting one keeps the event loop alive itself.
 */
async function held<T>(work: Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, 1000);
  try {
    return await work;
  } finally {
    clearInterval(hold);
  }
}

const notice = (id: number, agent: string | null = "alice", kind: Notice["kind"] = "waiting"): Notice => ({ id, kind, agent, team: null, title: "t", message: `m${id}`, at: 0 });

test("a 5xx is retried with back-off until it is taken; a 4xx is not retried", async () => {
  const r = await Receiver.start([503, 200]);
  try {
    const ok = await sendWithRetry({ kind: "webhook", url: `${r.url}/hook`, events: ["waiting"] }, notice(1), { timeoutMs: 5000, attempts: 3, backoffMs: 10 });
    assert.deepEqual(ok, { ok: true, attempts: 2, status: 200 });
    assert.equal(r.received.length, 2);
    assert.equal(JSON.parse(r.received[1]!.body).content, "[termhive] m1");
  } finally {
    await r.close();
  }
  const refusing = await Receiver.start([404]);
  try {
    const out = await sendWithRetry({ kind: "webhook", url: refusing.url, events: ["waiting"] }, notice(2), { timeoutMs: 5000, attempts: 3, backoffMs: 10 });
    assert.deepEqual(out, { ok: false, attempts: 1, status: 404, error: "HTTP 404" });
  } finally {
    await refusing.close();
  }
});

test("an endpoint that never answers is given up on after the timeout; a refused one says so", async () => {
  const hang = await Receiver.start(["hang"]);
  try {
    const out = await sendWithRetry({ kind: "ntfy", url: `${hang.url}/topic`, events: ["waiting"] }, notice(3), { timeoutMs: 200, attempts: 2, backoffMs: 10 });
    assert.deepEqual(out, { ok: false, attempts: 2, error: "no answer within 200 ms" });
    assert.equal(hang.received[0]!.headers["title"], "termhive: t");
    assert.equal(hang.received[0]!.body, "m3");
  } finally {
    await hang.close();
  }
  const refused = await held(sendWithRetry({ kind: "webhook", url: await refusedUrl(), events: ["waiting"] }, notice(4), { timeoutMs: 1000, attempts: 2, backoffMs: 10 }));
  assert.deepEqual(refused, { ok: false, attempts: 2, error: "ECONNREFUSED" });
});

test("the audit log's URL keeps scheme and host only", () => {
  assert.equal(redactUrl("https://hooks.slack.com/services/T000/B000/secrettoken"), "https://hooks.slack.com/…");
  assert.equal(redactUrl("https://ntfy.sh/my-private-topic"), "https://ntfy.sh/…");
  assert.equal(redactUrl("https://user:pw@example.com/?token=x"), "https://example.com/…");
  assert.equal(redactUrl("https://example.com"), "https://example.com");
});

test("an endpoint queue with one slot sends one at a time and drops the oldest past its limit", async () => {
  const sent: number[] = [];
  const dropped: number[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const q = new EndpointQueue({ kind: "webhook", url: "https://x", events: ["waiting"] }, async (n) => {
    if (n.id === 1) await gate;
    sent.push(n.id);
  }, (n) => dropped.push(n.id), 2, 1);
  for (const id of [1, 2, 3, 4]) q.push(notice(id));
  assert.deepEqual(dropped, [2], "1 is being sent; 2 was the oldest waiting");
  release();
  while (sent.length < 3) await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent, [1, 3, 4]);
});

test("two processes on one hive file: each notice is claimed once; the same kind for an agent is debounced", () => {
  const { hive: a, home, done } = openHive();
  const b = Hive.open({ home, profiles: new ProfileRegistry() });
  try {
    const ca = new NotificationClaims(a.store);
    const cb = new NotificationClaims(b.store);
    assert.equal(ca.claim(notice(1), "A", 0), "claimed");
    assert.equal(cb.claim(notice(1), "B", 0), "taken");
    assert.equal(cb.claim(notice(2), "B", 60_000), "debounced", "alice waited again within the debounce");
    assert.equal(ca.claim(notice(2), "A", 60_000), "taken", "a debounced notice is not sent by the other process either");
    assert.equal(ca.claim(notice(3, "alice", "error"), "A", 60_000), "claimed", "another kind is news");
    assert.equal(ca.claim(notice(4, "bob"), "A", 60_000), "claimed", "another agent is news");
  } finally {
    b.close();
    done();
  }
});

test("two notifiers on one hive file send each status change once, and audit both sides", async () => {
  const r = await Receiver.start([200]);
  const { hive: a, home, done } = openHive();
  const b = Hive.open({ home, profiles: new ProfileRegistry() });
  const audit: Record<string, unknown>[] = [];
  const config = parseNotifyConfig(JSON.stringify({ debounce_s: 0 }), [`${r.url}/hook/secret`]);
  a.agents.register({ name: "alice", sessionId: "s1" });
  const na = new Notifier(a, config, (e) => audit.push({ ...e, who: "a" }), { pollMs: 20 });
  const nb = new Notifier(b, config, (e) => audit.push({ ...e, who: "b" }), { pollMs: 20 });
  try {
    a.agents.setStatus("alice", "working");
    a.agents.setStatus("alice", "waiting_for_input", { detail: "permission prompt" });
    const waitingEvent = a.events.latestCursor();
    na.wake();
    nb.wake();
    await r.waitFor(1);
    // Both notifiers have judged the event once each has an audit line for it.
    while (audit.filter((e) => e.notice === waitingEvent).length < 2) await new Promise((res) => setTimeout(res, 10));
    assert.equal(r.received.length, 1);
    assert.equal(JSON.parse(r.received[0]!.body).termhive.event_id, waitingEvent);
    const lines = audit.filter((e) => e.notice === waitingEvent).map((e) => e.outcome).sort();
    assert.deepEqual(lines, ["claimed_elsewhere", "sent"]);
    const sent = audit.find((e) => e.outcome === "sent")!;
    assert.equal(sent.url, `${r.url}/…`, "the path (the token) is not in the audit log");
    assert.ok(!JSON.stringify(audit).includes("secret"));
  } finally {
    na.stop();
    nb.stop();
    b.close();
    done();
    await r.close();
  }
});
