// Hardening of termhive's I/O edges, end to end through the built server: a full disk,
// oversized chunked HTTP bodies, uncaught errors, vanished HTTP clients, file modes under
// TERMHIVE_HOME and size caps on the audit log and recordings.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { serve, type Served } from "./serve-process.js";

/** POSTs `total` bytes with Transfer-Encoding: chunked (no Content-Length), 64 KB at a time. */
function chunkedPost(s: Served, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: s.port, path: "/mcp", method: "POST", headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    let answered = false;
    req.on("response", () => (answered = true));
    req.on("error", (e: NodeJS.ErrnoException) => (answered && (e.code === "EPIPE" || e.code === "ECONNRESET") ? undefined : reject(e)));
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const pump = () => {
      while (sent < total && !answered) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("HTTP: a chunked body over --max-body-mb", () => {
  let s: Served;
  before(async () => (s = await serve(["--max-body-mb", "1"])));
  after(async () => s.stop());

  test("is answered 413 and the server keeps serving", async () => {
    assert.equal(await chunkedPost(s, 3 * 1024 * 1024), 413);
    // The old failure: a 500, then ~5 s later the discard timer hit a null socket and the process died.
    await new Promise((r) => setTimeout(r, 6_000));
    assert.equal(s.proc.exitCode, null, `serve exited: ${s.stderr()}`);
    assert.equal(await chunkedPost(s, 3 * 1024 * 1024), 413);
    assert.doesNotMatch(s.stderr(), /TypeError|internal error/);
  });
});
