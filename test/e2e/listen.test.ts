// Resource updates for a 2026 client (issue 34 §4): the v2 client SDK listens
// (`subscriptions/listen`) on the built server over stdio and gets `notifications/resources/updated`
// for exactly the URIs it asked for — also when the change is made by another termhive
// process on the same home (the harness's 2025 client, its own server process) — and the
// list changes when it asked for them; a closed subscription gets nothing more. The 2025
// path (resources/subscribe) is resources.test.ts.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI, Harness } from "./harness.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("subscriptions/listen (2026 era) over stdio", () => {
  let h: Harness;
  let client: Client;
  const updated: string[] = [];
  let listChanged = 0;

  async function until(what: string, holds: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (holds()) return;
      await sleep(20);
    }
    assert.fail(`${what}; updates so far: ${JSON.stringify(updated)}`);
  }
  const updatedFor = (uri: string, from: number) => until(`no notifications/resources/updated for ${uri}`, () => updated.slice(from).includes(uri));

  before(async () => {
    h = await Harness.start();
    // The session is opened by the harness's own server: another process than the listener's.
    await h.ok("terminal_open", { name: "far" });
    client = new Client({ name: "termhive-e2e-listen", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
    client.setNotificationHandler("notifications/resources/list_changed", () => void listChanged++);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], env: h.serverEnv(), stderr: "pipe" }));
    assert.equal(client.getProtocolEra(), "modern");
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await h?.destroy();
  });

  test("a listened screen of another process's session is updated by that process's command; an unasked URI is not", async () => {
    const screen = "termhive://session/far/screen";
    const subscription = await client.listen({ resourceSubscriptions: [screen] });
    assert.deepEqual(subscription.honoredFilter, { resourceSubscriptions: [screen] });
    await sleep(300); // earlier output settles
    let from = updated.length;
    await h.ok("terminal_run", { session: "far", command: "echo listened-$((2+3))" });
    await updatedFor(screen, from);
    assert.ok(!updated.slice(from).includes("termhive://session/far/output"), "the output resource was not asked for");
    assert.ok(!updated.slice(from).includes("termhive://sessions"));

    await subscription.close();
    assert.equal(await subscription.closed, "local");
    await sleep(300);
    from = updated.length;
    await h.ok("terminal_run", { session: "far", command: "echo closed-$((3+4))" });
    await sleep(600);
    assert.deepEqual(updated.slice(from), [], "nothing after the subscription closed");
  });

  test("the session list and list changes reach a listener that asked for them", async () => {
    const subscription = await client.listen({ resourceSubscriptions: ["termhive://sessions"], resourcesListChanged: true });
    assert.equal(subscription.honoredFilter.resourcesListChanged, true);
    const from = updated.length;
    const changedBefore = listChanged;
    await client.callTool({ name: "terminal_open", arguments: { name: "near" } });
    await updatedFor("termhive://sessions", from);
    await until("no notifications/resources/list_changed", () => listChanged > changedBefore);
    await subscription.close();
  });

  test("agents: a status set by another process reaches the listener of termhive://agents", async () => {
    await h.ok("agent_register", { name: "lister", session: "far", team: "crew" });
    const subscription = await client.listen({ resourceSubscriptions: ["termhive://agents"] });
    await sleep(300);
    const from = updated.length;
    await h.ok("hive_status", { agent: "lister", status: "error", detail: "listen test" });
    await updatedFor("termhive://agents", from);
    assert.ok(!updated.slice(from).includes("termhive://events"), "events was not asked for");
    await subscription.close();
  });

  test("a listen without resource subscriptions gets no resource updates", async () => {
    const subscription = await client.listen({ toolsListChanged: true });
    await sleep(300);
    const from = updated.length;
    await h.ok("terminal_run", { session: "far", command: "echo unasked" });
    await sleep(600);
    assert.deepEqual(updated.slice(from), []);
    await subscription.close();
  });
});
