// PLACEHOLDER owned by the shell-integration work: replaced by the real launcher.
import { basename } from "node:path";

export type ShellKind = "bash" | "zsh" | "fish" | "other";

export interface ShellLaunch {
  kind: ShellKind;
  /** argv to exec (argv[0] is the program). */
  argv: string[];
  /** Extra environment for the shell process. */
  env: Record<string, string>;
}

export function detectShell(program: string): ShellKind {
  const name = basename(program).replace(/^-/, "");
  if (name === "bash" || name === "zsh" || name === "fish") return name;
  return "other";
}

/** How to start `shellPath` with termhive's OSC 133/OSC 7 integration, still sourcing the user's rc. */
export function integrationLaunch(shellPath: string, _opts: { stateDir: string }): ShellLaunch {
  return { kind: detectShell(shellPath), argv: [shellPath], env: {} };
}
