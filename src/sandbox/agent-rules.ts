// Which sandbox an agent runs in, and the refusal of an agent started with its own permission
// checks turned off (a profile's dangerousFlags) and no sandbox around it (issue 26).
import { splitWords, WordListError } from "../util/words.js";
import type { SandboxOption } from "./policy.js";

/** The sandbox asked for: the call's, else the profile's, else TERMHIVE_SANDBOX's preset. */
export function agentSandbox(given: SandboxOption | undefined, profile: SandboxOption | null, fallback: SandboxOption | null): SandboxOption | undefined {
  return given ?? profile ?? fallback ?? undefined;
}

function words(command: string): string[] {
  try {
    return splitWords(command);
  } catch (error) {
    if (error instanceof WordListError) return command.trim().split(/\s+/);
    throw error;
  }
}

/**
 * The dangerous flags `command` carries. A flag of two words ("--sandbox danger-full-access")
 * matches those words in a row or joined by "=" ("--sandbox=danger-full-access").
 */
export function dangerousFlagsIn(command: string | undefined, flags: readonly string[]): string[] {
  if (!command?.trim() || flags.length === 0) return [];
  const argv = words(command);
  const found: string[] = [];
  for (const flag of flags) {
    const want = flag.trim().split(/\s+/);
    const joined = want.join("=");
    const hit = argv.some((_, i) => want.every((w, k) => argv[i + k] === w) || argv[i] === joined);
    if (hit) found.push(flag);
  }
  return found;
}

/** The refusal's text, or null when the agent may start. */
export function dangerRefusal(agent: string, command: string | undefined, flags: readonly string[], sandbox: SandboxOption | undefined, confirm: boolean | undefined, unsandboxed = "pass confirm: true"): string | null {
  if (sandbox !== undefined || confirm === true) return null;
  const found = dangerousFlagsIn(command, flags);
  if (found.length === 0) return null;
  return `agent '${agent}' would run with ${found.join(", ")} (its own permission checks off) and no sandbox, with your full rights; give it a sandbox (sandbox: "worktree", a profile's sandbox or TERMHIVE_SANDBOX=worktree), or ${unsandboxed} to start it anyway; nothing was started`;
}
