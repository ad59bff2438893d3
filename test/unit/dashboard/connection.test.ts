// The live channel's verb frames (message, answer, mailbox) go through the verb as every door
// calls it: the verb's schema refuses bad input with its own words, before the hive is reached.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { WebSocket } from "ws";
import { DashboardConnection } from "../../../src/dashboard/connection.js";
import type { HiveFeed } from "../../../src/dashboard/hive-feed.js";
import type { ServiceRoot } from "../../../src/service/root.js";

class FakeSocket extends EventEmitter {
  readonly sent: Record<string, unknown>[] = [];
  bufferedAmount = 0;
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.emit("close");
  }
}

const feed = { acquire() {}, release() {}, onUpdate: () => ({ dispose() {} }), latest: () => ({ snapshot: undefined, version: 0, events: [] }) } as unknown as HiveFeed;

/** A connection over a hive that records what reached it; the reply to frame `id`. */
async function replyTo(frame: Record<string, unknown>): Promise<{ reply: Record<string, unknown>; reached: string[] }> {
  const reached: string[] = [];
  const hive = new Proxy({}, { get: (_, method: string) => (...args: unknown[]) => (reached.push(method), { args }) });
  const root = { terminal: {}, hive } as unknown as ServiceRoot;
  const ws = new FakeSocket();
  new DashboardConnection(ws as unknown as WebSocket, root, feed, () => {});
  ws.emit("message", Buffer.from(JSON.stringify(frame)), false);
  for (let i = 0; i < 50 && !ws.sent.some((m) => m.t === "reply"); i++) await new Promise((r) => setTimeout(r, 2));
  ws.close();
  const reply = ws.sent.find((m) => m.t === "reply");
  assert.ok(reply, `no reply to ${JSON.stringify(frame)}: ${JSON.stringify(ws.sent)}`);
  return { reply, reached };
}

test("a message with an empty text gets hive_message's schema error, and the hive is not reached", async () => {
  const { reply, reached } = await replyTo({ t: "message", id: 7, to: { kind: "agent", name: "fa" }, text: "" });
  assert.equal(reply.id, 7);
  assert.equal(reply.ok, false);
  assert.match(String(reply.error), /^agents\.fa: /);
  assert.deepEqual(reached, []);
});

test("an answer or a mailbox for a name no agent can have gets the verb's schema error", async () => {
  const long = "a".repeat(65);
  const answer = await replyTo({ t: "answer", id: 1, agent: long, answer: "yes" });
  assert.match(String(answer.reply.error), /^agent: /);
  const badDigest = await replyTo({ t: "answer", id: 2, agent: "fa", answer: "yes", question: "not-a-digest" });
  assert.match(String(badDigest.reply.error), /^question: a question digest/);
  const mailbox = await replyTo({ t: "mailbox", id: 3, agent: long });
  assert.match(String(mailbox.reply.error), /^agent: /);
  assert.deepEqual([...answer.reached, ...badDigest.reached, ...mailbox.reached], []);
});

test("a good message reaches the hive as hive_message's input", async () => {
  const { reply, reached } = await replyTo({ t: "message", id: 4, to: { kind: "team", name: "red" }, text: "hi", confirm: true });
  assert.equal(reply.ok, true);
  assert.deepEqual(reached, ["message"]);
  assert.deepEqual((reply.result as { args: unknown[] }).args[0], { teams: { red: "hi" }, confirm: true });
});
