import { test } from "node:test";
import assert from "node:assert/strict";
import { DisposableStore, EndingOrder, toDisposable } from "../../../src/util/lifecycle.js";

test("a part added to a store already disposed is disposed at once, and the store keeps nothing", () => {
  const store = new DisposableStore();
  const ended: string[] = [];
  store.add(toDisposable(() => ended.push("early")));
  store.dispose();
  assert.deepEqual(ended, ["early"]);
  const late = store.add(toDisposable(() => ended.push("late")));
  assert.deepEqual(ended, ["early", "late"]);
  store.dispose();
  late.dispose();
  assert.deepEqual(ended, ["early", "late"]); // each part ends once
  assert.equal(store.isDisposed, true);
});

test("a store ends its parts in the order they were added", () => {
  const store = new DisposableStore();
  const ended: number[] = [];
  for (const n of [1, 2, 3]) store.add(toDisposable(() => ended.push(n)));
  store.dispose();
  assert.deepEqual(ended, [1, 2, 3]);
});

test("an ending order ends its parts in the written order, whatever order they were set in, awaiting each", async () => {
  const ending = new EndingOrder(["first", "second", "third", "never set"]);
  const ended: string[] = [];
  const part = (name: string, ms = 0) => ({ dispose: () => new Promise<void>((resolve) => setTimeout(() => (ended.push(name), resolve()), ms)) });
  ending.set("third", part("third"));
  ending.set("first", part("first", 20));
  ending.set("second", { dispose: () => void ended.push("second") });
  ending.set("never set", undefined);
  await ending.dispose();
  assert.deepEqual(ended, ["first", "second", "third"]);
});

test("one part failing to end does not keep the later ones open; the first failure is the result", async () => {
  const ending = new EndingOrder(["a", "b", "c"]);
  const ended: string[] = [];
  ending.set("a", { dispose: () => { throw new Error("a broke"); } });
  ending.set("b", { dispose: async () => { throw new Error("b broke"); } });
  ending.set("c", { dispose: () => void ended.push("c") });
  await assert.rejects(ending.dispose(), /a broke/);
  assert.deepEqual(ended, ["c"]);
});

test("an ending order ends once; a part set after it ended is ended at once; names outside the order are refused", async () => {
  const ending = new EndingOrder(["x", "y"]);
  let ends = 0;
  ending.set("x", { dispose: () => void ends++ });
  const first = ending.dispose();
  assert.equal(ending.dispose(), first);
  await first;
  ending.set("y", { dispose: () => void ends++ });
  assert.equal(ends, 2);
  assert.throws(() => ending.set("z" as "x", { dispose: () => undefined }), /no place in the ending order/);
  const twice = new EndingOrder(["x"]);
  twice.set("x", { dispose: () => undefined });
  assert.throws(() => twice.set("x", { dispose: () => undefined }), /set already/);
});
