// The tool list a client gets (issue 24, issue 22 §4): every tool with the four MCP annotation
// hints, lean schemas within the token budget, the server's instructions, and TERMHIVE_TOOLS
// hiding a family.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { Harness } from "./harness.js";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

describe("the tool list", () => {
  const started: Harness[] = [];
  after(async () => {
    for (const h of started) await h.destroy();
  });

  test("every tool has the four annotations; read tools are read-only, removing ones destructive; ≤ 4,000 tokens as Claude Code sends them", async () => {
    const h = await Harness.start();
    started.push(h);
    const { tools } = await h.client.listTools();
    assert.equal(tools.length, 31);
    for (const tool of tools) for (const hint of HINTS) assert.equal(typeof tool.annotations?.[hint], "boolean", `${tool.name} ${hint}`);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ["terminal_read", "terminal_list", "terminal_wait", "agent_list", "hive_events"]) assert.equal(byName.get(name)!.annotations!.readOnlyHint, true, name);
    for (const name of ["terminal_close", "agent_remove", "team_remove", "terminal_run"]) assert.equal(byName.get(name)!.annotations!.destructiveHint, true, name);
    assert.ok(byName.get("terminal_open")!.outputSchema, "terminal_open declares its typed result");
    assert.equal(byName.get("terminal_run")!.outputSchema, undefined, "terminal_run's output is text, never duplicated as JSON");
    const sent = (list: typeof tools) => list.reduce((sum, t) => sum + encode(JSON.stringify({ name: `mcp__termhive__${t.name}`, description: t.description, input_schema: t.inputSchema })).length, 0);
    // Issue 24's budget, kept as tools are added (agent_restore, hive_answer): a new tool pays
    // for itself with terser words elsewhere.
    assert.ok(sent(tools) <= 4000, `${sent(tools)} tokens`);
    assert.ok(sent(tools.filter((t) => t.name.startsWith("terminal_"))) <= 1800);
    // Every parameter still has its type; the main tools' parameters their description.
    for (const name of ["terminal_run", "terminal_send", "terminal_read", "terminal_wait"]) {
      for (const [param, schema] of Object.entries(byName.get(name)!.inputSchema.properties ?? {})) {
        assert.ok((schema as { description?: string }).description || param === "session", `${name}.${param} documented`);
      }
    }
    const instructions = h.client.getInstructions() ?? "";
    assert.match(instructions, /terminal_run/);
    assert.match(instructions, /terminal_send/);
    assert.match(instructions, /terminal_wait/);
    assert.match(instructions, /The hive runs agents.*agent_spawn/);
  });

  test("TERMHIVE_TOOLS=terminal lists only the terminal tools, and the instructions leave the hive out", async () => {
    const h = await Harness.start({ TERMHIVE_TOOLS: "terminal" });
    started.push(h);
    const { tools } = await h.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["terminal_close", "terminal_list", "terminal_open", "terminal_read", "terminal_resize", "terminal_run", "terminal_send", "terminal_wait"]);
    assert.doesNotMatch(h.client.getInstructions() ?? "", /The hive|agent_spawn/);
    // An unlisted tool is the protocol's "invalid params" error (-32602) on the v2 SDK, as the
    // spec says for an unknown tool, not a tool result.
    await assert.rejects(h.call("hive_status", { agent: "a", status: "idle" }), (error: Error & { code?: number }) => error.code === -32602 && /hive_status/.test(error.message));
  });
});
