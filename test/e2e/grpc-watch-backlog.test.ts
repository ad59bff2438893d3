// WatchOutput streams whose client stops reading, over a flooding pane (issue 20 §2): each
// stream's backlog is capped (TERMHIVE_GRPC_WATCH_BACKLOG_MB), what grpc-js and HTTP/2 hold
// for it included, so the server's memory stays bounded however many such streams there are;
// the streams are ended RESOURCE_EXHAUSTED with a message that says why, and a stream that
// reads along gets every byte. Against the built `termhive serve`, real grpc-js clients.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import * as http2 from "node:http2";
import { loadTermhiveProto } from "../../src/grpc/proto.js";
import { connect } from "node:net";
import { TermhiveClient } from "../../src/index.js";
import { serve, type Served } from "./serve-process.js";

const MB = 1024 * 1024;
const BACKLOG_MB = 4;
const STALLED = 8;
const FLOOD_MB = 32;
const MAX_WATCHES = STALLED + 1;

interface GrpcStatus {
  code: number;
  details: string;
}

/**
 * A WatchOutput call whose client reads only when told: a raw HTTP/2 stream, paused, on its
 * own connection, so flow control stops the server's bytes at its window. (grpc-js as a
 * client keeps reading into its own memory whether the application reads or not.)
 */
function stalledWatch(socketPath: string, session: string) {
  const connection = http2.connect("http://localhost", { createConnection: () => connect(socketPath) });
  const name = Buffer.from(session, "utf8");
  const request = Buffer.concat([Buffer.from([0x0a, name.length]), name]); // field 1 (sessions), one string
  const frame = Buffer.alloc(5 + request.length);
  frame.writeUInt32BE(request.length, 1);
  request.copy(frame, 5);
  const stream = connection.request({ ":method": "POST", ":path": "/termhive.v1.Termhive/WatchOutput", "content-type": "application/grpc", te: "trailers" });
  stream.end(frame);
  stream.pause();
  let bytes = 0;
  let tail = "";
  const seen = new Set<() => void>();
  stream.on("data", (d: Buffer) => {
    bytes += d.length;
    tail = (tail + d.toString("latin1")).slice(-200);
    for (const check of seen) check();
  });
  const served = new Promise<void>((resolve) => stream.once("response", () => resolve()));
  const ended = new Promise<GrpcStatus>((resolve) =>
    stream.once("trailers", (t) => resolve({ code: Number(t["grpc-status"]), details: decodeURIComponent(String(t["grpc-message"] ?? "")) })),
  );
  /** Reads until `done()` holds, then stops reading again. */
  const readWhile = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return;
        stream.pause();
        seen.delete(check);
        resolve();
      };
      seen.add(check);
      stream.resume();
    });
  return {
    served,
    get bytes() {
      return bytes;
    },
    /** Reads `n` more bytes (at least), then stops. */
    readMore: (n: number) => {
      const until = bytes + n;
      return readWhile(() => bytes >= until);
    },
    /** Reads again until its status (what the server still held for it comes first), or until `marker` shows it is still live. */
    async drain(marker?: string): Promise<{ bytes: number; status: GrpcStatus | "live" }> {
      const from = bytes;
      const live = marker ? readWhile(() => tail.includes(marker)).then(() => "live" as const) : new Promise<never>(() => {});
      if (!marker) stream.resume();
      const status = await Promise.race([ended, live]);
      return { bytes: bytes - from, status };
    },
    close: () => connection.destroy(),
  };
}

/** The server's resident memory now and at its peak (VmHWM), in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

function rawClient(address: string): grpc.Client & Record<string, (...args: unknown[]) => any> {
  const { Client } = loadTermhiveProto("client");
  return new Client(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & Record<string, (...args: unknown[]) => any>;
}

describe("gRPC WatchOutput backlog", () => {
  let s: Served;
  let c: TermhiveClient;
  let raw: ReturnType<typeof rawClient>;
  const stalled: ReturnType<typeof stalledWatch>[] = [];
  before(async () => {
    s = await serve([], undefined, { TERMHIVE_GRPC_WATCH_BACKLOG_MB: String(BACKLOG_MB), TERMHIVE_GRPC_MAX_WATCHES: String(MAX_WATCHES) });
    c = new TermhiveClient({ socketPath: s.grpcSocket, clientName: "grpc-backlog" });
    await c.ready();
    await c.open({ name: "flood", command: "bash" });
    raw = rawClient(`unix:${s.grpcSocket}`);
  });
  after(async () => {
    for (const st of stalled) st.close();
    // The generated client's own `close` is the Close RPC.
    if (raw) grpc.Client.prototype.close.call(raw);
    c?.closeConnection();
    await s?.stop();
  });

  /** A stream that reads along: counts the flood's bytes until a marker. */
  function readingWatch() {
    const call = c.watchOutput({ sessions: ["flood"] });
    const reader = call[Symbol.asyncIterator]();
    let tail = "";
    let zs = 0;
    return {
      call,
      async readUntil(marker: string): Promise<number> {
        for (;;) {
          const next = await reader.next();
          if (next.done) throw new Error(`the reading stream ended before ${marker}`);
          const chunk = next.value.data.toString("latin1");
          for (const run of chunk.match(/Z+/g) ?? []) zs += run.length;
          tail = (tail + chunk).slice(-200);
          if (tail.includes(marker)) {
            const seen = zs;
            zs = 0;
            tail = "";
            return seen;
          }
        }
      },
    };
  }

  /** Floods the pane with `bytes` of 'Z' (written '\\132': the typed line holds none); resolves once `reader` saw all of it. */
  async function flood(reader: ReturnType<typeof readingWatch>, bytes: number, marker: string): Promise<void> {
    const run = c.run({ session: "flood", command: `head -c ${bytes} /dev/zero | tr '\\0' '\\132' | fold -w 199; echo ${marker}-$((1+1))`, timeout_s: 300 });
    assert.equal(await reader.readUntil(`${marker}-2`), bytes, "the reading stream got every byte");
    assert.equal((await run).exit_code, 0);
  }

  /** Runs commands in the pane until every stream named has had its first message (its response headers). */
  async function untilServed(streams: ReturnType<typeof stalledWatch>[]): Promise<void> {
    const served = Promise.all(streams.map((st) => st.served));
    let all = false;
    void served.then(() => (all = true));
    while (!all) {
      await c.run({ session: "flood", command: "echo tick" });
      await Promise.race([served, new Promise((r) => setTimeout(r, 200))]);
    }
  }

  test(`${STALLED} streams that stop reading during a ${FLOOD_MB} MB flood are ended RESOURCE_EXHAUSTED, the server's memory bounded; a reading stream gets every byte; the watch-stream cap holds`, { timeout: 240_000 }, async () => {
    const pid = s.proc.pid!;
    const reading = readingWatch();
    // Warm up: one flood with the reading stream alone (buffers, transcript, screen at their size).
    await flood(reading, FLOOD_MB * MB, "warm");
    for (let i = 0; i < STALLED; i++) stalled.push(stalledWatch(s.grpcSocket, "flood"));
    await untilServed(stalled);

    // The door serves MAX_WATCHES streams: one more is refused, a plain call is still served.
    const extra = raw.WatchOutput!({ sessions: ["flood"] }) as grpc.ClientReadableStream<unknown>;
    const answer = new Promise<grpc.ServiceError | "served">((resolve) => {
      extra.once("error", resolve);
      extra.once("metadata", () => resolve("served"));
    });
    // Served, it would have its first message with the next output.
    let refused: grpc.ServiceError | "served" | null = null;
    while (refused === null) {
      await c.run({ session: "flood", command: "echo tick" });
      refused = await Promise.race([answer, new Promise<null>((r) => setTimeout(() => r(null), 200))]);
    }
    if (refused === "served") {
      extra.cancel();
      assert.fail(`a watch stream past TERMHIVE_GRPC_MAX_WATCHES=${MAX_WATCHES} was served`);
    }
    assert.equal(refused.code, grpc.status.RESOURCE_EXHAUSTED, refused.details);
    assert.match(refused.details, /too many watch streams at once \(\d+, TERMHIVE_GRPC_MAX_WATCHES\)/);
    assert.ok((await c.list()).sessions.some((x) => x.name === "flood"));

    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    const start = memory(pid);
    await flood(reading, FLOOD_MB * MB, "done");
    const during = memory(pid);
    const bound = STALLED * (BACKLOG_MB + 2) + 40;
    assert.ok(during.peak - start.rss < bound, `the server grew from ${start.rss.toFixed(0)} MB to a peak of ${during.peak.toFixed(0)} MB (bound +${bound} MB)`);

    // The stalled streams read again: the little the server still held for each, then the status.
    for (const { bytes, status } of await Promise.all(stalled.map((st) => st.drain()))) {
      assert.notEqual(status, "live");
      if (status === "live") continue;
      assert.equal(status.code, grpc.status.RESOURCE_EXHAUSTED, status.details);
      assert.match(status.details, /^the watcher fell \d+ MB behind the output it asked for; the stream was ended/);
      assert.ok(bytes < 2.5 * MB, `${bytes} bytes were still held for an ended stream`);
    }
    for (const st of stalled.splice(0)) st.close();
    // Their places are free again.
    const again = readingWatch();
    await c.run({ session: "flood", command: "echo again-$((1+1))" });
    await again.readUntil("again-2");
    again.call.cancel();
    reading.call.cancel();
  });

  test("a stream that reads a little, then stops, is ended once what grpc-js holds for it and what waits pass the cap together", { timeout: 120_000 }, async () => {
    const reading = readingWatch();
    const slow = stalledWatch(s.grpcSocket, "flood");
    stalled.push(slow);
    await untilServed([slow]);
    // Under the cap while it does not read; it reads part, so merged messages go out to it...
    await flood(reading, 3 * MB, "first");
    await slow.readMore(1.5 * MB);
    // ...and stops: what waits for it now passes the cap only when counted with what grpc-js holds.
    await flood(reading, 3.5 * MB, "second");
    const drained = slow.drain("third-2");
    await c.run({ session: "flood", command: "echo third-$((1+1))" });
    const { bytes, status } = await drained;
    assert.notEqual(status, "live", "the stream was still served past its cap");
    if (status === "live") return;
    assert.equal(status.code, grpc.status.RESOURCE_EXHAUSTED, status.details);
    assert.ok(bytes < 2.5 * MB, `${bytes} bytes were still held for an ended stream`);
    reading.call.cancel();
  });
});
