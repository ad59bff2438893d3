// MCP resources, subscriptions and prompts through the SDK client over stdio, against real tmux.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Harness } from "./harness.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function textOf(result: { contents: { uri: string; text?: unknown }[] }): string {
  assert.equal(result.contents.length, 1);
  return String(result.contents[0]!.text);
}

describe("MCP resources and prompts", () => {
  let h: Harness;
  const updated: string[] = [];
  let listChanged = 0;

  /** Waits until an "updated" for uri arrives after `from` (an index into updated). */
  async function updatedFor(uri: string, from: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (updated.slice(from).includes(uri)) return;
      await sleep(20);
    }
    assert.fail(`no notifications/resources/updated for ${uri}; got ${JSON.stringify(updated.slice(from))}`);
  }

  before(async () => {
    h = await Harness.start();
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    await h.ok("terminal_open", { name: "res" });
  });
  after(async () => {
    await h?.destroy();
  });

  test("the server declares resource subscriptions and list changes", () => {
    const caps = h.client.getServerCapabilities();
    assert.equal(caps?.resources?.subscribe, true);
    assert.equal(caps?.resources?.listChanged, true);
    assert.ok(caps?.prompts, "prompts capability");
  });

  test("lists the fixed resources and the templates with one instance per live session", async () => {
    const { resources } = await h.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const uri of ["termhive://sessions", "termhive://agents", "termhive://teams", "termhive://events", "termhive://session/res/screen", "termhive://session/res/output"]) {
      assert.ok(uris.includes(uri), `${uri} listed in ${JSON.stringify(uris)}`);
    }
    const { resourceTemplates } = await h.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), ["termhive://session/{session}/output", "termhive://session/{session}/screen"]);
  });

  test("reads the session list, a screen and the recent output", async () => {
    const list = JSON.parse(textOf(await h.client.readResource({ uri: "termhive://sessions" })));
    const res = list.sessions.find((s: { name: string }) => s.name === "res");
    assert.ok(res && res.alive, JSON.stringify(list));

    await h.ok("terminal_run", { session: "res", command: "echo resource-marker-$((40+2))" });
    const screen = textOf(await h.client.readResource({ uri: "termhive://session/res/screen" }));
    assert.match(screen, /resource-marker-42/);
    // The id works as well as the name.
    const byId = textOf(await h.client.readResource({ uri: `termhive://session/${res.session}/output` }));
    assert.match(byId, /resource-marker-42/);
    assert.doesNotMatch(byId, /\x1b\[/, "output is cleaned of escape codes");
  });

  test("reading the output resource moves no read cursor and is bounded", async () => {
    await h.ok("terminal_run", { session: "res", command: "seq 1 500" });
    await h.ok("terminal_send", { session: "res", text: "echo unread-$((6*7))" });
    await h.call("terminal_wait", { session: "res", for: "pattern", pattern: "unread-42", timeout_s: 10 }).then(() => undefined);
    await h.ok("terminal_send", { session: "res", text: "echo after-wait-$((1+1))" });
    await sleep(300);
    const output = textOf(await h.client.readResource({ uri: "termhive://session/res/output" }));
    assert.match(output, /after-wait-2/);
    assert.doesNotMatch(output, /^1$/m, "the first lines of seq 1 500 are beyond the last 200 lines");
    const lines = output.split("\n").filter((l) => /^\d+$/.test(l.trim()));
    assert.ok(lines.length < 250, `bounded: ${lines.length} number lines`);
    // The resource read did not consume this client's unread output.
    const read = await h.ok("terminal_read", { session: "res", mode: "new" });
    assert.match(read.output, /after-wait-2/);
  });

  test("an unknown session is a resource error", async () => {
    await assert.rejects(h.client.readResource({ uri: "termhive://session/nope/screen" }), /unknown session/);
  });

  test("subscribe to a screen → updated after a command; unsubscribe → no more", async () => {
    const uri = "termhive://session/res/screen";
    await h.client.subscribeResource({ uri });
    await sleep(300); // let earlier output settle
    let from = updated.length;
    await h.ok("terminal_run", { session: "res", command: "echo subscribed-$((2+3))" });
    await updatedFor(uri, from);
    // Debounced: one command's burst of output gives a handful of notifications, not one per chunk.
    await sleep(300);
    const burst = updated.slice(from).filter((u) => u === uri).length;
    assert.ok(burst >= 1 && burst <= 10, `debounced: ${burst} notifications`);
    // The output resource was not subscribed: no notification for it.
    assert.ok(!updated.slice(from).includes("termhive://session/res/output"));

    await h.client.unsubscribeResource({ uri });
    await sleep(300);
    from = updated.length;
    await h.ok("terminal_run", { session: "res", command: "echo unsubscribed-$((3+4))" });
    await sleep(600);
    assert.deepEqual(updated.slice(from).filter((u) => u === uri), [], "no updates after unsubscribe");
  });

  test("subscribe to the session list → updated (and list_changed) on open and close", async () => {
    const uri = "termhive://sessions";
    await h.client.subscribeResource({ uri });
    let from = updated.length;
    const changedBefore = listChanged;
    await h.ok("terminal_open", { name: "res2" });
    await updatedFor(uri, from);
    assert.ok(listChanged > changedBefore, "template instances changed: notifications/resources/list_changed");
    const { resources } = await h.client.listResources();
    assert.ok(resources.some((r) => r.uri === "termhive://session/res2/screen"));
    from = updated.length;
    await h.ok("terminal_close", { session: "res2" });
    await updatedFor(uri, from);
    await h.client.unsubscribeResource({ uri });
  });

  test("subscribe to agents and events → updated on a status change", async () => {
    await h.ok("agent_register", { name: "worker", session: "res", team: "crew" });
    const agents = JSON.parse(textOf(await h.client.readResource({ uri: "termhive://agents" })));
    assert.equal(agents.agents[0].name, "worker");
    const teams = JSON.parse(textOf(await h.client.readResource({ uri: "termhive://teams" })));
    assert.ok(teams.teams.some((t: { name: string }) => t.name === "crew"), JSON.stringify(teams));

    await h.client.subscribeResource({ uri: "termhive://agents" });
    await h.client.subscribeResource({ uri: "termhive://events" });
    const from = updated.length;
    await h.ok("hive_status", { agent: "worker", status: "error", detail: "resource test" });
    await updatedFor("termhive://agents", from);
    await updatedFor("termhive://events", from);
    const events = JSON.parse(textOf(await h.client.readResource({ uri: "termhive://events" })));
    assert.ok(events.events.some((e: { kind: string; data: unknown }) => e.kind === "status" && JSON.stringify(e.data).includes("error")), JSON.stringify(events).slice(0, 500));
  });

  test("subscribing to a foreign URI is accepted (conformance) and never updated", async () => {
    const uri = "test://watched-resource";
    assert.deepEqual(await h.client.subscribeResource({ uri }), {});
    const from = updated.length;
    await h.ok("terminal_run", { session: "res", command: "echo foreign" });
    await sleep(300);
    assert.ok(!updated.slice(from).includes(uri));
    assert.deepEqual(await h.client.unsubscribeResource({ uri }), {});
  });

  test("prompts: list and get", async () => {
    const { prompts } = await h.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ["monitor-terminal", "orchestrate-team", "run-and-analyse"]);

    const monitor = await h.client.getPrompt({ name: "monitor-terminal", arguments: { session: "res" } });
    const monitorText = (monitor.messages[0]!.content as { text: string }).text;
    assert.match(monitorText, /terminal_wait/);
    assert.match(monitorText, /"res"/);

    const run = await h.client.getPrompt({ name: "run-and-analyse", arguments: { command: "npm test" } });
    const runText = (run.messages[0]!.content as { text: string }).text;
    assert.match(runText, /terminal_run/);
    assert.match(runText, /npm test/);
    assert.match(runText, /terminal_open/, "no session given: open one");

    const team = await h.client.getPrompt({ name: "orchestrate-team", arguments: { goal: "ship v2", team: "core" } });
    const teamText = (team.messages[0]!.content as { text: string }).text;
    for (const tool of ["hive_layout", "agent_spawn", "hive_message", "hive_wait", "hive_events"]) assert.match(teamText, new RegExp(tool));
    assert.match(teamText, /team:core/);
    assert.match(teamText, /ship v2/);

    await assert.rejects(h.client.getPrompt({ name: "monitor-terminal", arguments: {} }));
  });
});
