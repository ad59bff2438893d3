// Issue 23 §7: `termhive doctor` prints the installed claude/codex versions (the real pinned
// programs) and warns when one is newer than the versions its profile was checked against.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "./harness.js";
import { agentPath, missingAgent } from "./real-agents.js";

const missing = missingAgent("claude") ?? missingAgent("codex");

function doctor(env: Record<string, string>): { check: string; ok: boolean; detail: string }[] {
  const home = mkdtempSync(join(tmpdir(), "termhive-doctor-"));
  const r = spawnSync(process.execPath, [CLI, "doctor", "--json"], { encoding: "utf8", env: { PATH: agentPath(), HOME: home, TERMHIVE_HOME: join(home, "th"), ...env }, timeout: 60_000 });
  return JSON.parse(r.stdout).checks;
}

test("doctor names the installed claude and codex versions, and warns about one newer than its profile knows", { skip: missing ?? false }, () => {
  const checks = doctor({});
  const claude = checks.find((c) => c.check === "claude")!;
  const codex = checks.find((c) => c.check === "codex")!;
  assert.deepEqual([claude.ok, codex.ok], [true, true], JSON.stringify(checks));
  assert.match(claude.detail, /^2\.1\.332; the claude profile was checked against 2\.1\.332/);
  assert.match(codex.detail, /^0\.169\.0; the codex profile was checked against 0\.169\.0/);
  // A profile that knows only an older Codex: the installed one is newer.
  const profiles = join(mkdtempSync(join(tmpdir(), "termhive-profiles-")), "p.json");
  writeFileSync(profiles, JSON.stringify({ profiles: { codex: { extends: "codex", checkedVersions: ["0.100.0"] } } }));
  const warned = doctor({ TERMHIVE_PROFILES: profiles }).find((c) => c.check === "codex")!;
  assert.equal(warned.ok, false);
  assert.match(warned.detail, /0\.169\.0: newer than the codex profile knows \(checked against 0\.100\.0\)/);
});

if (missing) test(`doctor's agent versions skipped: ${missing}`, { skip: missing }, () => {});
