// Resource updates for a 2026 client over HTTP (issue 34 §4): the v2 client SDK listens
// (`subscriptions/listen`) on a real `termhive serve` and gets `notifications/resources/updated`
// for the URIs it asked for, when the change is made by another termhive process on the same
// home (a stdio server of the harness); a URI it did not ask for is not sent. The stdio door's
// listen is listen.test.ts; both take their events from one feed per process.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Harness } from "./harness.js";
import { serve, type Served } from "./serve-process.js";

describe("subscriptions/listen (2026 era) over HTTP", () => {
  let s: Served;
  let other: Harness;
  let client: Client;
  const updated: string[] = [];

  async function until(what: string, holds: () => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (holds()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`${what}; updates so far: ${JSON.stringify(updated)}`);
  }

  before(async () => {
    s = await serve(["--no-grpc-tcp"]);
    // Another termhive process on the same home opens the session and types into it.
    other = new Harness(s.home, { TERMHIVE_HOME: s.home });
    await other.connect();
    await other.ok("terminal_open", { name: "far" });
    client = new Client({ name: "termhive-e2e-http-listen", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.token ? { Authorization: `Bearer ${s.token}` } : {} } }));
    assert.equal(client.getProtocolEra(), "modern");
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await other?.close().catch(() => undefined);
    await s?.stop();
  });

  test("a listened screen of another process's session is updated by that process's command; an unasked URI is not", async () => {
    const screen = "termhive://session/far/screen";
    const subscription = await client.listen({ resourceSubscriptions: [screen] });
    assert.deepEqual(subscription.honoredFilter, { resourceSubscriptions: [screen] });
    const from = updated.length;
    await other.ok("terminal_run", { session: "far", command: "echo listened-over-http-$((2+3))" });
    await until(`no notifications/resources/updated for ${screen}`, () => updated.slice(from).includes(screen));
    assert.ok(!updated.includes("termhive://session/far/output"), "the output resource was not asked for");
    await subscription.close();
  });
});
