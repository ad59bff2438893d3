// The gRPC client and the MCP door give the same nulls: one `termhive serve`, the same calls
// through TermhiveClient and through the MCP SDK client over HTTP (the verb's whole result, in
// _meta), and every field that is null in one is null in the other, never absent, and the
// reverse. proto3 has no null; each verb's declaration (verbs/nullable.ts) is what brings
// them back on the gRPC side.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TermhiveClient } from "../../src/index.js";
import { VERBS } from "../../src/verbs/index.js";
import { serve, type Served } from "./serve-process.js";

type Row = Record<string, unknown>;

/** Paths of the null values, list items by index ("agents.0.team"). */
function nullPaths(value: unknown, path = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const at = path ? `${path}.${key}` : key;
    return v === null ? [at] : nullPaths(v, at);
  });
}

describe("gRPC and MCP return the same nulls", () => {
  let s: Served;
  let mcp: Client;
  let grpc: TermhiveClient;

  async function viaMcp(tool: string, args: Row): Promise<Row> {
    const r = (await mcp.callTool({ name: tool, arguments: args })) as { content: { text: string }[]; _meta?: Row; isError?: boolean };
    if (r.isError) throw new Error(`${tool}: ${r.content.map((c) => c.text).join("\n")}`);
    return r._meta!["termhive/result"] as Row;
  }

  async function viaGrpc(tool: string, args: Row): Promise<Row> {
    const verb = VERBS.find((v) => v.name === tool)!;
    const method = verb.grpc.charAt(0).toLowerCase() + verb.grpc.slice(1);
    return (grpc as unknown as Record<string, (input: Row) => Promise<Row>>)[method]!(args);
  }

  /** The same call (or twin calls, where a call changes what it acts on) through both doors. */
  async function same(tool: string, mcpArgs: Row, grpcArgs: Row = mcpArgs): Promise<{ viaMcp: Row; viaGrpc: Row }> {
    const fromMcp = await viaMcp(tool, mcpArgs);
    const fromGrpc = await viaGrpc(tool, grpcArgs);
    assert.deepEqual(nullPaths(fromGrpc).sort(), nullPaths(fromMcp).sort(), `${tool}: gRPC ${JSON.stringify(fromGrpc)}\nMCP ${JSON.stringify(fromMcp)}`);
    return { viaMcp: fromMcp, viaGrpc: fromGrpc };
  }

  const tmux = (...args: string[]) => spawnSync("tmux", ["-S", join(s.home, "tmux.sock"), ...args], { encoding: "utf8" });

  before(async () => {
    s = await serve();
    mcp = new Client({ name: "parity-e2e", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    grpc = new TermhiveClient({ socketPath: s.grpcSocket, clientName: "parity-e2e" });
    await grpc.ready();
    // A team with an agent, a pane that is no agent, a session killed by a signal (no exit
    // code), a watcher without a label, mail not yet read.
    await grpc.teamCreate({ name: "org" });
    await grpc.hiveLayout({ layout: "horizontal", panes: [{ name: "w1", command: "bash", agent: "w1", team: "org" }, { name: "p1", command: "bash" }] });
    await grpc.open({ name: "killed", command: "kill -KILL $$" });
    await grpc.wait({ session: "killed", for: "exit", timeout_s: 10 });
    await grpc.hiveWatch({ targets: "agent:w1", pattern: "never-seen" });
    await grpc.hiveMail({ to: "w1", text: "hello" });
  });
  after(async () => {
    grpc?.closeConnection();
    await mcp?.close();
    await s?.stop();
  });

  test("an exited session's unknown exit code is null in terminal_read, terminal_wait, terminal_list and hive_read", async () => {
    const read = await same("terminal_read", { session: "killed", mode: "all" });
    assert.equal(read.viaMcp.alive, false);
    assert.equal(read.viaMcp.exit_code, null, JSON.stringify(read.viaMcp));
    const waited = await same("terminal_wait", { session: "killed", for: "exit", timeout_s: 5 });
    assert.equal(waited.viaMcp.exit_code, null, JSON.stringify(waited.viaMcp));
    await same("terminal_list", {});
    await same("hive_read", { targets: "all" });
  });

  test("agents, teams, events, watchers and mail: the same null fields", async () => {
    const agents = await same("agent_list", {});
    assert.ok(nullPaths(agents.viaMcp).length > 0, JSON.stringify(agents.viaMcp));
    await same("team_list", {});
    await same("hive_events", { since: 0, limit: 1000 });
    await same("hive_watch", {});
    await same("hive_inbox", { agent: "w1", all: true, peek: true });
    await same("hive_status", { agent: "w1", status: "idle" });
    await same("hive_focus", { session: "p1" });
    await same("team_create", { name: "t-mcp" }, { name: "t-grpc" });
    await same("hive_mail", { to: "w1", text: "one" }, { to: "w1", text: "two" });
    await same("agent_register", { name: "r-mcp", session: "p1" }, { name: "r-grpc", session: "p1" });
    await same("team_remove", { name: "t-mcp" }, { name: "t-grpc" });
  });

  test("hive_layout: a pane that is no agent has no team key, an agent's team is null", async () => {
    const panes = (name: string) => [{ name: `${name}-a`, command: "bash", agent: `${name}-a` }, { name: `${name}-b`, command: "bash" }];
    const r = await same("hive_layout", { layout: "horizontal", panes: panes("lm") }, { layout: "horizontal", panes: panes("lg") });
    assert.deepEqual((r.viaGrpc.panes as Row[]).map((p) => "team" in p), [true, false]);
  });

  test("agent_restore: a restarted plain program has no conversation (null)", async () => {
    for (const name of ["lost-m", "lost-g"]) {
      await grpc.agentSpawn({ name, command: "bash" });
      const pane = (await grpc.agentList()).agents.find((a) => a.name === name)!.pane!;
      assert.equal(tmux("kill-pane", "-t", pane).status, 0);
    }
    const r = await same("agent_restore", { name: "lost-m" }, { name: "lost-g" });
    assert.equal((r.viaMcp.restored as Row[])[0]!.conversation, null, JSON.stringify(r.viaMcp));
  });
});
