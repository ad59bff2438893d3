// A pane on another host (backends/remote) in its sandbox: the same bubblewrap command line,
// built from the host's own paths, run by the host's bwrap. Paths are the host's, so they are
// not checked here: a missing write path is bwrap's own error in the pane. The in-pane
// `termhive` has no relay on a remote host (its panes have no `termhive` shim either).
import { isAbsolute, posix } from "node:path";
import { ToolError } from "../util/tool-error.js";
import { bwrapArgs } from "./bwrap.js";
import { SECCOMP_FD, seccompFilter } from "./seccomp.js";
import type { SandboxedLaunch } from "./launch.js";
import type { SandboxPolicy, SandboxRequest } from "./policy.js";

/** What the host's set-up reported (backends/backend.ts HostFacts). */
export interface SandboxHost {
  host: string;
  stateDir: string;
  shellDir: string;
  bwrap?: string | null;
}

function remotePolicy(option: SandboxRequest, cwd: string): SandboxPolicy {
  if (typeof option === "object" && "granted" in option) return option.granted;
  if (option === "worktree") return { preset: "worktree", write: [cwd], read: "all", network: "on" };
  if (option === "readonly") return { preset: "readonly", write: [], read: "all", network: "on" };
  const absolute = (p: string) => (isAbsolute(p) ? posix.resolve(p) : posix.resolve(cwd, p));
  const write = option.write.map(absolute);
  const read = option.read === undefined || option.read === "all" ? "all" : option.read.map(absolute);
  if (read !== "all" && ![...read, ...write].some((p) => cwd === p || cwd.startsWith(p.endsWith("/") ? p : p + "/"))) {
    throw new ToolError(`the session's cwd ${JSON.stringify(cwd)} is not in the sandbox's read or write paths; nothing was opened`);
  }
  return { write, read, network: option.network, ...(option.env ? { env: option.env } : {}), ...(option.unix_sockets ? { unix_sockets: option.unix_sockets } : {}) };
}

export function remoteSandboxLaunch(option: SandboxRequest, pane: { argv: string[]; cwd: string; sessionId: string; shell: boolean }, host: SandboxHost): SandboxedLaunch {
  if (!host.bwrap) {
    throw new ToolError(`host ${host.host} has no bubblewrap (bwrap on the PATH of its ssh commands), which sandbox needs: install it there (apt-get install bubblewrap); nothing was opened`, "unavailable");
  }
  const policy = remotePolicy(option, pane.cwd);
  // The host's shell integration scripts live under its termhive folder, which the sandbox hides.
  const args = bwrapArgs(policy, { termhiveHome: host.stateDir, sessionId: pane.sessionId, shellFiles: pane.shell, cwd: pane.cwd, support: [host.shellDir], keep: [host.shellDir] });
  const box = [host.bwrap, ...args, "--", ...pane.argv];
  // bwrap binds existing files only: the shell's status, secret-line and run-line files are made first, owner-only.
  const shellDir = `${host.stateDir}/shell`;
  const files = pane.shell ? [`${shellDir}/status.${pane.sessionId}`, `${shellDir}/secret.${pane.sessionId}`, `${shellDir}/run.${pane.sessionId}`] : [];
  const makeFiles = pane.shell ? ': >>"$1" && : >>"$2" && : >>"$3" || exit 1; shift 3; ' : "";
  // The seccomp filter (seccomp.ts) for the host's own machine, written there by the pane's
  // launcher (whole, then moved into place) and given to its bwrap; a machine without one runs
  // without it, as a local one does.
  const filter = `${host.stateDir}/seccomp${policy.unix_sockets === "allow" ? "-unix" : ""}.bpf`;
  const script = `umask 077; f=$1; shift; ${makeFiles}if ${writeFilter(policy.unix_sockets === "allow")} >"$f.$$" && mv -f "$f.$$" "$f"; then b=$1; shift; exec "$b" --seccomp ${SECCOMP_FD} "$@" ${SECCOMP_FD}<"$f"; fi; rm -f "$f.$$"; exec "$@"`;
  return { argv: ["/bin/sh", "-c", script, "sh", filter, ...files, ...box], policy };
}

/** A shell `case` printing the filter for the machine it runs on (printf octal escapes), failing where there is none. */
function writeFilter(unixSockets: boolean): string {
  const printf = (bytes: Buffer) => `printf '${[...bytes].map((b) => "\\" + b.toString(8).padStart(3, "0")).join("")}'`;
  const arms = (["x64", "arm64"] as const).map((arch) => `${arch === "x64" ? "x86_64" : "aarch64|arm64"}) ${printf(seccompFilter(arch, { unixSockets })!)};;`);
  return `case $(uname -m) in ${arms.join(" ")} *) false;; esac`;
}
