// `termhive serve` does not let idle, half-sent HTTP requests hold its descriptors: a request
// whose headers or body stop coming is answered 408 and its connection closed, and connections
// past the cap are closed at accept, while a real client is still served. Before, a request with
// its headers sent and half its body held a descriptor for as long as its client liked.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { readdirSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serve, type Served } from "./serve-process.js";
import { until } from "../until.js";

/** A connection to the server that has sent `text` and then nothing more; `closed` settles when the server ends it. */
function halfSent(s: Served, text: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(s.port, "127.0.0.1", () => {
      socket.write(text);
      let answer = "";
      socket.on("data", (d) => (answer += d.toString()));
      const closed = new Promise<string>((done) => socket.once("close", () => done(answer)));
      resolve({ socket, closed });
    });
    socket.once("error", reject);
    socket.on("error", () => undefined); // a reset once open is the server closing it: what is tested
  });
}

const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

describe("serve: half-sent HTTP requests and connection caps", () => {
  let s: Served;
  /** The server's descriptors before any test connected. */
  let baseline: number;
  before(async () => {
    s = await serve(["--no-grpc-tcp"], undefined, { TERMHIVE_HTTP_REQUEST_TIMEOUT_S: "2", TERMHIVE_HTTP_MAX_CONNECTIONS: "40" });
    baseline = fds(s.proc.pid!);
  });
  after(async () => s?.stop());

  test("connections past TERMHIVE_HTTP_MAX_CONNECTIONS are closed at once", { timeout: 120_000 }, async () => {
    const idle = await Promise.all(Array.from({ length: 40 }, () => halfSent(s, "")));
    const over = await halfSent(s, "");
    // Closed by the server without a byte, long before the 2 s request limit.
    // (First of the tests: no other client holds a connection, so the 40 all fit.)
    let idleClosed = 0;
    for (const i of idle) void i.closed.then(() => idleClosed++);
    assert.equal(await over.closed, "");
    assert.equal(idleClosed, 0, "the connections within the cap are still open");
    for (const i of idle) i.socket.destroy();
  });

  test("requests whose headers or body stop coming are closed; their descriptors come back; a client is still served", { timeout: 120_000 }, async () => {
    await until("the last test's connections to be closed", () => (fds(s.proc.pid!) <= baseline ? true : undefined));
    const auth = `Authorization: Bearer ${s.token}\r\n`;
    const held = await Promise.all([
      ...Array.from({ length: 10 }, () => halfSent(s, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}`)),
      ...Array.from({ length: 10 }, () => halfSent(s, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`)),
    ]);
    // The server holds a descriptor per connection while it waits (once it has accepted them all).
    await until("the server to hold the 20 connections", () => (fds(s.proc.pid!) >= baseline + 20 ? true : undefined));
    const answers = await Promise.all(held.map((h) => h.closed));
    for (const answer of answers) assert.match(answer, /^$|^HTTP\/1\.1 408/, "nothing, or 408");
    await until("the descriptors to be given back", () => (fds(s.proc.pid!) <= baseline + 2 ? true : undefined));

    const client = new Client({ name: "after-half-sent", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    assert.ok((await client.listTools()).tools.length > 0);
    await client.close();
  });
});
