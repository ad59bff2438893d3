// Helpers shared by the bench sections: JSON-line output, medians, a private TERMHIVE_HOME
// (with a HOME of its own for the shells), and the built server driven through the MCP SDK
// client over stdio.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The `termhive` command as installed: package.json's bin. */
export const CLI = resolve((JSON.parse(readFileSync("package.json", "utf8")) as { bin: { termhive: string } }).bin.termhive);
/**
 * Node flags on the bin's `#!` line (`#!/usr/bin/env -S node --flag`): `npx termhive`
 * runs the file through that line, so a server started here gets the same flags.
 */
export const NODE_FLAGS = shebangFlags(CLI);

function shebangFlags(file: string): string[] {
  const head = Buffer.alloc(512);
  const fd = openSync(file, "r");
  const length = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const first = head.subarray(0, length).toString("utf8").split("\n", 1)[0]!;
  const match = /^#!\s*\S*\benv\s+(?:-S\s+)?node\b(.*)$/.exec(first) ?? /^#!\s*\S*\bnode\b(.*)$/.exec(first);
  return match ? match[1]!.trim().split(/\s+/).filter(Boolean) : [];
}

/** Arguments for process.execPath that start the command the way `npx termhive …` does. */
export function cliArgs(...args: string[]): string[] {
  return [...NODE_FLAGS, CLI, ...args];
}
export const RUNS = Number(process.env.BENCH_RUNS ?? 30);

export type Emit = (record: Record<string, unknown>) => void;

export function emit(record: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify(record) + "\n");
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0..100), nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}

export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await work();
  return [performance.now() - t0, value];
}

/** Wall-clock time in ms with sub-ms resolution, comparable across processes on this machine. */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

/** /proc/loadavg's three load averages. */
export function loadavg(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

/** VmRSS and VmHWM (peak) of a process in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): { rss_mb: number; peak_rss_mb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8").split("\n");
  const field = (name: string) => Number(status.find((l) => l.startsWith(`${name}:`))!.replace(/\D+/g, "")) / 1024;
  return { rss_mb: round(field("VmRSS")), peak_rss_mb: round(field("VmHWM")) };
}

export interface BenchHome {
  home: string;
  /** Environment for the server: TERMHIVE_HOME, SHELL=/bin/bash and a HOME with an empty .bashrc. */
  env: Record<string, string>;
  destroy(): void;
}

/** A temporary TERMHIVE_HOME; the shells get a HOME of their own so the developer's rc files don't skew figures. */
export function benchHome(): BenchHome {
  const home = mkdtempSync(join(tmpdir(), "termhive-bench-"));
  const userHome = join(home, "user");
  mkdirSync(userHome);
  writeFileSync(join(userHome, ".bashrc"), "");
  writeFileSync(join(userHome, ".bash_profile"), "");
  return {
    home,
    env: { ...(process.env as Record<string, string>), TERMHIVE_HOME: home, SHELL: "/bin/bash", HOME: userHome },
    destroy() {
      spawnSync("tmux", ["-S", join(home, "tmux.sock"), "kill-server"]);
      rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    },
  };
}

export interface Server {
  client: Client;
  transport: StdioClientTransport;
  home: string;
  call(name: string, args: Record<string, unknown>): Promise<Record<string, any>>;
  stop(): Promise<void>;
}

/**
 * A server in a benchHome() (shells start from an empty ~/.bashrc, as for the doors): the
 * figures are termhive's, not the machine's rc files' (this machine's runs pyenv's prompt
 * hook, a fork on every prompt: ~+4 ms per command).
 */
export async function startServer(bench: BenchHome = benchHome(), extraEnv: Record<string, string> = {}, as: { bareEnv?: boolean; cwd?: string } = {}): Promise<Server> {
  const home = bench.home;
  // bareEnv: only HOME, PATH and TERMHIVE_HOME, as an MCP client's default environment gives.
  const env = as.bareEnv ? { HOME: bench.env.HOME!, PATH: process.env.PATH ?? "/usr/bin:/bin", TERMHIVE_HOME: home } : bench.env;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs("mcp"),
    env: { ...env, ...extraEnv },
    ...(as.cwd ? { cwd: as.cwd } : {}),
    stderr: "ignore",
  });
  const client = new Client({ name: "termhive-bench", version: "1" });
  await client.connect(transport);
  return {
    client,
    transport,
    home,
    async call(name, args) {
      const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as { structuredContent?: Record<string, any>; _meta?: Record<string, any>; isError?: boolean; content: { text: string }[] };
      if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      return (r._meta?.["termhive/result"] ?? r.structuredContent ?? {});
    },
    async stop() {
      await client.close().catch(() => {});
      bench.destroy();
    },
  };
}

export interface ServeInfo { url: string; port: number; grpc_socket: string; grpc_port: number | null; token_path: string | null }

/** Extra node flags for `termhive serve`, e.g. BENCH_SERVE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const SERVE_NODE_ARGS = (process.env.BENCH_SERVE_NODE_ARGS ?? "").split(" ").filter(Boolean);

export interface Serve {
  proc: ChildProcess;
  info: ServeInfo;
  /** Ends the server (SIGTERM, then SIGKILL after 5 s) and removes its home. */
  stop(): Promise<void>;
}

/** `termhive serve` (HTTP and gRPC on ephemeral ports) in a benchHome(), once it has printed where it listens. */
export async function startServe(h: BenchHome = benchHome()): Promise<Serve> {
  const proc = spawn(process.execPath, [...SERVE_NODE_ARGS, ...cliArgs("serve", "--port", "0", "--grpc-port", "0", "--json")], { env: h.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (proc.exitCode === null) proc.kill("SIGKILL");
    }
    h.destroy();
  };
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: proc.stdout! }).once("line", resolve);
      proc.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    return { proc, info: JSON.parse(line) as ServeInfo, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
