// A pane's launch wrapped in its sandbox: checks where it can run, resolves the policy, and
// returns the argv (bwrap … -- program) the pane starts with.
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { userInfo } from "node:os";
import { ToolError } from "../util/tool-error.js";
import { packageRoot, shellAssetDir } from "../util/paths.js";
import { findOnPath } from "../util/find-program.js";
import { BWRAP_MISSING, bwrapArgs, bwrapSizesTmpfs, findBwrap } from "./bwrap.js";
import { makeRelayDir } from "./relay.js";
import { SandboxPolicyError, resolvePolicy, type SandboxPolicy, type SandboxRequest } from "./policy.js";
import { ownCode, pruneCopies, serveTokens, shieldFor } from "./protect.js";
import { SECCOMP_FD, seccompFilterFile } from "./seccomp.js";
import { PASTA_MISSING, apiLoopbackPorts, findPasta, outsideLaunchScript } from "./network.js";

/** Variables a clean sandbox environment keeps from the caller's (termhive's own are added after). */
const CLEAN_KEEP = /^(HOME|PATH|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TZ|TERM|COLORTERM)$/;

export interface SandboxedLaunch {
  argv: string[];
  policy: SandboxPolicy;
  /** The pane's relay folder (sandbox/relay.ts), writable inside; none on a remote host. */
  relayDir?: string;
}

export async function sandboxLaunch(
  option: SandboxRequest,
  pane: { argv: string[]; home: string; cwd: string; program: string; termhiveHome: string; sessionId: string; shell: boolean; stateHome?: string; env?: Record<string, string | undefined> },
): Promise<SandboxedLaunch> {
  if (process.platform !== "linux") throw new ToolError(`sandbox needs Linux and bubblewrap; ${process.platform} is not supported yet (macOS sandbox-exec is not done); nothing was opened`, "unsupported");
  const bwrap = findBwrap();
  if (!bwrap) throw new ToolError(`${BWRAP_MISSING}; nothing was opened`, "unavailable");
  let policy: SandboxPolicy;
  try {
    policy = resolvePolicy(option, { cwd: pane.cwd, home: pane.home, program: pane.program, apiPorts: apiLoopbackPorts(pane.env ?? {}), ...(pane.env?.HOME ? { programHome: pane.env.HOME } : {}) });
  } catch (error) {
    if (error instanceof SandboxPolicyError) throw new ToolError(error.message);
    throw error;
  }
  const pasta = policy.network === "outside" ? findPasta() : null;
  if (policy.network === "outside" && !pasta) throw new ToolError(`${PASTA_MISSING}; nothing was opened`, "unavailable");
  if (pane.shell) {
    // bwrap binds existing files only: the secret-line and run-line marks exist (empty) from the start.
    for (const mark of ["secret", "run"]) closeSync(openSync(join(pane.termhiveHome, "shell", `${mark}.${pane.sessionId}`), "a", 0o600));
  }
  const defaults = defaultHomes(pane.home, pane.stateHome);
  makeDefaultHomesIfHeld(policy.write, defaults);
  const homes = termhiveHomes(pane.termhiveHome, defaults);
  const exposed = policy.write.find((w) => homes.some((h) => inside(real(w), h)));
  const held = exposed && homes.find((h) => inside(real(exposed), h));
  if (exposed) throw new ToolError(`sandbox write path ${JSON.stringify(exposed)} is inside termhive's own folder (${held}), which no sandbox may write; nothing was opened`);
  // A symlink is bound at its own path, and the cover over the termhive home it leads to is then
  // bound through it, which bwrap cannot do ("Can't bind mount"): the pane died after the open.
  const linked = policy.write.find((w) => real(w) !== resolve(w) && homes.some((h) => inside(h, real(w))));
  if (linked) {
    const home = homes.find((h) => inside(h, real(linked)));
    throw new ToolError(`sandbox write path ${JSON.stringify(linked)} is a symlink to ${JSON.stringify(real(linked))}, which holds termhive's own folder (${home}); name a folder that does not hold it; nothing was opened`);
  }
  // A write path inside termhive's own code would let the pane change what runs outside it.
  const root = packageRoot();
  // The programs termhive runs outside for every later pane and sandbox are its code as much as node.
  const code = ownCode(root, process.execPath, [bwrap, pasta ?? findPasta(), findOnPath("tmux"), "/bin/sh"]);
  const inCode = policy.write.find((w) => code.some((c) => inside(real(w), c)));
  if (inCode) throw new ToolError(`sandbox write path ${JSON.stringify(inCode)} is inside termhive's own install (${code.find((c) => inside(real(inCode), c))}), whose code runs outside the sandbox; nothing was opened`);
  refuseLinks(policy.write, code, "is termhive's own code, run outside the sandbox");
  const support = [shellAssetDir(), dirname(process.execPath), root];
  const relayDir = makeRelayDir(pane.termhiveHome, pane.sessionId);
  pruneCopies(pane.termhiveHome);
  const named = typeof option === "object" && !("granted" in option) ? policy.write : [];
  const shield = await shieldFor(policy, { home: pane.home, ...(pane.env?.HOME ? { programHome: pane.env.HOME } : {}), cwd: pane.cwd, termhiveHome: pane.termhiveHome, sessionId: pane.sessionId, tokens: await serveTokens(homes), named, ownCode: code });
  refuseLinks(policy.write, shield.readOnly, "runs code outside the sandbox later");
  const filter = seccompFilterFile(pane.termhiveHome, { unixSockets: policy.unix_sockets === "allow" });
  const otherHomes = homes.filter((h) => h !== pane.termhiveHome);
  const args = bwrapArgs(policy, {
    termhiveHome: pane.termhiveHome, sessionId: pane.sessionId, shellFiles: pane.shell, cwd: pane.cwd, support, relayDir, otherHomes, shield, sizedTmpfs: bwrapSizesTmpfs(bwrap),
    ...(filter ? { seccompFd: SECCOMP_FD } : {}),
  });
  const box = [bwrap, ...args, "--", ...pane.argv];
  // bwrap takes its filter on a file descriptor: opened by a shell that then becomes bwrap. With
  // the "outside" network that shell starts the network helper first (network.ts).
  const argv = pasta
    ? ["/bin/sh", "-c", outsideLaunchScript(), "sh", filter ?? "", pasta, policy.loopback_ports?.join(",") || "none", join(pane.termhiveHome, "net", pane.sessionId), ...box]
    : filter ? ["/bin/sh", "-c", `exec "$@" ${SECCOMP_FD}<"$0"`, filter, ...box] : box;
  return { argv, policy, relayDir };
}

/**
 * A path that must stay read-only and is a symlink inside a write path cannot be kept: a mount
 * covers what a link points to, never the link, so the pane could replace it (and bwrap cannot
 * even bind over a link whose target is absolute: the pane died at its start). Refused, naming it.
 */
function refuseLinks(write: string[], kept: string[], why: string): void {
  for (const p of kept) {
    const w = write.find((dir) => inside(p, dir) && p !== dir);
    if (w === undefined || !isLink(p)) continue;
    throw new ToolError(`sandbox write path ${JSON.stringify(w)} holds ${JSON.stringify(p)}, a symlink to ${JSON.stringify(real(p))}, which ${why}: a sandbox can make a file read-only but not a symlink, which the pane could point elsewhere; name write paths that do not hold it (or make it a real file or folder); nothing was opened`);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith("/") ? dir : dir + "/");

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Where a termhive server of this user keeps its home when TERMHIVE_HOME is not set, by both
 * rules (util/paths.ts defaultHome): $XDG_STATE_HOME/termhive, and ~/.local/state/termhive for
 * the pane's HOME, this process's and the account's. Another server (the user's own, one
 * started from another shell) may run in any of them, with a token and sockets of its own.
 */
function defaultHomes(home: string, stateHome: string | undefined): string[] {
  const found = new Set<string>();
  for (const state of [stateHome, process.env.XDG_STATE_HOME]) if (state) found.add(join(resolve(state), "termhive"));
  for (const base of [home, process.env.HOME, accountHome()]) if (base) found.add(join(base, ".local", "state", "termhive"));
  return [...found];
}

function accountHome(): string | undefined {
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}

/**
 * A default termhive home, missing today, that a write path holds: made (empty, 0700) so that it
 * can be covered. Left missing, the pane could make it and plant a token that the user's next
 * `termhive serve` would take as its own.
 */
function makeDefaultHomesIfHeld(write: string[], defaults: string[]): void {
  for (const home of defaults) {
    if (existsSync(home) || !write.some((w) => inside(home, real(w)))) continue;
    mkdirSync(home, { recursive: true, mode: 0o700 });
  }
}

/** Every termhive home a pane must not reach, by every path it has: this process's and each default one there is, as given and as its real path. */
function termhiveHomes(termhiveHome: string, defaults: string[]): string[] {
  const found = new Set<string>();
  for (const h of [termhiveHome, ...defaults]) {
    if (h !== termhiveHome && !existsSync(h)) continue;
    found.add(h);
    found.add(real(h));
  }
  return [...found];
}

/** The caller's variables a pane with `env: "clean"` keeps (termhive's own and the shell's are added on top). */
export function cleanCallerEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => CLEAN_KEEP.test(name)));
}
