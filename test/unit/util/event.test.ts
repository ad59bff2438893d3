import { test } from "node:test";
import assert from "node:assert/strict";
import { Emitter } from "../../../src/util/event.js";
import { DisposableStore } from "../../../src/util/lifecycle.js";

test("listeners hear fired values in subscription order until their subscription is disposed", () => {
  const emitter = new Emitter<number>();
  const heard: string[] = [];
  const a = emitter.event((n) => heard.push(`a${n}`));
  emitter.event((n) => heard.push(`b${n}`));
  emitter.fire(1);
  a.dispose();
  a.dispose(); // twice is harmless
  emitter.fire(2);
  assert.deepEqual(heard, ["a1", "b1", "b2"]);
  assert.equal(emitter.listenerCount, 1);
});

test("the same function subscribed twice is two subscriptions, each disposed on its own", () => {
  const emitter = new Emitter<void>();
  let calls = 0;
  const listener = () => calls++;
  const first = emitter.event(listener);
  emitter.event(listener);
  emitter.fire();
  first.dispose();
  emitter.fire();
  assert.equal(calls, 3);
});

test("a listener disposed by another during a fire still hears that fire, not the next", () => {
  const emitter = new Emitter<string>();
  const heard: string[] = [];
  let second: { dispose(): void } | undefined;
  emitter.event(() => second?.dispose());
  second = emitter.event((v) => heard.push(v));
  emitter.fire("x");
  emitter.fire("y");
  assert.deepEqual(heard, ["x"]);
});

test("a DisposableStore ends every subscription it holds at once", () => {
  const a = new Emitter<number>();
  const b = new Emitter<number>();
  const store = new DisposableStore();
  let sum = 0;
  store.add(a.event((n) => (sum += n)));
  store.add(b.event((n) => (sum += n)));
  a.fire(1);
  b.fire(2);
  store.dispose();
  a.fire(10);
  b.fire(20);
  assert.equal(sum, 3);
  assert.equal(a.listenerCount + b.listenerCount, 0);
});
