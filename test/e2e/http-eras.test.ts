// Both MCP protocol eras on the HTTP door (issue 34 §1, §2): a real `termhive serve`, the 1.32
// SDK client (2025-11-25, a sessionful Mcp-Session-Id) and the v2 client SDK (2026-07-28,
// stateless, probing with server/discover) make the same calls and get the same answers; every
// guard stands in front of the 2026 side too; TERMHIVE_MCP_ERA forces one era; two 2026 clients
// keep their own read cursors although no request carries a session.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from "@modelcontextprotocol/client";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RESULT_META } from "./harness.js";
import { until } from "../until.js";
import { serve, type Served } from "./serve-process.js";
import { exercise, sameInBothEras } from "./era-suite.js";

const META_2026 = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

function auth(s: Served, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(s.token ? { Authorization: `Bearer ${s.token}` } : {}), ...extra };
}

async function modern(s: Served, name = "termhive-e2e-2026", headers: Record<string, string> = {}): Promise<Client2026> {
  const client = new Client2026({ name, version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new Http2026(new URL(s.url), { requestInit: { headers: auth(s, headers) } }));
  return client;
}

async function legacy(s: Served): Promise<Client2025> {
  const client = new Client2025({ name: "termhive-e2e-2025", version: "1.0.0" });
  await client.connect(new Http2025(new URL(s.url), { requestInit: { headers: auth(s) } }));
  return client;
}

/** A 2026 request as a client sends it: the envelope in `_meta` and the standard headers. */
function raw2026(s: Served, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  return fetch(s.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...headers },
    body: body ?? JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META_2026 } }),
  });
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text).join("\n");
const meta = (result: unknown) => (result as { _meta: Record<string, Record<string, any>> })._meta[RESULT_META]!;

describe("both MCP eras on HTTP (termhive serve)", () => {
  let s: Served;
  let now: Client2026;
  let old: Client2025;
  before(async () => {
    s = await serve(["--no-grpc-tcp"]);
    now = await modern(s);
    old = await legacy(s);
  });
  after(async () => {
    await now?.close().catch(() => undefined);
    await old?.close().catch(() => undefined);
    await s?.stop();
  });

  test("each client is in its own era; only the 2025 one holds an HTTP session", () => {
    assert.equal(now.getNegotiatedProtocolVersion(), "2026-07-28");
    assert.equal(now.getProtocolEra(), "modern");
    assert.ok((old.transport as Http2025).sessionId, "the 2025 client got an Mcp-Session-Id");
  });

  test("the tool list, instructions, prompts and result shapes are the same in both eras", async () => {
    const before = await exercise(old);
    const after = await exercise(now);
    sameInBothEras(before, after);
    // One process, both eras: each sees the session the other opened.
    const listed = JSON.parse((after.sessions.contents[0] as { text: string }).text) as { sessions: { name: string }[] };
    assert.ok(listed.sessions.some((x) => x.name === meta(before.opened).name), JSON.stringify(listed));
  });

  test("progress notifications reach the caller in both eras while a run waits", async () => {
    const call = { name: "terminal_run", arguments: { command: "sleep 1.3; echo slept" } };
    for (const era of ["2025", "2026"]) {
      const seen: { progress: number; message?: string }[] = [];
      const options = { onprogress: (p: { progress: number; message?: string }) => seen.push(p), timeout: 60_000 };
      const result = era === "2025" ? await old.callTool(call, undefined, options) : await now.callTool(call, options);
      assert.match(text(result), /^slept\n/, era);
      assert.ok(seen.length >= 1, `${era}: no progress notification`);
      assert.match(seen[0]!.message ?? "", /waiting for sleep 1\.3; echo slept/);
    }
  });

  test("a 2026 request whose stream the client closes ends; the command it started keeps running", async () => {
    const opened = meta(await now.callTool({ name: "terminal_open", arguments: {} })).name as string;
    const stop = new AbortController();
    // Closed once the run is known to be waiting (its first progress), not after a guessed time.
    const call = now.callTool({ name: "terminal_run", arguments: { session: opened, command: "sleep 4; echo finished-anyway" } }, { signal: stop.signal, onprogress: () => stop.abort() });
    await assert.rejects(call, /abort/i);
    // The server stopped waiting when the stream closed (its audit says so), the command ran on.
    const cancelled = () => readFileSync(join(s.home, "audit.jsonl"), "utf8").split("\n").filter((line) => line.includes('"event":"cancelled"')).length;
    assert.equal(await until("the server to record the cancel", () => (cancelled() === 1 ? true : undefined)), true);
    const waited = await now.callTool({ name: "terminal_wait", arguments: { session: opened, for: "pattern", pattern: "^finished-anyway$", timeout_s: 30 } });
    assert.match(text(waited), /^finished-anyway$/m);
    assert.match(text(await now.callTool({ name: "terminal_run", arguments: { session: opened, command: "echo next" } })), /^next\n\[exit 0/);
  });

  test("a 2026 request passes the same guards: bearer (401), Origin (403), body size (413)", async () => {
    const noToken = await raw2026(s, "tools/list", {});
    assert.equal(noToken.status, 401);
    const foreign = await raw2026(s, "tools/list", {}, auth(s, { origin: "http://evil.example" }));
    assert.equal(foreign.status, 403);
    const huge = await raw2026(s, "tools/list", {}, auth(s), JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META_2026, pad: "x".repeat(5 * 1024 * 1024) } }));
    assert.equal(huge.status, 413);
    const fine = await raw2026(s, "tools/list", {}, auth(s));
    assert.equal(fine.status, 200);
    assert.equal(fine.headers.get("mcp-session-id"), null, "a 2026 answer opens no session");
    const listed = (await fine.json()) as { result: { tools: unknown[] } };
    assert.equal(listed.result.tools.length, 31);
  });

  test("2025 sessions keep their behaviour: an unknown Mcp-Session-Id is 404", async () => {
    const r = await fetch(s.url, {
      method: "POST",
      headers: { ...auth(s), "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": "no-such-session" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    assert.equal(r.status, 404);
  });

  test("two 2026 clients keep their own read cursors: one's reads do not take new output from the other", async () => {
    const a = await modern(s, "reader-a");
    const b = await modern(s, "reader-b");
    try {
      const opened = meta(await a.callTool({ name: "terminal_open", arguments: {} })).name as string;
      await a.callTool({ name: "terminal_run", arguments: { session: opened, command: "echo first-line" } });
      await a.callTool({ name: "terminal_run", arguments: { session: opened, command: "echo second-line" } });
      // A ran both (its cursor is past them); B never read this session: all of it is new to B.
      const bReads = text(await b.callTool({ name: "terminal_read", arguments: { session: opened, mode: "new" } }));
      assert.match(bReads, /first-line/);
      assert.match(bReads, /second-line/);
      const aReads = text(await a.callTool({ name: "terminal_read", arguments: { session: opened, mode: "new" } }));
      // (What A may still get is the prompt printed after its run ended.)
      assert.doesNotMatch(aReads, /first-line|second-line/);
      // B's read moved only B's cursor: a third line is new to both, once each.
      await b.callTool({ name: "terminal_send", arguments: { session: opened, text: "echo third-line\n" } });
      await b.callTool({ name: "terminal_wait", arguments: { session: opened, for: "pattern", pattern: "^third-line$" } });
      assert.match(text(await a.callTool({ name: "terminal_read", arguments: { session: opened, mode: "new" } })), /third-line/);
      assert.doesNotMatch(text(await b.callTool({ name: "terminal_read", arguments: { session: opened, mode: "new" } })), /third-line/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("two instances of one client keep their own cursors when each sends its own X-Termhive-Client", async () => {
    const a = await modern(s, "same-client", { "X-Termhive-Client": "window-1" });
    const b = await modern(s, "same-client", { "X-Termhive-Client": "window-2" });
    try {
      const opened = meta(await a.callTool({ name: "terminal_open", arguments: {} })).name as string;
      await a.callTool({ name: "terminal_run", arguments: { session: opened, command: "echo only-once" } });
      assert.match(text(await b.callTool({ name: "terminal_read", arguments: { session: opened, mode: "new" } })), /only-once/);
      assert.doesNotMatch(text(await a.callTool({ name: "terminal_read", arguments: { session: opened, mode: "new" } })), /only-once/);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("TERMHIVE_MCP_ERA on HTTP", () => {
  test("2025: a probing 2026 client falls back to initialize and gets a session", async () => {
    const s = await serve(["--no-grpc-tcp"], undefined, { TERMHIVE_MCP_ERA: "2025" });
    try {
      const client = await modern(s);
      try {
        assert.equal(client.getProtocolEra(), "legacy");
        assert.equal((await client.listTools()).tools.length, 31);
      } finally {
        await client.close();
      }
    } finally {
      await s.stop();
    }
  });

  test("2026: a 2025 client is refused, a 2026 one served", async () => {
    const s = await serve(["--no-grpc-tcp"], undefined, { TERMHIVE_MCP_ERA: "2026" });
    try {
      await assert.rejects(legacy(s), /protocol version|2026-07-28|unsupported/i);
      const client = await modern(s);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
        assert.match(text(await client.callTool({ name: "terminal_run", arguments: { command: "echo forced-2026" } })), /^forced-2026\n/);
      } finally {
        await client.close();
      }
    } finally {
      await s.stop();
    }
  });
});
