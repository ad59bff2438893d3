// What agents type (issue 9 §5), the way a real client calls: a bare environment in another
// folder, a fresh server process per call. Each test here failed before its fix.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("what agents type", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("an unknown parameter is an error naming the valid ones, on every tool, and does nothing", async () => {
    const r = await h.callOnce("terminal_open", { name: "remote", host: "x" });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /unknown parameter "host"/);
    assert.match(r.text, /valid parameters: name, command, cwd, env, rows, cols/);
    const listed = await h.callOnce("terminal_list");
    assert.deepEqual(listed.data.sessions, [], "nothing was opened");
    // A misspelt parameter (timeout for timeout_s) would otherwise be dropped without a word.
    const run = await h.callOnce("terminal_run", { session: "any", command: "true", timeout: 5 });
    assert.match(run.text, /unknown parameter "timeout"; valid parameters: session, command, timeout_s/);
    const list = await h.callOnce("terminal_list", { all: true });
    assert.match(list.text, /unknown parameter "all"; valid parameters: none/);
    const hive = await h.callOnce("agent_list", { team: "x", bogus: 1, other: 2 });
    assert.equal(hive.isError, true, hive.text);
    assert.match(hive.text, /unknown parameters "bogus", "other"; valid parameters: .*team/);
    // Clients still get a usable JSON schema, now closed to unknown keys.
    const tools = (await h.client.listTools()).tools;
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object", tool.name);
      assert.equal((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, tool.name);
    }
    const open = tools.find((t) => t.name === "terminal_open")!;
    assert.ok(open.inputSchema.properties && "cwd" in open.inputSchema.properties);
  });
});
