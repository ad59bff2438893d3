// Issue 5's bench: the gRPC and HTTP MCP doors of `termhive serve`, real tmux, a private
// TERMHIVE_HOME. gRPC run "echo hi" ≤ 5 ms; WatchOutput ≥ 50 MB/s of raw bytes; HTTP MCP
// terminal_run "echo hi" ≤ 15 ms; 50 concurrent HTTP MCP clients × 20 commands: zero errors.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";
import { TermhiveClient } from "../src/grpc/client.js";
import { RUNS, loadavg, startServe, median, percentile, round, rssMb, timed, type Emit } from "./common.js";

const WATCH_BYTES = Number(process.env.BENCH_WATCH_MB ?? 16) * 1024 * 1024;
/** Comma-separated sections to run (run, watch, http, concurrent); all when unset. Profiling one section needs no other. */
const ONLY = process.env.BENCH_DOORS_ONLY?.split(",");
const wanted = (section: string) => !ONLY || ONLY.includes(section);

export async function benchDoors(emit: Emit): Promise<void> {
  const serve = await startServe();
  const { proc, info } = serve;
  const clients: { close(): Promise<void> | void }[] = [];
  try {
    const token = info.token_path ? readFileSync(info.token_path, "utf8").trim() : undefined;

    // gRPC run "echo hi", over the unix socket and over loopback TCP.
    const doors: [string, TermhiveClient][] = [["unix socket", new TermhiveClient({ socketPath: info.grpc_socket, clientName: "bench-unix" })]];
    if (info.grpc_port !== null) doors.push(["127.0.0.1 TCP", new TermhiveClient({ address: `127.0.0.1:${info.grpc_port}`, token, clientName: "bench-tcp" })]);
    for (const [, c] of doors) clients.push({ close: () => c.closeConnection() });
    for (const [door, c] of doors) {
      await c.ready(5000);
      if (!wanted("run")) continue;
      const session = `g-${door.split(" ")[0]}`.replace(/\W/g, "");
      await c.open({ name: session, command: "bash" });
      const samples: number[] = [];
      // 20 warm-up runs: the first door measured otherwise also pays for warming the server's
      // JIT (unix socket measured first read ~1 ms slower than TCP measured second).
      const WARM_UP = 20;
      for (let i = 0; i < RUNS + WARM_UP; i++) {
        const [ms, r] = await timed(() => c.run({ session, command: "echo hi" }));
        if (r.output !== "hi" || r.exit_code !== 0) throw new Error(`gRPC echo hi returned ${JSON.stringify(r)}`);
        if (i >= WARM_UP) samples.push(ms);
      }
      emit({ bench: `gRPC Run "echo hi" (${door})`, unit: "ms", median: round(median(samples)), p90: round(percentile(samples, 90)), runs: samples.length, target: "<= 5", method: `TermhiveClient.run round trip, output 'hi' exit 0 checked; ${WARM_UP} warm-up runs`, loadavg: loadavg() });
    }

    // WatchOutput throughput: raw bytes of a big output on the stream.
    if (wanted("watch")) {
      const c = doors[0]![1];
      await c.open({ name: "flood", command: "bash" });
      await c.run({ session: "flood", command: "true" });
      const stream = c.watchOutput({ sessions: ["flood"] });
      let bytes = 0;
      let first = 0;
      let last = 0;
      let tail = Buffer.alloc(0);
      const MARKER = "FLOOD-END";
      const done = (async () => {
        for await (const chunk of stream) {
          const now = performance.now();
          if (!first) first = now;
          last = now;
          bytes += chunk.data.length;
          // The marker is searched in the bytes (the previous chunk's end joined on, in case it is
          // split); the prompt that follows it can arrive in the same chunk.
          const seen = Buffer.concat([tail, chunk.data]);
          tail = seen.subarray(Math.max(0, seen.length - MARKER.length));
          if (seen.includes(MARKER)) {
            stream.cancel();
            break;
          }
        }
      })();
      await new Promise((r) => setTimeout(r, 100)); // the stream is attached
      const t0 = performance.now();
      // ${WATCH_BYTES} bytes of 'y\n' (the pty turns each \n into \r\n: 1.5× on the wire), then a marker.
      await c.send({ session: "flood", text: `head -c ${WATCH_BYTES} /dev/zero | tr '\\0' 'x' | fold -w 99; echo FLOOD-$((1))-END`.replace("FLOOD-$((1))-END", "FLOOD-E''ND") });
      const timeout = setTimeout(() => stream.cancel(), 120_000);
      await done;
      clearTimeout(timeout);
      stream.cancel();
      const mb = bytes / (1024 * 1024);
      // fold -w 99 makes lines of 99 bytes + "\r\n" from the pty; the marker line and the typed command add a little.
      const expected = WATCH_BYTES + 2 * Math.ceil(WATCH_BYTES / 99);
      emit({
        bench: "gRPC WatchOutput throughput", unit: "MB/s", value: round(mb / ((last - first) / 1000)), target: ">= 50",
        bytes, bytes_expected: expected, bytes_lost: Math.max(0, expected - bytes), seconds_first_to_last_chunk: round((last - first) / 1000), mb_per_s_from_send: round(mb / ((last - t0) / 1000)),
        method: `one session prints ${WATCH_BYTES} bytes (head -c /dev/zero | tr | fold -w 99: 100-byte lines) then a marker; bytes_lost > 0 means output never reached the stream (tmux pause-after: termhive fell behind); figure = raw bytes received on the WatchOutput stream / time from first to last chunk (mb_per_s_from_send: from the Send call)`,
        server_rss: rssMb(proc.pid!), loadavg: loadavg(),
      });
    }

    // HTTP MCP terminal_run "echo hi".
    const httpClient = async (name: string) => {
      const client = new Client({ name, version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      clients.push(client);
      return async (tool: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 })) as { structuredContent?: Record<string, any>; _meta?: Record<string, any>; isError?: boolean; content: { text: string }[] };
        if (r.isError) throw new Error(`${tool}: ${r.content[0]?.text}`);
        return (r._meta?.["termhive/result"] ?? r.structuredContent ?? {});
      };
    };
    if (wanted("http")) {
      const call = await httpClient("bench-http");
      await call("terminal_open", { name: "http1", command: "bash" });
      const samples: number[] = [];
      for (let i = 0; i < RUNS + 5; i++) {
        const [ms, r] = await timed(() => call("terminal_run", { session: "http1", command: "echo hi" }));
        if (r.output !== "hi" || r.exit_code !== 0) throw new Error(`HTTP echo hi returned ${JSON.stringify(r)}`);
        if (i >= 5) samples.push(ms);
      }
      emit({ bench: 'HTTP MCP terminal_run "echo hi"', unit: "ms", median: round(median(samples)), p90: round(percentile(samples, 90)), runs: samples.length, target: "<= 15", method: "MCP SDK Client over StreamableHTTPClientTransport with the bearer token, one connected client; callTool round trip; 5 warm-up runs", loadavg: loadavg() });
    }

    // 50 concurrent HTTP MCP clients × 20 commands each.
    if (wanted("concurrent")) {
      const CLIENTS = 50;
      const COMMANDS = 20;
      let errors = 0;
      let wrong = 0;
      const messages = new Set<string>();
      const calls = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => httpClient(`bench-c${i}`).catch((e: Error) => { errors++; messages.add(e.message.slice(0, 200)); return null; })));
      const [wall] = await timed(() => Promise.all(calls.map(async (call, i) => {
        if (!call) return;
        try {
          await call("terminal_open", { name: `c${i}`, command: "bash" });
        } catch (e) { errors++; messages.add((e as Error).message.slice(0, 200)); return; }
        for (let k = 0; k < COMMANDS; k++) {
          try {
            const r = await call("terminal_run", { session: `c${i}`, command: `echo c${i}-${k}` });
            if (r.output !== `c${i}-${k}` || r.exit_code !== 0) { wrong++; messages.add(`wrong: ${JSON.stringify(r).slice(0, 200)}`); }
          } catch (e) { errors++; messages.add((e as Error).message.slice(0, 200)); }
        }
      })));
      emit({
        bench: "50 concurrent HTTP MCP clients x 20 commands", unit: "errors", value: errors + wrong, errors, wrong_output: wrong, target: "0", wall_ms: round(wall), commands: CLIENTS * COMMANDS,
        error_samples: [...messages].slice(0, 5),
        method: "50 SDK clients connected concurrently, each opens its own bash session then runs 20 'echo cI-K' in sequence (all clients at once); wall = open + 20 runs for all; output checked",
        server_rss: rssMb(proc.pid!), loadavg: loadavg(),
      });
    }
  } finally {
    for (const c of clients) await Promise.resolve(c.close()).catch(() => {});
    await serve.stop();
  }
}
