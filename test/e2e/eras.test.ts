// Both MCP protocol eras on the stdio door (issue 34 §1, §5, §7): the 1.32 SDK client
// (2025-11-25, `initialize`) and the v2 client SDK (2026-07-28, `server/discover` probed in a
// short-lived sibling process) make the same tool calls, resource read and prompt against
// the built server, and get the same tool list, instructions and result shapes.
// TERMHIVE_MCP_ERA forces one era; a discover probe starts no tmux server and writes nothing.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client as Client2026 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2026 } from "@modelcontextprotocol/client/stdio";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio2025 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, Harness, RESULT_META } from "./harness.js";
import { exercise, sameInBothEras } from "./era-suite.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";

function client2026(h: Harness, env: Record<string, string> = {}): { client: Client2026; transport: Stdio2026 } {
  const transport = new Stdio2026({ command: process.execPath, args: [CLI, "mcp"], env: { ...h.serverEnv(), ...env }, stderr: "pipe" });
  const client = new Client2026({ name: "termhive-e2e-2026", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  return { client, transport };
}

async function client2025(h: Harness, env: Record<string, string>): Promise<Client2025> {
  const client = new Client2025({ name: "termhive-e2e-2025", version: "1.0.0" });
  await client.connect(new Stdio2025({ command: process.execPath, args: [CLI, "mcp"], env: { ...h.serverEnv(), ...env }, stderr: "pipe" }));
  return client;
}

describe("both MCP eras on stdio", () => {
  let h: Harness;
  let modern: { client: Client2026; transport: Stdio2026 };
  before(async () => {
    h = await Harness.start();
    modern = client2026(h);
    await modern.client.connect(modern.transport);
  });
  after(async () => {
    await modern.client.close().catch(() => undefined);
    await h.destroy();
  });

  test("each client is in its own era", () => {
    assert.equal(modern.client.getNegotiatedProtocolVersion(), "2026-07-28");
    assert.equal(modern.client.getProtocolEra(), "modern");
    assert.equal(h.client.getServerVersion()?.name, "termhive");
  });

  test("the tool list, instructions, prompts and result shapes are the same in both eras", async () => {
    const old = await exercise(h.client);
    const now = await exercise(modern.client);
    sameInBothEras(old, now);
    // One home, two processes: each sees the session the other opened.
    const listed = JSON.parse((old.sessions.contents[0] as { text: string }).text) as { sessions: { name: string }[] };
    const names = listed.sessions.map((s) => s.name);
    const openedName = (result: unknown) => (result as { _meta: Record<string, { name?: string }> })._meta[RESULT_META]!.name;
    assert.ok(names.includes(openedName(old.opened)!), JSON.stringify(names));
  });

  test("progress notifications reach the caller in both eras while a run waits", async () => {
    const call = { name: "terminal_run", arguments: { command: "sleep 1.3; echo slept" } };
    for (const era of ["2025", "2026"]) {
      const seen: { progress: number; message?: string }[] = [];
      const options = { onprogress: (p: { progress: number; message?: string }) => seen.push(p), timeout: 60_000 };
      // The 1.32 client takes a result schema before the options; the v2 client does not.
      const result = era === "2025" ? await h.client.callTool(call, undefined, options) : await modern.client.callTool(call, options);
      const text = (result as { content: { text: string }[] }).content[0]!.text;
      assert.match(text, /^slept\n/);
      assert.ok(seen.length >= 1, "no progress notification");
      assert.match(seen[0]!.message ?? "", /waiting for sleep 1\.3; echo slept/);
    }
  });

  test("TERMHIVE_MCP_ERA=2025: a probing 2026 client falls back to initialize", async () => {
    const forced = client2026(h, { TERMHIVE_MCP_ERA: "2025" });
    await forced.client.connect(forced.transport);
    try {
      assert.equal(forced.client.getProtocolEra(), "legacy");
      assert.notEqual(forced.client.getNegotiatedProtocolVersion(), "2026-07-28");
      const { tools } = await forced.client.listTools();
      assert.equal(tools.length, 31);
    } finally {
      await forced.client.close();
    }
  });

  test("TERMHIVE_MCP_ERA=2026: a 2025 client is refused, a 2026 one served", async () => {
    await assert.rejects(client2025(h, { TERMHIVE_MCP_ERA: "2026" }), /protocol version|2026-07-28/i);
    const forced = client2026(h, { TERMHIVE_MCP_ERA: "2026" });
    await forced.client.connect(forced.transport);
    try {
      assert.equal(forced.client.getNegotiatedProtocolVersion(), "2026-07-28");
      assert.equal((await forced.client.listTools()).tools.length, 31);
    } finally {
      await forced.client.close();
    }
  });

  test("a bad TERMHIVE_MCP_ERA stops the server with a line naming the variable and its values", () => {
    const r = spawnSync(process.execPath, [CLI, "mcp"], { env: { ...h.serverEnv(), TERMHIVE_MCP_ERA: "2027" }, input: "", encoding: "utf8" });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /TERMHIVE_MCP_ERA="2027" is invalid: use both, 2025 or 2026/);
  });
});

/** Every path under a folder, for "nothing was written". */
function tree(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).sort();
}

test("a server/discover probe in a short-lived process answers, starts no tmux server and writes nothing to TERMHIVE_HOME", async () => {
  const base = tempFolder("termhive-probe-");
  try {
    const home = join(base, "home");
    mkdirSync(home);
    const child = spawn(process.execPath, [CLI, "mcp"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: base, TERMHIVE_HOME: home, SHELL: "/bin/bash" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout });
    const answer = new Promise<Record<string, any>>((resolve) => lines.once("line", (line) => resolve(JSON.parse(line) as Record<string, any>)));
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "probe", version: "1" } };
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }) + "\n");
    const discovered = await answer;
    assert.equal(discovered.id, 1);
    assert.ok(discovered.result, JSON.stringify(discovered));
    assert.ok((discovered.result.supportedVersions as string[]).includes("2026-07-28"), JSON.stringify(discovered.result));
    assert.match(String(discovered.result.instructions), /terminal_run/);
    child.stdin.end();
    assert.equal(await exited, 0);
    assert.deepEqual(tree(home), [], "nothing written to TERMHIVE_HOME");
    assert.equal(existsSync(join(home, "tmux.sock")), false, "no tmux server");
  } finally {
    removeTempFolder(base);
  }
});

test("the discover answered before the SDK loads is the SDK's own answer, and the connection goes on in either era", async () => {
  const base = tempFolder("termhive-probe-");
  try {
    const home = join(base, "home");
    mkdirSync(home);
    const child = spawn(process.execPath, [CLI, "mcp"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: base, TERMHIVE_HOME: home, SHELL: "/bin/bash" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const answers: Record<string, any>[] = [];
    createInterface({ input: child.stdout }).on("line", (line) => answers.push(JSON.parse(line) as Record<string, any>));
    const answered = async (count: number) => {
      while (answers.length < count) await new Promise((r) => setTimeout(r, 10));
    };
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "probe", version: "1" } };
    // The first is answered before the SDK is loaded; the second by the SDK's serveStdio.
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }) + "\n");
    await answered(1);
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }) + "\n");
    await answered(2);
    assert.deepEqual(answers[0], answers[1]);
    // A 2025 client falling back after the probe is served as by a server that answered it itself.
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fallback", version: "1" } } }) + "\n");
    await answered(3);
    assert.equal(answers[2]!.id, 2);
    assert.equal(answers[2]!.result?.serverInfo?.name, "termhive", JSON.stringify(answers[2]));
    child.stdin.end();
    assert.equal(await exited, 0);
  } finally {
    removeTempFolder(base);
  }
});
