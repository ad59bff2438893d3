// Temporary folders the tests (and their fixtures) make: each is removed when its maker is
// done with it, and again when the test file's process exits, however its tests ended (a
// failed assertion, a timeout) and whatever a dying program wrote into it after the first
// removal (a shell saving its history as tmux kills it). `npm test` fails a run that leaves
// a folder behind (scripts/run-tests.mjs).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();

/** A new folder `<TMPDIR>/<prefix>XXXXXX`, removed when this process exits at the latest. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  removeAtExit(dir);
  return dir;
}

/**
 * Where a test makes a folder that must lie outside /tmp (a sandbox's /tmp is its own): the
 * folder of this test run that scripts/run-tests.mjs made in /var/tmp, so runs side by side
 * never take each other's folders for leftovers; /var/tmp when a file runs on its own.
 */
export function outsideTmp(): string {
  return process.env.TERMHIVE_TEST_OUTSIDE_TMP || "/var/tmp";
}

/** Removes `dir` when this process exits (for a folder a program under test made). */
export function removeAtExit(dir: string): void {
  // "exit" listeners run synchronously: rmSync is what works there.
  if (made.size === 0) process.once("exit", () => made.forEach(removeTempFolder));
  made.add(dir);
}

/** Removes a folder now; a failure is said, not thrown (the removal at exit tries again). */
export function removeTempFolder(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  } catch (error) {
    process.stderr.write(`note: could not remove ${dir}: ${(error as Error).message}\n`);
  }
}
