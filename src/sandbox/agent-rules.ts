// Which sandbox an agent runs in, and the refusal of an agent started with its own permission
// checks turned off (a profile's dangerousFlags) and no sandbox around it.
import { checksTurnedOff } from "./agent-checks.js";
import type { SandboxOption } from "./policy.js";

/** The sandbox asked for: the call's, else the profile's, else TERMHIVE_SANDBOX's preset. */
export function agentSandbox(given: SandboxOption | undefined, profile: SandboxOption | null, fallback: SandboxOption | null): SandboxOption | undefined {
  return given ?? profile ?? fallback ?? undefined;
}

/**
 * The ways `command` turns the agent's own permission checks off (agent-checks.ts): the
 * profile's flags in any spelling, on any program the command runs, and the known agents'
 * own settings.
 */
export function dangerousFlagsIn(command: string | undefined, flags: readonly string[]): string[] {
  return checksTurnedOff(command, flags);
}

/** The refusal's text, or null when the agent may start. */
export function dangerRefusal(agent: string, command: string | undefined, flags: readonly string[], sandbox: SandboxOption | undefined, confirm: boolean | undefined, unsandboxed = "pass confirm: true"): string | null {
  if (sandbox !== undefined || confirm === true) return null;
  const found = dangerousFlagsIn(command, flags);
  if (found.length === 0) return null;
  return `agent '${agent}' would run with ${found.join(", ")} (its own permission checks off) and no sandbox, with your full rights; give it a sandbox (sandbox: "worktree", a profile's sandbox or TERMHIVE_SANDBOX=worktree), or ${unsandboxed} to start it anyway; nothing was started`;
}
