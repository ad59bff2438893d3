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

/** `node scripts/run-tests.mjs <fixture>` as `npm test` runs it, with `env` added. */
function runTests(fixture: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    // Without NODE_TEST_CONTEXT: with it, the inner `node --test` would report to this runner instead of running.
    const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
    const child = spawn(process.execPath, ["scripts/run-tests.mjs", fixture], { env: { ...inherited, ...env } });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

describe("the test runner cleans up after the tests", () => {
  test("a test that cleans up as the suite's do (temp-folder.ts, tmux-server.ts) leaves nothing, and the run passes", async () => {
    const run = await runTests("test/fixtures/tidy-run.ts");
    assert.match(run.stdout, /✔ cleans up after itself/);
    assert.doesNotMatch(run.stdout, /the tests left/);
    assert.equal(run.code, 0, run.stdout);
  });

  test("a leaked temporary folder and a tmux server whose socket is gone are removed, named, and fail the run", async () => {
    const outside = mkdtempSync(join(tmpdir(), "runner-check-"));
    const report = join(outside, "leak.json");
    try {
      const run = await runTests("test/fixtures/leaky-run.ts", { LEAK_REPORT: report });
      // The leaking test itself passes: the run fails for what it left.
      assert.match(run.stdout, /✔ leaves a folder and a tmux server behind/);
      assert.equal(run.code, 1, run.stdout);
      const leak = JSON.parse(readFileSync(report, "utf8")) as { dir: string; pid: number };
      assert.ok(leak.pid > 0);
      assert.equal(existsSync(leak.dir), false, "the leaked folder is gone");
      const deadline = Date.now() + 5_000;
      while (alive(leak.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(alive(leak.pid), false, "the leaked tmux server is gone");
      assert.match(run.stdout, /the tests left 1 tmux server\(s\) and 1 temporary folder\(s\); removed:/);
      assert.match(run.stdout, /FAIL: the tests must remove the folders they make/);
      assert.ok(run.stdout.includes(leak.dir), "the leftover is named");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("a folder left in /var/tmp (where the sandbox tests make theirs) with a tmux server in it is removed, named, and fails the run", async () => {
    const outside = mkdtempSync(join(tmpdir(), "runner-check-"));
    const report = join(outside, "leak.json");
    try {
      const run = await runTests("test/fixtures/leaky-outside-run.ts", { LEAK_REPORT: report });
      assert.match(run.stdout, /✔ leaves a folder in \/var\/tmp and a tmux server in it/);
      assert.equal(run.code, 1, run.stdout);
      const leak = JSON.parse(readFileSync(report, "utf8")) as { dir: string; pid: number };
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
