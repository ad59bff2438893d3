// The refusal of agents that turn their own checks off, judged on the parsed command: the ten
// spellings of issue 30 (six of them were missed by matching words), and lines that only look
// like them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BUILTIN_PROFILES } from "../../src/hive/programs/builtin-profiles.js";
import { dangerRefusal, dangerousFlagsIn } from "../../src/sandbox/agent-rules.js";

const claude = BUILTIN_PROFILES.claude!.dangerousFlags!;
const codex = BUILTIN_PROFILES.codex!.dangerousFlags!;
const shell: string[] = [];

const OFF: [string, readonly string[], RegExp][] = [
  ["claude --dangerously-skip-permissions", claude, /--dangerously-skip-permissions/],
  ["claude --permission-mode=bypassPermissions", claude, /--permission-mode bypassPermissions/],
  [`claude --settings '{"permissions":{"defaultMode":"bypassPermissions"}}'`, claude, /--settings/],
  [`claude --settings='{"permissions":{"allow":["Bash(*)"]}}'`, claude, /--settings/],
  // Started by the shell profile, wrapped: the program that runs is still claude.
  ["sh -c 'claude --dangerously-skip-permissions'", shell, /--dangerously-skip-permissions/],
  [`bash -lc "exec env FOO=1 claude --allowedTools 'Bash(*)' Edit"`, shell, /--allowedTools/],
  ["claude --allowed-tools Edit,Bash", claude, /--allowedTools/],
  ["codex -sdanger-full-access", codex, /danger-full-access/],
  ["codex -c sandbox_mode=danger-full-access -c approval_policy=never", codex, /sandbox_mode=danger-full-access/],
  [`codex --config sandbox_mode="danger-full-access" -a never`, codex, /sandbox_mode=danger-full-access/],
  ["codex --config=sandbox_mode='danger-full-access'", shell, /sandbox_mode=danger-full-access/],
  ["codex --sandbox=danger-full-access", codex, /--sandbox danger-full-access/],
  ["nohup codex --yolo", codex, /--yolo/],
  // Trial 16, finding 8: the program from a variable (set on the line, or not), and the flag
  // that makes bypass mode one Shift+Tab away.
  ["c=claude; $c --dangerously-skip-permissions", shell, /--dangerously-skip-permissions/],
  ["export c=codex; exec $c --yolo", shell, /--yolo/],
  ["$AGENT --permission-mode bypassPermissions", shell, /--permission-mode bypassPermissions/],
  ["$(command -v claude) --dangerously-skip-permissions", shell, /--dangerously-skip-permissions/],
  ["claude --allow-dangerously-skip-permissions", shell, /--allow-dangerously-skip-permissions/],
  ["claude --allow-dangerously-skip-permissions", claude, /--allow-dangerously-skip-permissions/],
];

const ON: [string, readonly string[]][] = [
  ["claude", claude],
  ["claude 'please never use --dangerously-skip-permissions'", claude],
  ["claude --permission-mode acceptEdits", claude],
  [`claude --settings '{"permissions":{"defaultMode":"default","allow":["Bash(git status)"]}}'`, claude],
  ["claude --allowedTools 'Bash(git:*)' Edit", claude],
  ["echo claude --dangerously-skip-permissions", shell],
  ["codex -s workspace-write -a never", codex],
  ["codex -c approval_policy=never", codex],
  [`codex "set sandbox_mode=danger-full-access in the docs"`, codex],
  ["codex --yolo-not", codex],
  ["c=claude; $c", shell],
  ["$AGENT --model opus", shell],
  ["c=codex; $c --dangerously-skip-permissions", shell],
];

test("the ten spellings (and a few more) of an agent with its own checks off are each found, on the parsed command", () => {
  for (const [command, flags, named] of OFF) {
    const found = dangerousFlagsIn(command, flags);
    assert.ok(found.some((f) => named.test(f)), `${command}: found ${JSON.stringify(found)}`);
    assert.match(dangerRefusal("a", command, flags, undefined, undefined) ?? "", /its own permission checks off.*nothing was started/, command);
  }
});

test("lines that only look like it are not refused: a prompt that names the flag, another program, narrower settings", () => {
  for (const [command, flags] of ON) assert.deepEqual(dangerousFlagsIn(command, flags), [], command);
});

test("a profile's own flags match in every spelling of an option, on any program the line runs", () => {
  assert.deepEqual(dangerousFlagsIn("bash --norc", ["--norc"]), ["--norc"]);
  assert.deepEqual(dangerousFlagsIn("sh -c 'tool --mode=unchecked'", ["--mode unchecked"]), ["--mode unchecked"]);
  assert.deepEqual(dangerousFlagsIn("tool -munchecked", ["-m unchecked"]), ["-m unchecked"]);
  assert.deepEqual(dangerousFlagsIn("tool --mode checked", ["--mode unchecked"]), []);
});
