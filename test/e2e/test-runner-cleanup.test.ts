// Issue 21 §6: `npm test` leaves no tmux server and no temporary folder behind, whatever the
// tests do. The runner is run on a test that leaks both (test/fixtures/leaky-run.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the test runner cleans up after the tests", () => {
  test("a leaked temporary folder and a tmux server whose socket is gone are removed and named", async () => {
    const outside = mkdtempSync(join(tmpdir(), "runner-check-"));
    const report = join(outside, "leak.json");
    try {
      const run = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        // Without NODE_TEST_CONTEXT: with it, the inner `node --test` would report to this runner instead of running.
        const { NODE_TEST_CONTEXT: _, ...env } = process.env;
        const child = spawn(process.execPath, ["scripts/run-tests.mjs", "test/fixtures/leaky-run.ts"], { env: { ...env, LEAK_REPORT: report } });
        let stdout = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout }));
      });
      assert.equal(run.code, 0, run.stdout);
      const leak = JSON.parse(readFileSync(report, "utf8")) as { dir: string; pid: number };
      assert.ok(leak.pid > 0);
      assert.equal(existsSync(leak.dir), false, "the leaked folder is gone");
      const deadline = Date.now() + 5_000;
      while (alive(leak.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(alive(leak.pid), false, "the leaked tmux server is gone");
      assert.match(run.stdout, /the tests left 1 tmux server\(s\) and 1 temporary folder\(s\); removed:/);
      assert.ok(run.stdout.includes(leak.dir), "the leftover is named");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
