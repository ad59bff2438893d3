// A pane's launch wrapped in its sandbox: checks where it can run, resolves the policy, and
// returns the argv (bwrap … -- program) the pane starts with.
import { closeSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import { ToolError } from "../util/tool-error.js";
import { packageRoot, shellAssetDir } from "../util/paths.js";
import { BWRAP_MISSING, bwrapArgs, findBwrap } from "./bwrap.js";
import { makeRelayDir } from "./relay.js";
import { SandboxPolicyError, resolvePolicy, type SandboxOption, type SandboxPolicy } from "./policy.js";

/** Variables a clean sandbox environment keeps from the caller's (termhive's own are added after). */
const CLEAN_KEEP = /^(HOME|PATH|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TZ|TERM|COLORTERM)$/;

export interface SandboxedLaunch {
  argv: string[];
  policy: SandboxPolicy;
  /** The pane's relay folder (sandbox/relay.ts), writable inside; none on a remote host. */
  relayDir?: string;
}

export function sandboxLaunch(
  option: SandboxOption,
  pane: { argv: string[]; home: string; cwd: string; program: string; termhiveHome: string; sessionId: string; shell: boolean },
): SandboxedLaunch {
  if (process.platform !== "linux") throw new ToolError(`sandbox needs Linux and bubblewrap; ${process.platform} is not supported yet (macOS sandbox-exec is not done); nothing was opened`, "unsupported");
  const bwrap = findBwrap();
  if (!bwrap) throw new ToolError(`${BWRAP_MISSING}; nothing was opened`, "unavailable");
  let policy: SandboxPolicy;
  try {
    policy = resolvePolicy(option, { cwd: pane.cwd, home: pane.home, program: pane.program });
  } catch (error) {
    if (error instanceof SandboxPolicyError) throw new ToolError(error.message);
    throw error;
  }
  if (pane.shell) {
    // bwrap binds existing files only: the secret-line and run-line marks exist (empty) from the start.
    for (const mark of ["secret", "run"]) closeSync(openSync(join(pane.termhiveHome, "shell", `${mark}.${pane.sessionId}`), "a", 0o600));
  }
  const support = [shellAssetDir(), dirname(process.execPath), packageRoot()];
  const relayDir = makeRelayDir(pane.termhiveHome, pane.sessionId);
  const args = bwrapArgs(policy, { termhiveHome: pane.termhiveHome, sessionId: pane.sessionId, shellFiles: pane.shell, cwd: pane.cwd, support, relayDir });
  return { argv: [bwrap, ...args, "--", ...pane.argv], policy, relayDir };
}

/** The caller's variables a pane with `env: "clean"` keeps (termhive's own and the shell's are added on top). */
export function cleanCallerEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => CLEAN_KEEP.test(name)));
}
