// The gRPC doors under hostile or careless load (issue 20 §2), against the built `termhive
// serve` through a real grpc-js client: a call without the token is refused before its message
// is read, concurrent calls are capped, unauthenticated streams get UNAUTHENTICATED. Memory
// is the server's own, from /proc/<pid>/status (VmHWM: its peak RSS).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { loadTermhiveProto } from "../../src/grpc/proto.js";
import { TermhiveClient } from "../../src/index.js";
import { serve, type Served } from "./serve-process.js";

const MB = 1024 * 1024;
const MAX_CALLS = 12;

/** Starts the peak (VmHWM) again from the current RSS (Linux ≥ 4.0), so one test's peak is its own. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** The server's resident memory now and at its peak, in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

type Callback = (error: grpc.ServiceError | null, value?: unknown) => void;
type RawClient = grpc.Client & Record<string, (...args: unknown[]) => any>;

function rawClient(address: string): RawClient {
  const { Client } = loadTermhiveProto("client");
  return new Client(address, grpc.credentials.createInsecure(), {
    "grpc.max_send_message_length": -1,
    "grpc.max_receive_message_length": -1,
  }) as unknown as RawClient;
}

function unary(client: RawClient, method: string, request: object, metadata = new grpc.Metadata()): Promise<grpc.ServiceError | null> {
  return new Promise((resolve) => client[method]!(request, metadata, ((error) => resolve(error)) as Callback));
}

/** How a server stream ended: its status code, or "no answer" when the server never ends it. */
function streamEnd(call: grpc.ClientReadableStream<unknown>, patienceMs = 60_000): Promise<grpc.status | "no answer"> {
  return new Promise((resolve) => {
    // A guard against a hang, not a timing target: the answers come in milliseconds.
    const guard = setTimeout(() => resolve("no answer"), patienceMs);
    const done = (code: grpc.status) => (clearTimeout(guard), resolve(code));
    call.on("error", (error: grpc.ServiceError) => done(error.code));
    call.on("status", (s: grpc.StatusObject) => done(s.code));
  });
}

describe("gRPC limits", () => {
  let s: Served;
  let tcp: RawClient;
  let local: RawClient;
  let c: TermhiveClient;
  before(async () => {
    s = await serve([], undefined, { TERMHIVE_GRPC_MAX_CALLS: String(MAX_CALLS) });
    tcp = rawClient(`127.0.0.1:${s.grpcPort}`);
    local = rawClient(`unix:${s.grpcSocket}`);
    c = new TermhiveClient({ socketPath: s.grpcSocket, clientName: "grpc-limits" });
    await c.ready();
    await c.open({ name: "w", command: "bash" });
  });
  after(async () => {
    // closeClient: the generated client's own `close` is the Close RPC.
    if (tcp) grpc.Client.prototype.close.call(tcp);
    if (local) grpc.Client.prototype.close.call(local);
    c?.closeConnection();
    await s?.stop();
  });

  test("12 concurrent 60 MB calls without the token are refused UNAUTHENTICATED before their message is read", async () => {
    resetPeak(s.proc.pid!);
    const before = memory(s.proc.pid!);
    const text = "x".repeat(60 * MB);
    const wrong = new grpc.Metadata();
    wrong.set("authorization", "Bearer not-the-token");
    const errors = await Promise.all(Array.from({ length: 12 }, (_, i) => unary(tcp, "Send", { session: "w", text }, i % 2 ? wrong : new grpc.Metadata())));
    for (const error of errors) assert.equal(error?.code, grpc.status.UNAUTHENTICATED, error?.message);
    const after = memory(s.proc.pid!);
    // Unread, the 720 MB cost nothing; read and decoded (before this fix) they took ~1.6 GB.
    assert.ok(after.peak - before.rss < 150, `the server grew from ${before.rss.toFixed(0)} MB to a peak of ${after.peak.toFixed(0)} MB`);
    // And the pane got none of it.
    assert.doesNotMatch((await c.read({ session: "w", mode: "all" })).output, /xxxxxxxx/);
  });

  test("streams without the token are answered UNAUTHENTICATED", async () => {
    for (const method of ["WatchOutput", "WatchEvents"]) {
      const call = tcp[method]!({ sessions: [] }, new grpc.Metadata()) as grpc.ClientReadableStream<unknown>;
      call.on("data", () => assert.fail(`${method} sent data without the token`));
      assert.equal(await streamEnd(call), grpc.status.UNAUTHENTICATED, method);
    }
    // With the token the same stream is served.
    const auth = new grpc.Metadata();
    auth.set("authorization", `Bearer ${s.token}`);
    const call = tcp.WatchEvents!({ sessions: [] }, auth) as grpc.ClientReadableStream<unknown>;
    const ended = streamEnd(call);
    const first = new Promise((resolve) => call.once("data", resolve));
    await c.open({ name: "ev" });
    assert.ok(await first);
    call.cancel();
    assert.equal(await ended, grpc.status.CANCELLED);
  });

  test(`at most ${MAX_CALLS} calls at once per door: the next is refused RESOURCE_EXHAUSTED without being read, and served once one ends`, async () => {
    const held = Array.from({ length: MAX_CALLS }, () => unary(local, "Wait", { session: "w", pattern: "never-printed-here", for: "pattern", timeout_s: 60 }));
    // The held calls are in once the server sees them waiting: a fifth is then refused.
    let refused: grpc.ServiceError | null = null;
    for (let i = 0; i < 200 && refused?.code !== grpc.status.RESOURCE_EXHAUSTED; i++) {
      refused = await unary(local, "List", {});
      if (refused === null) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(refused?.code, grpc.status.RESOURCE_EXHAUSTED, refused?.message);
    assert.match(refused!.details, /calls at once/);
    // This door is full: the TCP door (its own count) releases them.
    const auth = new grpc.Metadata();
    auth.set("authorization", `Bearer ${s.token}`);
    assert.equal(await unary(tcp, "Send", { session: "w", text: "echo never-printed-here", enter: true }, auth), null);
    for (const error of await Promise.all(held)) assert.equal(error, null);
    assert.equal(await unary(local, "List", {}), null, "served again once the held calls ended");
  });
});
