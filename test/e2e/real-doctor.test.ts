// Issue 23 §7: `termhive doctor` prints the installed claude/codex versions (the real pinned
// programs) and warns when one is newer than the versions its profile was checked against.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI } from "./harness.js";
import { agentPath, missingAgent } from "./real-agents.js";
import { tempFolder } from "../temp-folder.js";
import { endTmuxServer } from "../tmux-server.js";

const missing = missingAgent("claude") ?? missingAgent("codex");
// The versions scripts/agents pins (and the profiles were checked against).
const pinned: Record<string, string> = JSON.parse(readFileSync(new URL("../../scripts/agents/package.json", import.meta.url), "utf8")).dependencies;
const CLAUDE = pinned["@anthropic-ai/claude-code"]!;
const CODEX = pinned["@openai/codex"]!;
const re = (v: string) => v.replace(/\./g, "\\.");

async function doctor(env: Record<string, string>): Promise<{ check: string; ok: boolean; detail: string }[]> {
  const home = tempFolder("termhive-doctor-");
  const r = spawnSync(process.execPath, [CLI, "doctor", "--json"], { encoding: "utf8", env: { PATH: agentPath(), HOME: home, TERMHIVE_HOME: join(home, "th"), ...env }, timeout: 60_000 });
  // Its round trip started the tmux server of that TERMHIVE_HOME, which outlives the CLI as it does for a user.
  await endTmuxServer(join(home, "th", "tmux.sock"));
  return JSON.parse(r.stdout).checks;
}

test("doctor names the installed claude and codex versions, and warns about one newer than its profile knows", { skip: missing ?? false }, async () => {
  const checks = await doctor({});
  const claude = checks.find((c) => c.check === "claude")!;
  const codex = checks.find((c) => c.check === "codex")!;
  assert.deepEqual([claude.ok, codex.ok], [true, true], JSON.stringify(checks));
  assert.match(claude.detail, new RegExp(`^${re(CLAUDE)}; the claude profile was checked against (?:[0-9.]+, )*${re(CLAUDE)}\\b`));
  assert.match(codex.detail, new RegExp(`^${re(CODEX)}; the codex profile was checked against (?:[0-9.]+, )*${re(CODEX)}\\b`));
  // A profile that knows only an older Codex: the installed one is newer.
  const profiles = join(tempFolder("termhive-profiles-"), "p.json");
  writeFileSync(profiles, JSON.stringify({ profiles: { codex: { extends: "codex", checkedVersions: ["0.100.0"] } } }));
  const warned = (await doctor({ TERMHIVE_PROFILES: profiles })).find((c) => c.check === "codex")!;
  assert.equal(warned.ok, false);
  assert.match(warned.detail, new RegExp(`${re(CODEX)}: newer than the codex profile knows \\(checked against 0\\.100\\.0\\)`));
});

if (missing) test(`doctor's agent versions skipped: ${missing}`, { skip: missing }, () => {});
