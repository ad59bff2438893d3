// Runs the built CLI the way a person or script does: a bare env (HOME and PATH, no LANG),
// from the harness's folder (not the repo), a fresh process per call.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { CLI, type Harness } from "./harness.js";

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

export function cliIn(h: Harness, extraEnv: Record<string, string>, args: string[], timeout = 60_000): Ran {
  return runCli(args, { cwd: h.cwd, env: { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home, ...extraEnv }, timeout });
}

/** The built CLI in a fresh process with exactly `env`; its stdout parsed when it is JSON. */
export function runCli(args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv; timeout?: number }): Ran {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd, env: options.env, encoding: "utf8", timeout: options.timeout ?? 60_000 });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** Runs a line as a person types it (shell quoting), `termhive` being the built CLI. */
export function shellLine(h: Harness, line: string): Ran {
  const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home };
  const r = spawnSync("bash", ["-c", `termhive() { ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"; }\n${line}`], { cwd: h.cwd, env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json: undefined };
}

export function assertOneLine(r: Ran, status: number, what: string): void {
  assert.equal(r.status, status, `${what}: exit ${r.status}\n${r.stderr}${r.stdout}`);
  assert.match(r.stderr, /^termhive: [^\n]+\n$/, `${what}: one line on stderr, got ${JSON.stringify(r.stderr)}`);
  assert.doesNotMatch(r.stderr, /\bat .*\.js:\d+/, `${what}: no stack`);
}

/** cliIn without blocking: for many independent calls at once. */
export function cliAsync(h: Harness, args: string[]): Promise<Ran> {
  const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: h.cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr, json: undefined }));
  });
}
