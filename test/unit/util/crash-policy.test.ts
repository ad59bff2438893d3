// The crash policy in a real child process: a stray uncaught exception or unhandled rejection
// is logged (stderr line + audit entry) and an HTTP server in the same process keeps
// answering; a storm of errors ends the process with one clear line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

const policy = resolve("src/util/crash-policy.ts");

function child(script: string, home: string) {
  const code = `import { installCrashPolicy } from ${JSON.stringify(policy)};\ninstallCrashPolicy("test", { home: ${JSON.stringify(home)}, auditMaxBytes: 1048576 });\n${script}`;
  const proc = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once("exit", (c) => r(c)));
  return { proc, stderr: () => stderr, exited };
}

test("a stray error is logged with context and the process keeps serving", async () => {
  const home = mkdtempSync(join(tmpdir(), "termhive-crash-"));
  const c = child(
    `import { createServer } from "node:http";
     const server = createServer((req, res) => {
       if (req.url === "/throw") setImmediate(() => { throw new TypeError("boom in a callback"); });
       if (req.url === "/reject") void Promise.reject(new Error("nobody awaited me"));
       res.end("alive");
     }).listen(0, "127.0.0.1", () => console.log(server.address().port));`,
    home,
  );
  try {
    const port = Number(await new Promise<string>((r) => createInterface({ input: c.proc.stdout! }).once("line", r)));
    const get = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).text();
    assert.equal(await get("/throw"), "alive");
    assert.equal(await get("/reject"), "alive");
    assert.equal(await get("/"), "alive", `still serving after both: ${c.stderr()}`);
    assert.match(c.stderr(), /termhive test: uncaught exception, kept serving: TypeError: boom in a callback \(at /);
    assert.match(c.stderr(), /termhive test: unhandled rejection, kept serving: Error: nobody awaited me/);
    const audit = readFileSync(join(home, "audit.jsonl"), "utf8");
    assert.match(audit, /"event":"uncaught".*boom in a callback/);
  } finally {
    c.proc.kill();
    rmSync(home, { recursive: true, force: true });
  }
});

test("errors in a loop it cannot contain end the process with one clear line", async () => {
  const home = mkdtempSync(join(tmpdir(), "termhive-crash-"));
  const c = child(`setInterval(() => { throw new Error("again"); }, 1);`, home);
  try {
    assert.equal(await c.exited, 70);
    assert.match(c.stderr(), /termhive test: FATAL uncaught exception it cannot contain \(21 errors in 10 s\), exiting: Error: again/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
