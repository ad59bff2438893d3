// A pane on another host (backends/remote) in its sandbox: the same bubblewrap command line,
// built from the host's own paths, run by the host's bwrap. Paths are the host's, so they are
// not checked here: a missing write path is bwrap's own error in the pane. The in-pane
// `termhive` has no relay on a remote host (its panes have no `termhive` shim either).
import { isAbsolute, posix } from "node:path";
import { ToolError } from "../util/tool-error.js";
import { bwrapArgs } from "./bwrap.js";
import type { SandboxedLaunch } from "./launch.js";
import type { SandboxOption, SandboxPolicy } from "./policy.js";

/** What the host's set-up reported (backends/backend.ts HostFacts). */
export interface SandboxHost {
  host: string;
  stateDir: string;
  shellDir: string;
  bwrap?: string | null;
}

function remotePolicy(option: SandboxOption, cwd: string): SandboxPolicy {
  if (option === "worktree") return { preset: "worktree", write: [cwd], read: "all", network: "on" };
  if (option === "readonly") return { preset: "readonly", write: [], read: "all", network: "on" };
  const absolute = (p: string) => (isAbsolute(p) ? posix.resolve(p) : posix.resolve(cwd, p));
  const write = option.write.map(absolute);
  const read = option.read === undefined || option.read === "all" ? "all" : option.read.map(absolute);
  if (read !== "all" && ![...read, ...write].some((p) => cwd === p || cwd.startsWith(p.endsWith("/") ? p : p + "/"))) {
    throw new ToolError(`the session's cwd ${JSON.stringify(cwd)} is not in the sandbox's read or write paths; nothing was opened`);
  }
  return { write, read, network: option.network, ...(option.env ? { env: option.env } : {}) };
}

export function remoteSandboxLaunch(option: SandboxOption, pane: { argv: string[]; cwd: string; sessionId: string; shell: boolean }, host: SandboxHost): SandboxedLaunch {
  if (!host.bwrap) {
    throw new ToolError(`host ${host.host} has no bubblewrap (bwrap on the PATH of its ssh commands), which sandbox needs: install it there (apt-get install bubblewrap); nothing was opened`, "unavailable");
  }
  const policy = remotePolicy(option, pane.cwd);
  // The host's shell integration scripts live under its termhive folder, which the sandbox hides.
  const args = bwrapArgs(policy, { termhiveHome: host.stateDir, sessionId: pane.sessionId, shellFiles: pane.shell, cwd: pane.cwd, support: [host.shellDir], keep: [host.shellDir] });
  const box = [host.bwrap, ...args, "--", ...pane.argv];
  if (!pane.shell) return { argv: box, policy };
  // bwrap binds existing files only: the shell's status, secret-line and run-line files are made first, owner-only.
  const shellDir = `${host.stateDir}/shell`;
  const files = [`${shellDir}/status.${pane.sessionId}`, `${shellDir}/secret.${pane.sessionId}`, `${shellDir}/run.${pane.sessionId}`];
  return { argv: ["/bin/sh", "-c", 'umask 077; : >>"$1" && : >>"$2" && : >>"$3" || exit 1; shift 3; exec "$@"', "sh", ...files, ...box], policy };
}
