// agent_spawn / hive_layout: the command line that makes an agent program report its status
// through its own hooks (hive/programs/hooks.ts). The hooks call the pane's `termhive` shim by its
// absolute path (the program may run hooks with another PATH), naming the agent.
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { hookLaunch, type AgentProfile } from "../index.js";
import { ensurePrivateDir } from "../../util/paths.js";
import { ensureShim, hostCliPath } from "../../terminal/live/pane-cli.js";
import type { HostFacts } from "../../backends/backend.js";
import { joinWords } from "../../util/words.js";
import { startConversation } from "./launch-facts.js";

const program = (command: string) => basename(command.trim().split(/\s+/)[0] ?? "");

/** Flags that switch a program's user hooks off: Claude Code 2.1.332's `--bare` and `--safe-mode` (`claude --help`). */
const HOOKS_OFF_FLAGS: Readonly<Record<string, readonly string[]>> = { "claude-settings": ["--bare", "--safe-mode"] };
/**
 * The variables those flags set, which switch the hooks off by themselves (checked with
 * 2.1.332: a `UserPromptSubmit` hook given with --settings does not run under either).
 */
const HOOKS_OFF_ENV: Readonly<Record<string, readonly string[]>> = { "claude-settings": ["CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"] };

/** A variable's value that switches a mode on (Claude Code's own reading of "1" / "true"). */
const on = (value: string | undefined) => value !== undefined && !/^(?:|0|false|no|off)$/i.test(value.trim());

/**
 * What keeps the profile's hooks from running — a flag in `command` ("--bare") or a variable
 * of the agent's environment ("CLAUDE_CODE_SIMPLE=1") — or null. Such an agent's status comes
 * from its screen alone: its hooks are not configured, and agent_spawn says so. `env` maps
 * the variables given to the agent (a record of names alone counts a name as set).
 */
export function hooksOffBy(command: string | undefined, profile: AgentProfile, env: Readonly<Record<string, string | undefined>> | readonly string[] = {}): string | null {
  if (!profile.hooks || !command?.trim() || program(command) !== program(profile.command || " ")) return null;
  const words = command.trim().split(/\s+/);
  const flag = HOOKS_OFF_FLAGS[profile.hooks.via]?.find((f) => words.includes(f));
  if (flag) return flag;
  const given = (name: string) => (Array.isArray(env) ? env.includes(name) : on((env as Record<string, string | undefined>)[name]));
  const name = HOOKS_OFF_ENV[profile.hooks.via]?.find(given);
  if (!name) return null;
  return Array.isArray(env) ? name : `${name}=${(env as Record<string, string>)[name]}`;
}

/**
 * Whether an agent started with `command` (as given, before hook arguments) runs the profile's
 * hooks: the profile declares hooks, the command runs the profile's own program (a `bash` or
 * `node fake.mjs` started under the claude profile gets no `--settings`) and no flag keeps them
 * off. The one rule for configuring the hooks and for counting on their reports
 * (taken-report.ts): a launch without them reports nothing, and waiting for its word only
 * delays every message.
 */
export function hooksConfigured(command: string | undefined, profile: AgentProfile, env: Readonly<Record<string, string | undefined>> | readonly string[] = {}): boolean {
  if (!profile.hooks || !command?.trim() || !profile.command.trim()) return false;
  return program(command) === program(profile.command) && hooksOffBy(command, profile, env) === null;
}

/**
 * `command` with the profile's hook arguments appended where hooksConfigured says so. Writes
 * the settings file the arguments name.
 */
export function commandWithHooks(command: string | undefined, profile: AgentProfile, agent: string, home: string, env: Readonly<Record<string, string | undefined>> = {}): string | undefined {
  if (!profile.hooks || !hooksConfigured(command, profile, env)) return command;
  const shim = ensureShim(home);
  const launch = hookLaunch(profile.hooks, {
    termhive: shim ? join(shim, "termhive") : "termhive",
    agent,
    settingsFile: join(ensurePrivateDir(join(home, "hooks")), `${agent}.${profile.name}.json`),
  });
  for (const f of launch.files) writeFileSync(f.path, f.content, { mode: 0o600 });
  return `${command} ${joinWords(launch.args)}`;
}

/**
 * The same for an agent on a host: its hooks call the host's own `termhive` script
 * (src/shell/cli/termhive), which reaches the hive through the host's tmux, and their settings
 * go on the command line (no file of this machine is there).
 */
function commandWithHostHooks(command: string | undefined, profile: AgentProfile, agent: string, host: HostFacts, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (!profile.hooks || !hooksConfigured(command, profile, env)) return command;
  return `${command} ${joinWords(hookLaunch(profile.hooks, { termhive: hostCliPath(host), agent, settingsFile: null }).args)}`;
}

/**
 * What an agent's pane runs, for every door that starts one (agent_spawn, layout panes,
 * hive_split): a conversation id chosen up front where the profile does (agent_restore resumes
 * it), and the profile's hooks. `remote`: the host's facts (hooks through its own `termhive`),
 * or true for a host whose facts the door has not read (its program runs plain).
 */
export function agentLaunch(command: string | undefined, profile: AgentProfile, agent: string, home: string, remote: boolean | HostFacts, env: Readonly<Record<string, string | undefined>> = {}): { command: string | undefined; conversationId: string | null; hooksOff: string | null } {
  const started = startConversation(command, profile);
  const launched = remote === false ? commandWithHooks(started.command, profile, agent, home, env) : remote === true ? started.command : commandWithHostHooks(started.command, profile, agent, remote, env);
  return { command: launched, conversationId: started.id, hooksOff: hooksOffBy(command, profile, env) };
}
