// Starts the built `termhive serve --json` in a private TERMHIVE_HOME on free ports, for the
// HTTP, gRPC and CLI e2e tests; stop() ends it, kills its tmux server and removes the home.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { removeTempFolder, tempFolder } from "../temp-folder.js";
import { endTmuxServer } from "../tmux-server.js";
import { CLI } from "./harness.js";

export interface Served {
  home: string;
  url: string;
  port: number;
  grpcSocket: string;
  grpcPort: number | null;
  token: string | null;
  proc: ChildProcess;
  stderr: () => string;
  env: Record<string, string>;
  stop(opts?: { keepHome?: boolean }): Promise<void>;
}

export function newHome(): string {
  return tempFolder("termhive-e2e-");
}

export function testEnv(home: string): Record<string, string> {
  return { ...(process.env as Record<string, string>), TERMHIVE_HOME: home, SHELL: "/bin/bash" };
}

export async function serve(args: string[] = [], home = newHome(), extraEnv: Record<string, string> = {}): Promise<Served> {
  const env = { ...testEnv(home), ...extraEnv };
  const proc = spawn(process.execPath, [CLI, "serve", "--port", "0", "--json", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout! });
    rl.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  const info = JSON.parse(line) as { url: string; port: number; grpc_socket: string; grpc_port: number | null; token_path: string | null };
  return {
    home,
    url: info.url,
    port: info.port,
    grpcSocket: info.grpc_socket,
    grpcPort: info.grpc_port,
    token: info.token_path ? readFileSync(info.token_path, "utf8").trim() : null,
    proc,
    env,
    stderr: () => err,
    async stop({ keepHome = false } = {}) {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        await exited;
      }
      if (!keepHome) await destroyHome(home);
    },
  };
}

export async function destroyHome(home: string): Promise<void> {
  await endTmuxServer(join(home, "tmux.sock"));
  removeTempFolder(home);
}

/** Signs in as the browser does (/?token= → cookie), and reads a page token from the page. */
export async function signIn(s: Served): Promise<{ cookie: string; pageToken: string }> {
  const login = await fetch(`http://127.0.0.1:${s.port}/?token=${encodeURIComponent(s.token!)}`, { redirect: "manual" });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
  const html = await (await fetch(`http://127.0.0.1:${s.port}/`, { headers: { cookie } })).text();
  const pageToken = /<meta name="termhive-page-token" content="([^"]+)">/.exec(html)?.[1];
  assert.ok(cookie && pageToken, "signed in");
  return { cookie, pageToken };
}
