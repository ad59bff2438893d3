// `termhive dashboard`: the URL of the web dashboard of this home's `termhive serve`,
// starting one (detached, logging to <home>/serve.log) if none runs; opened in the
// browser on a desktop (DISPLAY or WAYLAND_DISPLAY set and xdg-open present).
import { spawn, spawnSync } from "node:child_process";
import { openSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../config.js";
import { port } from "../verbs/cli-args.js";
import { isLoopbackHost } from "../auth/http-guard.js";
import { loadOrCreateToken } from "../auth/token.js";
import { dashboardUrl, readServeRecord, type ServeRecord } from "./serve-record.js";

const START_TIMEOUT_MS = 15_000;

async function startServe(home: string, port: number): Promise<ServeRecord> {
  const log = openSync(join(home, "serve.log"), "a", 0o600);
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, "serve", "--port", String(port)], {
    detached: true,
    stdio: ["ignore", log, log],
    env: process.env,
  });
  child.unref();
  let exited: number | null = null;
  child.once("exit", (code) => (exited = code ?? 1));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const record = readServeRecord(home);
    if (record && record.pid === child.pid) return record;
    if (exited !== null) throw new Error(`termhive serve exited (${exited}) before it listened; see ${join(home, "serve.log")}`);
    if (Date.now() > deadline) throw new Error(`termhive serve did not start within ${START_TIMEOUT_MS / 1000} s; see ${join(home, "serve.log")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function openInBrowser(url: string): boolean {
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  if (spawnSync("sh", ["-c", "command -v xdg-open"], { stdio: "ignore" }).status !== 0) return false;
  spawn("xdg-open", [url], { detached: true, stdio: "ignore" }).unref();
  return true;
}

export function registerDashboard(program: Command): void {
  program
    .command("dashboard")
    .description("print (and on a desktop open) the web dashboard's URL, starting termhive serve if none runs")
    .option("-p, --port <n>", "port for a serve started here", port, 7777)
    .option("--no-open", "do not open a browser")
    .action(async (o: { port: number; open: boolean }) => {
      const home = loadConfig().home;
      let record = readServeRecord(home);
      const started = record === undefined;
      record ??= await startServe(home, o.port);
      const url = dashboardUrl(record.host, record.port, record.auth ? loadOrCreateToken(home) : null, isLoopbackHost(record.host));
      process.stdout.write(`${started ? `Started termhive serve (pid ${record.pid}, log ${join(home, "serve.log")}).\n` : ""}Dashboard: ${url}\n`);
      if (o.open && openInBrowser(url)) process.stdout.write("Opened in your browser.\n");
    });
}
