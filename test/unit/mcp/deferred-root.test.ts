import { mock, test } from "node:test";
import assert from "node:assert/strict";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { DeferredRoot, RootGate } from "../../../src/mcp/stdio/deferred-root.js";
import type { ServiceRoot } from "../../../src/service/root.js";

/** The client's side: messages pushed in as if read from stdin, answers collected. */
class Wire implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  readonly sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

function fixture() {
  let composed = 0;
  let release: () => void = () => undefined;
  const gateOpen = new Promise<void>((resolve) => (release = resolve));
  const fakeRoot = { terminal: { config: { ok: true }, hello() { return this === fakeRoot.terminal; } }, hive: {}, crew: {}, shutdown: async () => undefined };
  const root = new DeferredRoot(async () => {
    composed++;
    await gateOpen;
    return fakeRoot as unknown as ServiceRoot;
  });
  const wire = new Wire();
  const failures: unknown[] = [];
  const gate = new RootGate(wire, root, (error) => failures.push(error));
  const seen: string[] = [];
  gate.onmessage = (message) => seen.push("method" in message ? message.method : "?");
  return { root, wire, gate, seen, failures, composedCount: () => composed, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test("initialize, ping and tools/list pass before the root exists; the rest waits for it, in arrival order", async () => {
  const f = fixture();
  await f.gate.start();
  f.wire.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
  f.wire.receive({ jsonrpc: "2.0", method: "notifications/initialized" });
  f.wire.receive({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  f.wire.receive({ jsonrpc: "2.0", id: 3, method: "ping" });
  assert.deepEqual(f.seen, ["initialize", "tools/list", "ping"]);
  assert.equal(f.composedCount(), 0, "nothing needed the root yet");
  f.wire.receive({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "terminal_list", arguments: {} } });
  f.wire.receive({ jsonrpc: "2.0", id: 5, method: "tools/list" });
  await settle();
  assert.equal(f.composedCount(), 1, "a held request composes the root");
  assert.deepEqual(f.seen, ["initialize", "tools/list", "ping", "tools/list"]);
  f.release();
  await settle();
  assert.deepEqual(f.seen, ["initialize", "tools/list", "ping", "tools/list", "notifications/initialized", "tools/call"]);
  f.wire.receive({ jsonrpc: "2.0", id: 6, method: "resources/list" });
  assert.equal(f.seen.at(-1), "resources/list", "once composed, messages pass straight through");
  assert.equal(f.composedCount(), 1);
  await f.gate.close();
});

test("answering the first tool list composes the root; its views reach the composed parts", async () => {
  const f = fixture();
  await f.gate.start();
  const terminal = f.root.view().terminal as unknown as { config: { ok: boolean }; hello(): boolean };
  assert.throws(() => terminal.config, /used before it was composed/);
  f.wire.receive({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  assert.equal(f.composedCount(), 0);
  await f.gate.send({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
  assert.equal(f.composedCount(), 1);
  f.release();
  await f.root.load();
  assert.equal(terminal.config.ok, true);
  assert.equal(terminal.hello(), true, "methods run on the real object");
  await f.gate.close();
});

test("a root that fails to compose is reported once", async () => {
  const wire = new Wire();
  const failures: unknown[] = [];
  const root = new DeferredRoot(async () => {
    throw new Error("no tmux");
  });
  const gate = new RootGate(wire, root, (error) => failures.push(error));
  await gate.start();
  wire.receive({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} });
  wire.receive({ jsonrpc: "2.0", id: 2, method: "resources/list" });
  await settle();
  assert.deepEqual(failures.map((e) => (e as Error).message), ["no tmux"]);
  await gate.close();
});

const DISCOVER = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } } as const;

test("a silent client still gets the root composed after a moment; a first server/discover (a 2026 probe) composes nothing until a request needs it", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const silent = fixture();
    await silent.gate.start();
    mock.timers.tick(10_000);
    assert.equal(silent.composedCount(), 1, "the crew and restores start without a client call");

    const probe = fixture();
    await probe.gate.start();
    probe.wire.receive(DISCOVER);
    await probe.gate.send({ jsonrpc: "2.0", id: 1, result: {} });
    probe.wire.receive({ jsonrpc: "2.0", id: 2, method: "ping" });
    mock.timers.tick(10_000);
    assert.deepEqual(probe.seen, ["server/discover", "ping"]);
    assert.equal(probe.composedCount(), 0, "a probe process starts no tmux server and writes no state");
    probe.wire.receive({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "terminal_list", arguments: {} } });
    assert.equal(probe.composedCount(), 1, "a request that needs the root composes it");
    for (const f of [silent, probe]) {
      f.release();
      await f.gate.close();
    }
  } finally {
    mock.timers.reset();
  }
});

test("a discover after another first message leaves the timer alone", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const f = fixture();
    await f.gate.start();
    f.wire.receive({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    f.wire.receive(DISCOVER);
    mock.timers.tick(10_000);
    assert.equal(f.composedCount(), 1);
    f.release();
    await f.gate.close();
  } finally {
    mock.timers.reset();
  }
});
