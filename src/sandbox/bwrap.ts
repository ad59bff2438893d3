// A sandbox policy as a bubblewrap command line (Linux). The pane's launch becomes
// `bwrap <these arguments> -- program args…`; bwrap keeps the environment it is given.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { SandboxPolicy } from "./policy.js";

/** What termhive itself needs inside the sandbox for this pane. */
export interface SandboxContext {
  /** TERMHIVE_HOME: hidden inside (its sockets and token would let the program open an unsandboxed pane). */
  termhiveHome: string;
  sessionId: string;
  /** An integrated shell writes its status and secret-line files under <home>/shell (bound one by one). */
  shellFiles: boolean;
  /** The folder the program starts in. */
  cwd?: string;
  /** The pane's relay folder under TERMHIVE_HOME: the one place there it may write (sandbox/relay.ts); none on a remote host. */
  relayDir?: string;
  /** Paths under TERMHIVE_HOME put back read-only (a remote host's shell integration scripts live there). */
  keep?: string[];
  /** Extra read-only paths when `read` is a list: the shell integration scripts, node and the `termhive` shim. */
  support: string[];
}

/** What a program and its shell need to run when `read` is a list: the system, not the user's files. */
const SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"];

export function bwrapArgs(policy: SandboxPolicy, ctx: SandboxContext): string[] {
  const args: string[] = [];
  if (policy.read === "all") args.push("--ro-bind", "/", "/");
  else {
    for (const p of SYSTEM_PATHS) args.push("--ro-bind-try", p, p);
    for (const p of [...policy.read, ...ctx.support]) args.push("--ro-bind", p, p);
  }
  // A fresh /dev (null, tty, urandom, its own pts) and /proc for a pid namespace of its own:
  // host devices and other processes' /proc entries stay out of reach.
  args.push("--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--tmpfs", "/tmp");
  // termhive itself (its shell integration, node, the package) installed under /tmp — a clone
  // a CI job made there — would vanish under the private /tmp: put it back, read-only.
  for (const p of ctx.support) if (p === "/tmp" || p.startsWith("/tmp/")) args.push("--ro-bind", p, p);
  // TERMHIVE_HOME holds the tmux socket, the gRPC socket and the auth token: any of them opens an
  // unsandboxed pane. Covered by an empty tmpfs; only what the pane needs is put back.
  const home = ctx.termhiveHome;
  // bin: the `termhive` shim; hooks: the agent programs' hook settings files (read-only).
  args.push("--tmpfs", home, "--ro-bind-try", join(home, "bin"), join(home, "bin"), "--ro-bind-try", join(home, "hooks"), join(home, "hooks"));
  for (const p of ctx.keep ?? []) args.push("--ro-bind", p, p);
  if (ctx.shellFiles) {
    // The shell's command-line file (bash) lands in this private <home>/shell; the status,
    // secret-line and run-line files termhive reads or writes are the host's, bound file by file.
    args.push("--dir", join(home, "shell"));
    for (const file of [`status.${ctx.sessionId}`, `secret.${ctx.sessionId}`, `run.${ctx.sessionId}`]) args.push("--bind", join(home, "shell", file), join(home, "shell", file));
  }
  if (ctx.relayDir) args.push("--bind", ctx.relayDir, ctx.relayDir);
  // Last, so a writable path under /tmp or TERMHIVE_HOME is still there, and writable.
  for (const p of policy.write) args.push("--bind", p, p);
  if (policy.network !== "on") args.push("--unshare-net");
  args.push("--die-with-parent");
  if (ctx.cwd) args.push("--chdir", ctx.cwd);
  return args;
}

/** The bwrap on PATH, or null. */
export function findBwrap(pathVar: string = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, "bwrap");
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

export const BWRAP_MISSING = "sandboxing needs bubblewrap (bwrap), which is not installed here: install it: apt-get install bubblewrap";
