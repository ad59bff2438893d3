// A sandbox policy as a bubblewrap command line (Linux). The pane's launch becomes
// `bwrap <these arguments> -- program args…`; bwrap keeps the environment it is given.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { findOnPath } from "../util/find-program.js";
import type { SandboxPolicy } from "./policy.js";
import type { Shield } from "./protect.js";
import { outsideBwrapArgs } from "./network.js";

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
  /** Other termhive homes hidden like TERMHIVE_HOME (the user's default one, the real path of a symlinked one). */
  otherHomes?: string[];
  /** What the write paths must not expose (protect.ts). */
  shield?: Shield;
  /**
   * Whether this bwrap takes `--size` (bubblewrap ≥ 0.5): every tmpfs it makes is then sized
   * (TMPFS_BYTES). An older one's are as large as the kernel allows (half the RAM).
   */
  sizedTmpfs?: boolean;
  /** The file descriptor bwrap reads its seccomp filter from (seccomp.ts), when there is one. */
  seccompFd?: number;
  /**
   * A descriptor bwrap reads more arguments from (NUL-separated), taken where the read-only
   * list goes: a remote host's launcher writes there what it finds on the host (remote-launch.ts).
   */
  argsFd?: number;
}

/**
 * The size of each tmpfs the sandbox makes: they live in RAM, and an unsized one takes up to
 * half of it, so a pane could fill the machine's memory through them. /tmp holds what builds
 * and package managers leave there; /dev/shm what shared memory a browser or a test runner
 * uses (Docker's default); a cover (TERMHIVE_HOME, another termhive home) only the bash
 * command-line file the shell writes under <home>/shell.
 */
export const TMPFS_BYTES = { tmp: 1024 * 1024 * 1024, shm: 64 * 1024 * 1024, cover: 1024 * 1024 } as const;

/** What a program and its shell need to run when `read` is a list: the system, not the user's files. */
const SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"];

export function bwrapArgs(policy: SandboxPolicy, ctx: SandboxContext): string[] {
  const args: string[] = [];
  const tmpfs = (dest: string, bytes: number) => (ctx.sizedTmpfs ? ["--size", String(bytes), "--tmpfs", dest] : ["--tmpfs", dest]);
  if (policy.read === "all") args.push("--ro-bind", "/", "/");
  else {
    for (const p of SYSTEM_PATHS) args.push("--ro-bind-try", p, p);
    for (const p of [...policy.read, ...ctx.support]) args.push("--ro-bind", p, p);
  }
  // A fresh /dev (null, tty, urandom, its own pts) and /proc for a pid namespace of its own:
  // host devices and other processes' /proc entries stay out of reach. bwrap's /dev is a tmpfs it
  // cannot size: it is made read-only (devices stay writable), with a sized /dev/shm of its own.
  args.push("--dev", "/dev", ...tmpfs("/dev/shm", TMPFS_BYTES.shm), "--remount-ro", "/dev", "--proc", "/proc", "--unshare-pid", ...tmpfs("/tmp", TMPFS_BYTES.tmp));
  // Under the private /tmp, put back read-only what must still be seen there: termhive itself
  // (a clone a CI job made under /tmp), the paths a `read` list names, and the folder the
  // program starts in (bwrap cannot chdir into a folder the tmpfs hid).
  const underTmp = [...ctx.support, ...(policy.read === "all" ? [] : policy.read), ...(ctx.cwd ? [ctx.cwd] : [])];
  for (const p of new Set(underTmp)) if (p === "/tmp" || p.startsWith("/tmp/")) args.push("--ro-bind", p, p);
  // Writable paths, then what they must not expose put back over them.
  for (const p of policy.write) args.push("--bind", p, p);
  // A mount point cannot be renamed or removed: every folder between a write path and what is put
  // back over it (or hidden under it) is bound onto itself, so the pane cannot move it away and
  // make a fresh one in its place (mv .git .git-old; mkdir .git; a new ~/.local/state/termhive).
  const covered = [...(ctx.shield?.readOnly ?? []), ...(ctx.shield?.copies ?? []).map((c) => c.target), ...(ctx.otherHomes ?? []), ctx.termhiveHome];
  for (const p of foldersBetween(policy.write, covered)) args.push("--bind", p, p);
  if (ctx.argsFd !== undefined) args.push("--args", String(ctx.argsFd));
  for (const p of ctx.shield?.readOnly ?? []) args.push("--ro-bind", p, p);
  for (const c of ctx.shield?.copies ?? []) args.push(c.writable ? "--bind" : "--ro-bind", c.source, c.target);
  // TERMHIVE_HOME holds the tmux socket, the gRPC socket, the token, hive.db and recordings: any
  // of them opens an unsandboxed pane. Covered by an empty tmpfs after every write path (a write
  // path holding it, such as $HOME, would otherwise bind it back); only what the pane needs is
  // put back. launch.ts refuses write paths inside it.
  const home = ctx.termhiveHome;
  for (const other of ctx.otherHomes ?? []) args.push(...tmpfs(other, TMPFS_BYTES.cover));
  // bin: the `termhive` shim; hooks: the agent programs' hook settings files (read-only).
  args.push(...tmpfs(home, TMPFS_BYTES.cover), "--ro-bind-try", join(home, "bin"), join(home, "bin"), "--ro-bind-try", join(home, "hooks"), join(home, "hooks"));
  for (const p of ctx.keep ?? []) args.push("--ro-bind", p, p);
  if (ctx.shellFiles) {
    // The shell's command-line file (bash) lands in this private <home>/shell; the status,
    // secret-line and run-line files termhive reads or writes are the host's, bound file by file.
    args.push("--dir", join(home, "shell"));
    for (const file of [`status.${ctx.sessionId}`, `secret.${ctx.sessionId}`, `run.${ctx.sessionId}`]) args.push("--bind", join(home, "shell", file), join(home, "shell", file));
  }
  if (ctx.relayDir) args.push("--bind", ctx.relayDir, ctx.relayDir);
  // "outside": its own namespace, given the internet by pasta before the program starts (network.ts).
  if (policy.network === "outside") args.push(...outsideBwrapArgs());
  else if (policy.network !== "on") args.push("--unshare-net");
  // A root server's panes would keep root's capabilities (mount, umount, ptrace…) and undo all of the above.
  args.push("--cap-drop", "ALL", "--die-with-parent");
  if (ctx.seccompFd !== undefined) args.push("--seccomp", String(ctx.seccompFd));
  if (ctx.cwd) args.push("--chdir", ctx.cwd);
  return args;
}

/** The folders strictly between a write path and each covered path, outermost first. */
function foldersBetween(write: string[], covered: string[]): string[] {
  const found = new Set<string>();
  for (const target of covered) {
    for (const w of write) {
      if (!target.startsWith(w.endsWith("/") ? w : w + "/")) continue;
      const steps = target.slice(w.length).split("/").filter(Boolean).slice(0, -1);
      let dir = w;
      for (const step of steps) found.add((dir = join(dir, step)));
    }
  }
  return [...found].sort((a, b) => a.split("/").length - b.split("/").length);
}

const sizing = new Map<string, boolean>();

/** Whether the bwrap at `path` takes `--size` (asked once: its --help names it). */
export function bwrapSizesTmpfs(path: string): boolean {
  let known = sizing.get(path);
  if (known === undefined) {
    const help = spawnSync(path, ["--help"], { encoding: "utf8", timeout: 5_000 });
    known = `${help.stdout ?? ""}${help.stderr ?? ""}`.includes("--size");
    sizing.set(path, known);
  }
  return known;
}

/** The bwrap on PATH, or null. */
export function findBwrap(pathVar: string = process.env.PATH ?? ""): string | null {
  return findOnPath("bwrap", pathVar);
}

export const BWRAP_MISSING = "sandboxing needs bubblewrap (bwrap), which is not installed here: install it: apt-get install bubblewrap";
