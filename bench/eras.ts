// `npm run bench eras` (issue 34): the stdio door in each MCP era — server start to the first
// tool list and a `terminal_run echo` round trip (medians), through the 1.32 SDK client
// (2025-11-25, initialize) and the v2 client (2026-07-28 pinned: no probe sibling, so the
// figure is the server's), and a `server/discover` probe answered by a fresh process.
// BENCH_BASELINE_CLI=<path to another build's cli.js> measures the 2025 figures and the
// probe's answer (an error there) against that build too, for the ±10 % comparison.
// The HTTP door too: one `termhive serve`, a client connecting to its first tool list and its
// echo round trip per era (2026: a new McpServer per request, so the echo is the figure to watch).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2026 } from "@modelcontextprotocol/client/stdio";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio2025 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, NODE_FLAGS, RUNS, median, round, startServe, type Emit } from "./common.js";

type Era = "2025" | "2026";

interface EraClient {
  connect(): Promise<void>;
  listTools(): Promise<unknown>;
  /** Opens the session "b" the echoes run in (a throwaway shell per call would time its start). */
  open(): Promise<unknown>;
  echo(): Promise<void>;
  close(): Promise<void>;
}

/** What the bench asks of either SDK's client. */
interface SdkClient {
  connect(transport: never): Promise<void>;
  listTools(): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

function eraClient(era: Era, cli: string, home: string): EraClient {
  const params = {
    command: process.execPath,
    args: [...NODE_FLAGS, "--import", CPU_PROBE, cli, "mcp"],
    env: { ...(process.env as Record<string, string>), TERMHIVE_HOME: home, SHELL: "/bin/bash", TERMHIVE_BENCH_CPU_FILE: cpuFile(home) },
    stderr: "ignore" as const,
  };
  const check = (result: unknown) => {
    const text = (result as { content: { text: string }[] }).content[0]?.text ?? "";
    if (!text.startsWith("hi\n")) throw new Error(`echo hi returned ${text}`);
  };
  // Either SDK's client, driven the same way: what differs is the era it speaks.
  const client: SdkClient = era === "2025" ? new Client2025({ name: "bench", version: "1" }) : new Client2026({ name: "bench", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  const transport = era === "2025" ? new Stdio2025(params) : new Stdio2026(params);
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  return {
    connect: () => client.connect(transport as never),
    listTools: () => client.listTools(),
    open: () => call("terminal_open", { name: "b", command: "bash" }),
    echo: async () => check(await call("terminal_run", { session: "b", command: "echo hi" })),
    close: () => client.close(),
  };
}

/**
 * The server's CPU time (user + system, ms) as it wrote its first tool list or discover
 * answer, noted by bench/startup-cpu-probe.ts: steadier than wall clock on a loaded machine.
 */
const CPU_PROBE = join(dirname(fileURLToPath(import.meta.url)), "startup-cpu-probe.js");
const cpuFile = (home: string) => join(home, "cpu-ms");
/** NaN when the answer was neither (a build without 2026 answers discover with an error). */
const cpuMs = (home: string) => (existsSync(cpuFile(home)) ? Number(readFileSync(cpuFile(home), "utf8")) : NaN);

async function startAndEcho(era: Era, cli: string): Promise<{ start: number[]; startCpu: number[]; echo: number[] }> {
  const start: number[] = [];
  const startCpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const home = mkdtempSync(join(tmpdir(), "termhive-bench-era-"));
    const client = eraClient(era, cli, home);
    const t0 = performance.now();
    await client.connect();
    await client.listTools();
    start.push(performance.now() - t0);
    startCpu.push(cpuMs(home));
    await client.close();
    rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
  const home = mkdtempSync(join(tmpdir(), "termhive-bench-era-"));
  const client = eraClient(era, cli, home);
  const echo: number[] = [];
  try {
    await client.connect();
    await client.open();
    for (let i = 0; i < RUNS + 5; i++) {
      const t0 = performance.now();
      await client.echo();
      if (i >= 5) echo.push(performance.now() - t0); // the first runs warm up V8 and the shell
    }
  } finally {
    await client.close();
    spawnSync("tmux", ["-S", join(home, "tmux.sock"), "kill-server"], { stdio: "ignore" });
    rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
  return { start, startCpu, echo };
}

/** Spawn → the answer to a `server/discover` written as the first line: wall and CPU ms. */
async function probeOnce(cli: string): Promise<[number, number]> {
  const home = mkdtempSync(join(tmpdir(), "termhive-bench-probe-"));
  const t0 = performance.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, "--import", CPU_PROBE, cli, "mcp"], { env: { ...(process.env as Record<string, string>), TERMHIVE_HOME: home, TERMHIVE_BENCH_CPU_FILE: cpuFile(home) }, stdio: ["pipe", "pipe", "ignore"] });
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }) + "\n");
  await new Promise<void>((resolve) => createInterface({ input: child.stdout }).once("line", () => resolve()));
  const ms = performance.now() - t0;
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  const cpu = cpuMs(home);
  rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  return [ms, cpu];
}

/** One era's client over HTTP (2026: the v2 client's default probe, as a real client connects). */
function httpClient(era: Era, url: string, token: string | null): { client: SdkClient; transport: unknown } {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const requestInit = { headers };
  if (era === "2025") return { client: new Client2025({ name: "bench", version: "1" }), transport: new Http2025(new URL(url), { requestInit }) };
  return { client: new Client2026({ name: "bench", version: "1" }, { versionNegotiation: { mode: "auto" } }), transport: new Http2026(new URL(url), { requestInit }) };
}

async function benchHttpEras(emit: Emit): Promise<void> {
  const serve = await startServe();
  try {
    const token = serve.info.token_path ? readFileSync(serve.info.token_path, "utf8").trim() : null;
    for (const era of ["2025", "2026"] as const) {
      const start: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { client, transport } = httpClient(era, serve.info.url, token);
        const t0 = performance.now();
        await client.connect(transport as never);
        await client.listTools();
        start.push(performance.now() - t0);
        await client.close();
      }
      const { client, transport } = httpClient(era, serve.info.url, token);
      await client.connect(transport as never);
      const name = `b${era}`;
      await client.callTool({ name: "terminal_open", arguments: { name, command: "bash" } });
      const echo: number[] = [];
      for (let i = 0; i < RUNS + 5; i++) {
        const t0 = performance.now();
        const result = await client.callTool({ name: "terminal_run", arguments: { session: name, command: "echo hi" } });
        if (i >= 5) echo.push(performance.now() - t0);
        const text = (result as { content: { text: string }[] }).content[0]?.text ?? "";
        if (!text.startsWith("hi\n")) throw new Error(`echo hi returned ${text}`);
      }
      await client.close();
      emit({ bench: `http ${era} era: connect to first tool list`, unit: "ms", median: round(median(start)), runs: start.length, method: era === "2025" ? "1.32 SDK client: initialize (a session) → tools/list" : "v2 client, auto: server/discover probe → tools/list (stateless)" });
      emit({ bench: `http ${era} era: terminal_run "echo hi"`, unit: "ms", median: round(median(echo)), runs: echo.length });
    }
  } finally {
    await serve.stop();
  }
}

export async function benchEras(emit: Emit): Promise<void> {
  await benchHttpEras(emit);
  const builds: Array<[string, string]> = [["this build", CLI]];
  if (process.env.BENCH_BASELINE_CLI) builds.push(["baseline", process.env.BENCH_BASELINE_CLI]);
  for (const [build, cli] of builds) {
    for (const era of build === "this build" ? (["2025", "2026"] as const) : (["2025"] as const)) {
      const { start, startCpu, echo } = await startAndEcho(era, cli);
      emit({ bench: `stdio ${era} era: server start to first tool list`, build, unit: "ms", median: round(median(start)), cpu_median: round(median(startCpu)), runs: start.length, method: era === "2025" ? "1.32 SDK client: spawn → initialize → tools/list answered" : "v2 client pinned to 2026-07-28: spawn → tools/list answered (no discover probe)" });
      emit({ bench: `stdio ${era} era: terminal_run "echo hi"`, build, unit: "ms", median: round(median(echo)), runs: echo.length });
    }
    const probes: number[] = [];
    const probeCpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const [ms, cpu] = await probeOnce(cli);
      probes.push(ms);
      probeCpu.push(cpu);
    }
    emit({ bench: "stdio server/discover probe answered", build, unit: "ms", median: round(median(probes)), ...(probeCpu.some(Number.isNaN) ? {} : { cpu_median: round(median(probeCpu)) }), max: round(Math.max(...probes)), runs: probes.length, target: build === "this build" ? "<= 150" : undefined, method: "spawn → the first line of stdout answering server/discover (a short-lived probe process, issue 34 §5)" });
  }
}
