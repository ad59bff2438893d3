// MCP over Streamable HTTP through the SDK client, and the HTTP door's refusals.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI } from "./harness.js";
import { serve, type Served } from "./serve-process.js";

type Result = { content: { text: string }[]; structuredContent?: Record<string, any>; _meta?: Record<string, any>; isError?: boolean };

async function connect(s: Served, name: string): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
  return client;
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join("\n")}`);
  return (r._meta?.["termhive/result"] ?? r.structuredContent ?? {});
}

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });

/** A raw request (node:http lets a test set Host, which fetch forbids). */
function raw(s: Served, headers: Record<string, string>, body = INIT): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: s.port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    // A reset after the response (the server closing a refused request) is fine; before it, it is the failure.
    let answered = false;
    req.on("response", () => (answered = true));
    req.on("error", (e: NodeJS.ErrnoException) => (answered && (e.code === "EPIPE" || e.code === "ECONNRESET") ? undefined : reject(e)));
    req.end(body);
  });
}

/** A raw request whose SSE body is read as it comes; `stop` ends it (and the connection) early. */
function stream(s: Served, method: "GET" | "POST", headers: Record<string, string>, body: unknown, stop: (text: string) => boolean, limitMs = 10_000): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: s.port, path: "/mcp", method, headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers } }, (res) => {
      let text = "";
      const done = () => resolve({ status: res.statusCode!, headers: res.headers, text });
      const timer = setTimeout(() => (req.destroy(), done()), limitMs);
      res.on("data", (d) => {
        text += d;
        if (stop(text)) (clearTimeout(timer), req.destroy(), done());
      });
      res.on("end", () => (clearTimeout(timer), done()));
    });
    req.on("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNRESET" ? undefined : reject(e)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe("MCP over Streamable HTTP", () => {
  let s: Served;
  let client: Client;
  before(async () => {
    s = await serve();
    client = await connect(s, "http-e2e");
  });
  after(async () => {
    await client?.close().catch(() => {});
    await s?.stop();
  });

  test("the token is stored 0600 and the URL is loopback", async () => {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(s.token && s.token.length >= 32);
    assert.equal(statSync(join(s.home, "token")).mode & 0o777, 0o600);
    assert.equal(statSync(s.grpcSocket).mode & 0o777, 0o600);
  });

  test("tools, open, run, read, list", async () => {
    const tools = await client.listTools();
    for (const t of ["terminal_open", "terminal_run", "terminal_read", "terminal_list", "terminal_close"]) assert.ok(tools.tools.some((x) => x.name === t), t);
    const opened = await ok(client, "terminal_open", { name: "h1", command: "bash" });
    assert.equal(opened.name, "h1");
    const r = await ok(client, "terminal_run", { session: "h1", command: "echo http-$((40+2))" });
    assert.equal(r.output, "http-42");
    assert.equal(r.exit_code, 0);
    await ok(client, "terminal_send", { session: "h1", text: "echo typed-in" });
    await ok(client, "terminal_wait", { session: "h1", pattern: "^typed-in", timeout_s: 10 });
    const read = await ok(client, "terminal_read", { session: "h1", mode: "all" });
    assert.match(read.output, /typed-in/);
    const list = await ok(client, "terminal_list");
    assert.ok(list.sessions.some((x: { name: string }) => x.name === "h1"));
  });

  test("an unknown session is an error result naming the live ones", async () => {
    const r = (await client.callTool({ name: "terminal_run", arguments: { session: "nope", command: "true" } })) as Result;
    assert.equal(r.isError, true);
    assert.match(r.content[0]!.text, /unknown session "nope".*h1/);
  });

  test("a wait whose connection is cut resumes with Last-Event-ID and gets its reply, even after 1000+ other events", async () => {
    const init = await stream(s, "POST", {}, JSON.parse(INIT.replace("2025-06-18", "2025-11-25")), (t) => /"result"/.test(t));
    const session = { "mcp-session-id": String(init.headers["mcp-session-id"]) };
    await stream(s, "POST", session, { jsonrpc: "2.0", method: "notifications/initialized" }, () => false);
    // Cut as soon as the first event id (the priming event) arrives.
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "terminal_wait", arguments: { session: "h1", pattern: "never-resumed", timeout_s: 3 } } };
    const cut = await stream(s, "POST", session, call, (t) => /^id: /m.test(t));
    const lastId = /^id: (.+)$/m.exec(cut.text)![1]!;
    assert.doesNotMatch(cut.text, /"id":7/);
    // Other traffic on the same MCP session pushes that id out of the bounded event store.
    for (let i = 0; i < 600; i++) await stream(s, "POST", session, { jsonrpc: "2.0", id: 100 + i, method: "ping" }, (t) => /"result"/.test(t));
    const resumed = await stream(s, "GET", { ...session, "last-event-id": lastId, accept: "text/event-stream" }, undefined, (t) => /"id":7/.test(t));
    assert.equal(resumed.status, 200);
    assert.match(resumed.text, /"id":7/, "the wait's reply never arrived on the resumed stream");
    assert.match(resumed.text, /"reason":"timeout"/);
  });

  test("no token / wrong token → 401 with no detail", async () => {
    const none = await raw(s, {});
    assert.equal(none.status, 401);
    assert.equal(none.body, "");
    const wrong = await raw(s, { authorization: "Bearer not-the-token" });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body, "");
  });

  test("foreign Origin or Host → 403 (DNS rebinding, other local pages)", async () => {
    const auth = { authorization: `Bearer ${s.token}` };
    assert.equal((await raw(s, { ...auth, origin: "http://evil.example" })).status, 403);
    assert.equal((await raw(s, { ...auth, host: `evil.example:${s.port}` })).status, 403);
    assert.equal((await raw(s, { ...auth, host: `127.attacker.example:${s.port}` })).status, 403, "a DNS name that starts like a loopback address");
    assert.equal((await raw(s, { ...auth, origin: "null" })).status, 403);
    // Exactly the origin the request is addressed to: another loopback port is another page
    // (a dev server), whatever browsers think of its cookies; so is another scheme or name.
    for (const origin of [`http://127.0.0.1:${s.port + 1}`, `http://127.0.0.1`, `https://127.0.0.1:${s.port}`, `http://localhost:${s.port}`]) {
      assert.equal((await raw(s, { ...auth, origin })).status, 403, origin);
    }
    assert.equal((await raw(s, { ...auth, origin: `http://127.0.0.1:${s.port}` })).status, 200);
    assert.equal((await raw(s, { ...auth, host: `localhost:${s.port}`, origin: `http://localhost:${s.port}` })).status, 200);
  });

  test("a body over the limit → 413", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "terminal_send", arguments: { session: "h1", text: "x".repeat(5 * 1024 * 1024) } } });
    const r = await raw(s, { authorization: `Bearer ${s.token}` }, big);
    assert.equal(r.status, 413);
  });

  test("two MCP clients at once, each with its own MCP session", async () => {
    const [a, b] = await Promise.all([connect(s, "a"), connect(s, "b")]);
    try {
      await Promise.all([ok(a, "terminal_open", { name: "ca", command: "bash" }), ok(b, "terminal_open", { name: "cb", command: "bash" })]);
      const [ra, rb] = await Promise.all([
        ok(a, "terminal_run", { session: "ca", command: "sleep 0.3; echo from-a" }),
        ok(b, "terminal_run", { session: "cb", command: "sleep 0.3; echo from-b" }),
      ]);
      assert.equal(ra.output, "from-a");
      assert.equal(rb.output, "from-b");
      // Both see the same sessions: one service behind every MCP session.
      const names = (await ok(a, "terminal_list")).sessions.map((x: { name: string }) => x.name);
      assert.ok(names.includes("cb"));
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("a port in use is a clear error naming it", () => {
    const r = spawnSync(process.execPath, [CLI, "serve", "--port", String(s.port), "--no-grpc-tcp"], { env: { ...s.env, TERMHIVE_HOME: s.home + "-other" }, encoding: "utf8", timeout: 10_000 });
    spawnSync("rm", ["-rf", s.home + "-other"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`port ${s.port} .*already in use`));
  });

  test("a live gRPC socket is refused, naming termhive serve --stop", () => {
    const r = spawnSync(process.execPath, [CLI, "serve", "--port", "0", "--no-grpc-tcp"], { env: s.env, encoding: "utf8", timeout: 10_000 });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /already listening on .*grpc\.sock/);
    // It names the command that stops the running one, for this home.
    assert.ok(r.stderr.includes(`TERMHIVE_HOME=${s.home} termhive serve --stop`), r.stderr);
  });

  test("--auth off is refused on a non-loopback host", () => {
    const r = spawnSync(process.execPath, [CLI, "serve", "--port", "0", "--host", "0.0.0.0", "--auth", "off"], { env: { ...s.env, TERMHIVE_HOME: s.home + "-x" }, encoding: "utf8", timeout: 10_000 });
    spawnSync("rm", ["-rf", s.home + "-x"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /only allowed on a loopback host/);
  });
});
