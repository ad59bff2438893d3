// The pinned MCP conformance runners (scripts/conformance: 0.1.16 for 2025, the npm alias
// conformance-2026 for 2026-07-28) and the Node 22 they need, for the conformance e2e tests.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const RUNNER_DIR = resolve("scripts/conformance");
const NODE22 = join(RUNNER_DIR, "node_modules/node/bin/node");
export const INSTALL_HINT = "install it with: npm ci --prefix scripts/conformance (needs network once; .ci/run does it), or set TERMHIVE_SKIP_CONFORMANCE=1 to skip this file";

export interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  errorMessage?: string;
  description?: string;
}

export interface Runner {
  run(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }>;
}

/** The runner a package.json dependency of scripts/conformance names; throws how to install it when it is missing or not the pin. */
export function pinnedRunner(dependency: string): Runner {
  const packageDir = join(RUNNER_DIR, "node_modules", dependency);
  const pin = (JSON.parse(readFileSync(join(RUNNER_DIR, "package.json"), "utf8")).dependencies[dependency] as string).replace(/^npm:@modelcontextprotocol\/conformance@/, "");
  if (!existsSync(NODE22) || !existsSync(join(packageDir, "package.json"))) throw new Error(`the MCP conformance runner ${dependency} is not installed in ${RUNNER_DIR}; ${INSTALL_HINT}`);
  const installed = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
  if (installed !== pin) throw new Error(`scripts/conformance has ${dependency} ${installed}, the pin is ${pin}; ${INSTALL_HINT}`);
  return {
    run: (args, timeoutMs) =>
      new Promise((resolvePromise, reject) => {
        const child = spawn(NODE22, [join(packageDir, "dist/index.js"), ...args], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.once("error", reject);
        child.once("exit", (code) => {
          clearTimeout(timer);
          resolvePromise({ code, out });
        });
      }),
  };
}

/** Each scenario's checks from a run's output folder (folders are named server-<scenario>-<ISO timestamp>). */
export function resultsIn(folder: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const dir of readdirSync(folder)) {
    const m = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir);
    if (m) results.set(m[1]!, JSON.parse(readFileSync(join(folder, dir, "checks.json"), "utf8")) as Check[]);
  }
  return results;
}
