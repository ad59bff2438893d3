// Many HTTP MCP clients at once against one real `termhive serve`: runs, waits that match,
// waits that time out, idle waits, resource-update SSE traffic, and clients that drop a
// connection or their whole transport in the middle of a wait. Every call must come back
// (within its own timeout plus a grace) with the right answer, and the server must keep
// serving. Sized for CI by default; TERMHIVE_STRESS_CLIENTS / _ROUNDS make it a soak.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { serve, type Served } from "./serve-process.js";

const CLIENTS = Number(process.env.TERMHIVE_STRESS_CLIENTS ?? 8);
const ROUNDS = Number(process.env.TERMHIVE_STRESS_ROUNDS ?? 3);
/** How late past its own timeout a reply may be before it counts as lost. */
const GRACE_MS = 15_000;

type Result = { content: { text: string }[]; structuredContent?: Record<string, any>; _meta?: Record<string, any>; isError?: boolean };

interface Tally {
  calls: number;
  lost: string[];
  wrong: string[];
  progress: number;
  updates: number;
  dropped: number;
  slowestMs: number;
}

async function connect(s: Served, name: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } });
  await client.connect(transport);
  return { client, transport };
}

/**
 * One tool call with a watchdog: a reply later than the call's own timeout + GRACE_MS is
 * recorded as lost (with what it was), so a single missing reply shows up by name.
 */
async function call(tally: Tally, client: Client, label: string, name: string, args: Record<string, unknown>, timeoutS: number): Promise<Result | undefined> {
  tally.calls++;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<"lost">((resolve) => (timer = setTimeout(() => resolve("lost"), timeoutS * 1000 + GRACE_MS)));
  const reply = client.callTool({ name, arguments: args }, undefined, {
    // Asking for progress makes the server send notifications on the same SSE stream.
    onprogress: () => void tally.progress++,
    timeout: timeoutS * 1000 + GRACE_MS * 2,
  }) as Promise<Result>;
  const r = await Promise.race([reply, watchdog]).finally(() => clearTimeout(timer));
  tally.slowestMs = Math.max(tally.slowestMs, Date.now() - started - timeoutS * 1000);
  if (r === "lost") {
    tally.lost.push(`${label}: ${name} ${JSON.stringify(args)} (no reply after ${timeoutS}s + ${GRACE_MS / 1000}s)`);
    reply.catch(() => {});
    return undefined;
  }
  return r;
}

function expect(tally: Tally, label: string, r: Result | undefined, check: (data: Record<string, any>) => boolean): void {
  if (!r) return;
  if (r.isError || !check((r._meta?.["termhive/result"] ?? r.structuredContent ?? {}))) tally.wrong.push(`${label}: ${r.content.map((c) => c.text).join(" ").slice(0, 300)}`);
}

/** A raw tools/call POST on an existing MCP session, cut `afterMs` later (the client goes away mid-wait). */
function postAndDrop(s: Served, sessionId: string, id: number, args: Record<string, unknown>, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "terminal_wait", arguments: args, _meta: { progressToken: id } } });
    const req = request({
      host: "127.0.0.1",
      port: s.port,
      path: "/mcp",
      method: "POST",
      headers: {
        authorization: `Bearer ${s.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
      },
    });
    req.on("response", (res) => res.resume());
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.end(body);
    setTimeout(() => req.destroy(), afterMs);
  });
}

async function worker(s: Served, i: number, tally: Tally): Promise<void> {
  let { client, transport } = await connect(s, `stress-${i}`);
  const term = `st${i}`;
  const neighbour = `st${(i + 1) % CLIENTS}`;
  try {
    // Screen updates of a session arrive as notifications on the client's GET SSE stream.
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void tally.updates++);
    await client.subscribeResource({ uri: `termhive://session/${term}/screen` });

    for (let round = 0; round < ROUNDS; round++) {
      const tag = `c${i}r${round}`;
      const run = await call(tally, client, tag, "terminal_run", { session: term, command: `echo ${tag}-$((6*7))`, timeout_s: 20 }, 20);
      expect(tally, `${tag} run`, run, (d) => d.output === `${tag}-42` && d.exit_code === 0);

      // Waits that overlap: one that times out, one on a marker typed later, one for idle,
      // and a pattern wait on the neighbour's session (several waiters per session).
      const marker = `mark-${tag}`;
      const [timedOut, matched, idle, neighbourWait] = await Promise.all([
        call(tally, client, tag, "terminal_wait", { session: term, pattern: `never-${tag}`, timeout_s: 1.5 }, 1.5),
        call(tally, client, tag, "terminal_wait", { session: term, pattern: `^${marker}$`, timeout_s: 20 }, 20),
        call(tally, client, tag, "terminal_wait", { session: term, for: "idle", idle_ms: 300, timeout_s: 10 }, 10),
        call(tally, client, tag, "terminal_wait", { session: neighbour, for: "idle", idle_ms: 200, timeout_s: 5 }, 5),
        call(tally, client, tag, "terminal_send", { session: term, text: `sleep 0.3; echo ${marker}` }, 10),
      ]);
      expect(tally, `${tag} timeout-wait`, timedOut, (d) => d.reason === "timeout" && d.matched === false);
      expect(tally, `${tag} marker-wait`, matched, (d) => d.matched === true && d.match === marker);
      expect(tally, `${tag} idle-wait`, idle, (d) => d.reason === "idle" || d.reason === "timeout");
      expect(tally, `${tag} neighbour-wait`, neighbourWait, (d) => d.reason === "idle" || d.reason === "timeout");

      // A connection cut in the middle of a wait, on this client's own MCP session.
      tally.dropped++;
      await postAndDrop(s, transport.sessionId!, 10_000 + round, { session: term, pattern: `never-dropped-${tag}`, timeout_s: 3 }, 50 + ((i * 37 + round * 53) % 400));

      // Every other round, odd clients drop their whole transport mid-call and come back.
      if (i % 2 === 1 && round % 2 === 0) {
        tally.dropped++;
        const pending = client.callTool({ name: "terminal_wait", arguments: { session: term, pattern: `never-closed-${tag}`, timeout_s: 5 } }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100 + ((i * 29) % 300)));
        await transport.close();
        await pending;
        ({ client, transport } = await connect(s, `stress-${i}-again`));
      }
    }
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }
}

/**
 * A fetch under which the client stops hearing one POST stream after its first event while
 * the socket stays open (a half-open cut, as after a network change): the client resumes
 * with Last-Event-ID while the server still holds the old connection.
 */
function halfOpenFetch(): { fetch: typeof fetch; cutNext: () => void } {
  let cut = false;
  return {
    cutNext: () => void (cut = true),
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (!cut || init?.method !== "POST" || !res.body) return res;
      cut = false;
      const reader = res.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const { value, done } = await reader.read();
          if (done) return c.close();
          c.enqueue(value);
          c.error(new Error("simulated half-open cut"));
          // Keep reading so the server sees a healthy connection.
          void (async () => {
            while (!(await reader.read().catch(() => ({ done: true }))).done);
          })();
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    },
  };
}

describe("HTTP MCP under many concurrent clients", () => {
  let s: Served;
  before(async () => {
    s = await serve(["--no-grpc-tcp"]);
  });
  after(async () => {
    await s?.stop();
  });

  test(`${CLIENTS} clients × ${ROUNDS} rounds: every reply arrives and is right`, async () => {
    const tally: Tally = { calls: 0, lost: [], wrong: [], progress: 0, updates: 0, dropped: 0, slowestMs: 0 };
    // Sessions open one after another: this test is about the HTTP door, and opening dozens
    // of tmux windows at once is the backend's concern (and its own tests').
    const { client: opener } = await connect(s, "opener");
    for (let i = 0; i < CLIENTS; i++) {
      expect(tally, `open st${i}`, await call(tally, opener, "opener", "terminal_open", { name: `st${i}`, command: "bash" }, 20), (d) => d.name === `st${i}`);
    }
    await opener.close();
    assert.deepEqual(tally.wrong, []);
    const started = Date.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => worker(s, i, tally)));
    const summary = `${tally.calls} calls, ${tally.progress} progress notifications, ${tally.updates} resource updates, ${tally.dropped} mid-call disconnects, slowest reply ${tally.slowestMs} ms past its timeout, ${Date.now() - started} ms`;
    process.stderr.write(`http stress: ${summary}\n`);
    assert.deepEqual(tally.lost, [], summary);
    assert.deepEqual(tally.wrong, [], summary);
    assert.ok(tally.progress > 0, "no progress notification arrived");

    // Still serving, and the dropped sessions are gone (terminateSession + transport closes).
    const { client } = await connect(s, "after");
    const r = (await client.callTool({ name: "terminal_run", arguments: { session: "st0", command: "echo still-$((1+1))" } })) as Result;
    assert.equal(r._meta?.["termhive/result"]?.output, "still-2");
    await client.close();
    assert.doesNotMatch(s.stderr(), /termhive serve: .*Error/, s.stderr());
  });
  test(`${CLIENTS} clients lose their wait's stream half-open: each reply still arrives`, async () => {
    const tally: Tally = { calls: 0, lost: [], wrong: [], progress: 0, updates: 0, dropped: 0, slowestMs: 0 };
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const cutter = halfOpenFetch();
        const client = new Client({ name: `half-open-${i}`, version: "1.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(s.url), { fetch: cutter.fetch, requestInit: { headers: { Authorization: `Bearer ${s.token}` } } });
        await client.connect(transport);
        try {
          // 4 s: longer than the SDK client's two resume attempts (after ~1 s and ~2.5 s), so
          // the reply comes only if a resume is accepted while the old connection is open.
          cutter.cutNext();
          tally.dropped++;
          const r = await call(tally, client, `half-open c${i}`, "terminal_wait", { session: `st${i}`, pattern: `never-half-open-${i}`, timeout_s: 4 }, 4);
          expect(tally, `half-open c${i}`, r, (d) => d.reason === "timeout");
        } finally {
          await transport.terminateSession().catch(() => {});
          await client.close().catch(() => {});
        }
      }),
    );
    assert.deepEqual(tally.lost, []);
    assert.deepEqual(tally.wrong, []);
  });
});
