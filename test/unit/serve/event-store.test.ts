// The HTTP door's bounded SSE event store: what a reconnecting client gets back.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { BoundedEventStore } from "../../../src/serve/event-store.js";

const note = (n: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: n } });

async function replay(store: BoundedEventStore, lastEventId: string): Promise<{ stream: string; ids: string[] }> {
  const ids: string[] = [];
  const stream = await store.replayEventsAfter(lastEventId, { send: async (id) => void ids.push(id) });
  return { stream, ids };
}

test("replays only the same stream's events after the given id", async () => {
  const store = new BoundedEventStore();
  const a1 = await store.storeEvent("a", note(1));
  await store.storeEvent("b", note(2));
  const a3 = await store.storeEvent("a", note(3));
  assert.deepEqual(await replay(store, a1), { stream: "a", ids: [a3] });
});

test("a chatty stream trims its own events, not another stream's", async () => {
  const store = new BoundedEventStore(100, 50);
  const quiet = await store.storeEvent("post", note(0));
  const reply = await store.storeEvent("post", note(1));
  for (let i = 0; i < 1000; i++) await store.storeEvent("_GET_stream", note(i));
  assert.deepEqual((await replay(store, quiet)).ids, [reply]);
});

test("an evicted id still re-attaches to its stream and replays what is left", async () => {
  const store = new BoundedEventStore(10, 10);
  const first = await store.storeEvent("post-1", note(0));
  for (let i = 0; i < 20; i++) await store.storeEvent(`other-${i}`, note(i));
  const later = await store.storeEvent("post-1", note(1));
  assert.deepEqual(await replay(store, first), { stream: "post-1", ids: [later] });
});

test("ids this store never issued are refused", async () => {
  const store = new BoundedEventStore();
  await store.storeEvent("a", note(1));
  await assert.rejects(replay(store, "a_zz"), /unknown Last-Event-ID/);
  await assert.rejects(replay(store, "garbage"), /unknown Last-Event-ID/);
});

test("stays within its bound", async () => {
  const store = new BoundedEventStore(100, 50);
  const ids: string[] = [];
  for (let i = 0; i < 1000; i++) ids.push(await store.storeEvent(`s${i % 7}`, note(i)));
  let kept = 0;
  for (let s = 0; s < 7; s++) kept += (await replay(store, `s${s}_1`)).ids.length;
  assert.equal(kept, 100);
});
