// A pane on another host (backends/remote) in its sandbox: the same bubblewrap command line,
// built from the host's own paths, run by the host's bwrap. Paths are the host's, so they are
// not checked here: a missing write path is bwrap's own error in the pane. The in-pane
// `termhive` has no relay on a remote host (its panes have no `termhive` shim either).
import { isAbsolute, posix } from "node:path";
import { ToolError } from "../util/tool-error.js";
import { bwrapArgs } from "./bwrap.js";
import { SECCOMP_FD, seccompFilter } from "./seccomp.js";
import type { SandboxedLaunch } from "./launch.js";
import { homeRefusal, type SandboxPolicy, type SandboxRequest } from "./policy.js";
import { GIT_DIR_PATHS, HOME_PATHS, MADE_WHEN_HELD, PROJECT_PATHS } from "./protect.js";

/** What the host's set-up reported (backends/backend.ts HostFacts). */
export interface SandboxHost {
  host: string;
  /** The remote user's HOME. */
  home: string;
  stateDir: string;
  shellDir: string;
  bwrap?: string | null;
}

const holds = (dir: string, path: string) => path === dir || path.startsWith(dir.endsWith("/") ? dir : dir + "/");

function remotePolicy(option: SandboxRequest, cwd: string, home: string, host: string): SandboxPolicy {
  if (typeof option === "object" && "granted" in option) {
    if (option.granted.network === "outside") throw new ToolError(`sandbox network "outside" (granted before) is not available on a remote host yet (host ${JSON.stringify(host)}); nothing was opened`);
    return option.granted;
  }
  if (option === "worktree") return { preset: "worktree", write: [cwd], read: "all", network: "on" };
  if (option === "readonly") return { preset: "readonly", write: [], read: "all", network: "on" };
  const absolute = (p: string) => (p === "~" || p.startsWith("~/") ? posix.join(home, p.slice(1)) : isAbsolute(p) ? posix.resolve(p) : posix.resolve(cwd, p));
  const write = option.write.map(absolute);
  if (option.loopback_ports !== undefined && option.network !== "outside") throw new ToolError(`sandbox.loopback_ports is only for network "outside"; nothing was opened`);
  // pasta on a remote host is not done: its presets keep the host's network (docs/limits.md).
  if (option.network === "outside") throw new ToolError(`sandbox network "outside" is not available on a remote host yet (host ${JSON.stringify(host)}): name "off", or "on" for the host's network with its loopback services; nothing was opened`);
  const read = option.read === undefined || option.read === "all" ? "all" : option.read.map(absolute);
  if (read !== "all" && ![...read, ...write].some((p) => holds(p, cwd))) {
    throw new ToolError(`the session's cwd ${JSON.stringify(cwd)} is not in the sandbox's read or write paths; nothing was opened`);
  }
  return { write, read, network: option.network, ...(option.env ? { env: option.env } : {}), ...(option.unix_sockets ? { unix_sockets: option.unix_sockets } : {}) };
}

/**
 * The checks a local pane gets, by the host's paths as given (they are not resolved here): no
 * write path may hold the remote user's home folder, nor lie in the host's termhive folder.
 */
function refuseRemote(write: string[], host: SandboxHost): void {
  const holder = write.find((w) => holds(w, host.home));
  if (holder !== undefined) {
    const home = `${host.host}'s user's`;
    throw new ToolError(`sandbox refused, nothing was opened: ${homeRefusal(holder, holder.replace(/\/+$/, "") === host.home.replace(/\/+$/, ""), host.home, (path, holdsHome) => `the write path ${path} ${holdsHome}`, "name folders inside it instead (a project folder)", home)}`);
  }
  const inside = write.find((w) => holds(host.stateDir, w));
  if (inside !== undefined) throw new ToolError(`sandbox write path ${JSON.stringify(inside)} is inside termhive's own folder on ${host.host} (${host.stateDir}), which no sandbox may write; nothing was opened`);
}

/** POSIX shell single quotes (the tmux quoting is the same). */
const q = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
const words = (values: string[]) => values.map(q).join(" ");

/**
 * The part of the launcher that looks at the host's files (they are not seen from here) and
 * writes bwrap's extra arguments to "$A": the read-only list of protect.ts for what exists
 * there, each folder between a write path and what it covers pinned first; the host's serve
 * token masked in the MCP registrations the pane reads; the host user's other default termhive
 * home ($XDG_STATE_HOME/termhive, in the ssh session's environment) covered, a write path in it
 * refused. Paths with a newline are not looked at.
 */
function protectScript(policy: SandboxPolicy, pane: { cwd: string }, host: SandboxHost): string {
  const w = words(policy.write);
  const home = HOME_PATHS.map((p) => posix.join(host.home, p));
  const project = [...GIT_DIR_PATHS.map((g) => `.git/${g}`), ...PROJECT_PATHS.filter((p) => p !== ".git")];
  const made = MADE_WHEN_HELD.map((p) => posix.join(host.home, p)).filter((p) => policy.write.some((dir) => holds(dir, p) && dir !== p));
  const registrations = [".claude.json", ".mcp.json", ".codex/config.toml"].map((p) => posix.join(host.home, p));
  for (let dir = pane.cwd; ; dir = posix.dirname(dir)) {
    registrations.push(posix.join(dir, ".mcp.json"));
    if (dir === posix.dirname(dir)) break;
  }
  return [
    `arg() { printf '%s\\0' "$@" >>"$A"; }`,
    `held() { for w in ${w}; do case $1 in "$w"/*) return 0;; esac; done; return 1; }`,
    `ro() { [ -e "$1" ] && held "$1" && printf '%s\\n' "$1" >>"$a/ro"; }`,
    `pinto() { for w in ${w}; do case $1 in "$w"/*) r=\${1#"$w"/}; d=$w; while case $r in */*) :;; *) false;; esac; do d=$d/\${r%%/*}; r=\${r#*/}; arg --bind "$d" "$d"; done;; esac; done; }`,
    `x=\${XDG_STATE_HOME:+$XDG_STATE_HOME/termhive}; [ "$x" = "$S" ] && x=`,
    `if [ -n "$x" ]; then for w in ${w}; do case $w/ in "$x"/*) echo "sandbox: write path $w is inside termhive's own folder $x; nothing was run" >&2; exit 1;; esac; done; fi`,
    `for d in ${words(made)}; do [ -e "$d" ] || mkdir -p -m 700 -- "$d"; done`,
    `for p in ${words(home)}; do ro "$p"; done`,
    `for w in ${w}; do [ -d "$w" ] && [ ! -h "$w" ] || continue; for c in "$w" "$w"/* "$w"/.[!.]* "$w"/..?*; do [ -d "$c" ] && [ ! -h "$c" ] || continue; for p in ${words(project)}; do ro "$c/$p"; done; [ -f "$c/.git" ] && ro "$c/.git"; done; done`,
    `for l in ${q(host.home)}/.local/bin/* ${q(host.home)}/bin/*; do [ -h "$l" ] && ro "$(readlink -f -- "$l")"; done`,
    // Every pin first: a folder bound onto itself after a file in it was put back read-only would undo that.
    `while IFS= read -r p; do pinto "$p"; done <"$a/ro"; [ -n "$x" ] && [ -d "$x" ] && pinto "$x"`,
    `while IFS= read -r p; do arg --ro-bind "$p" "$p"; done <"$a/ro"`,
    `g=; e=; for k in "$S/token" \${x:+"$x/token"}; do t=$(cat -- "$k" 2>/dev/null) || continue; case $t in *[!A-Za-z0-9_-]*) continue;; esac; [ \${#t} -ge 16 ] || continue; g="$g -e $t"; e="$e -e s/$t/termhive-token-hidden-in-sandbox/g"; done`,
    `n=0; if [ -n "$g" ]; then for m in ${words(registrations)}; do [ -f "$m" ] && grep -qsF $g -- "$m" || continue; n=$((n+1)); sed $e -- "$m" >"$a/copy-$n" && arg --ro-bind "$a/copy-$n" "$m"; done; fi`,
    `[ -n "$x" ] && [ -d "$x" ] && arg --tmpfs "$x"`,
  ].join("; ");
}

export function remoteSandboxLaunch(option: SandboxRequest, pane: { argv: string[]; cwd: string; sessionId: string; shell: boolean }, host: SandboxHost): SandboxedLaunch {
  if (!host.bwrap) {
    throw new ToolError(`host ${host.host} has no bubblewrap (bwrap on the PATH of its ssh commands), which sandbox needs: install it there (apt-get install bubblewrap); nothing was opened`, "unavailable");
  }
  const policy = remotePolicy(option, pane.cwd, host.home, host.host);
  if (option === "worktree" && holds(pane.cwd, host.home)) {
    const home = `${host.host}'s user's`;
    const isHome = pane.cwd.replace(/\/+$/, "") === host.home.replace(/\/+$/, "");
    throw new ToolError(
      `sandbox refused, nothing was opened: ${homeRefusal(pane.cwd, isHome, host.home, (path, holdsHome) => `the "worktree" sandbox would let the pane write its folder ${path}, which ${holdsHome}`, "open the pane in a project folder (cwd; without one it opens in that home), or name the folders it may write (sandbox {\"write\": […]})", home)}`,
    );
  }
  refuseRemote(policy.write, host);
  // The host's shell integration scripts live under its termhive folder, which the sandbox hides.
  const args = bwrapArgs(policy, { termhiveHome: host.stateDir, sessionId: pane.sessionId, shellFiles: pane.shell, cwd: pane.cwd, support: [host.shellDir], keep: [host.shellDir], argsFd: PROTECT_FD });
  const box = [host.bwrap, ...args, "--", ...pane.argv];
  // bwrap binds existing files only: the shell's status, secret-line and run-line files are made first, owner-only.
  const shellDir = `${host.stateDir}/shell`;
  const files = pane.shell ? ["status", "secret", "run"].map((mark) => `${shellDir}/${mark}.${pane.sessionId}`) : [];
  // The seccomp filter (seccomp.ts) for the host's own machine, written there by the pane's
  // launcher (whole, then moved into place) and given to its bwrap; a machine without one runs
  // without it, as a local one does.
  const filter = `${host.stateDir}/seccomp${policy.unix_sockets === "allow" ? "-unix" : ""}.bpf`;
  // While the pane runs, its shell's files are kept within a status line on the host's disk (the
  // server reads them there with the same bound, backends/tmux/buffers.ts), checked each second:
  // no inotify from a shell. At its end the pane's folder (arguments, masked copies) goes.
  const watch = `( while kill -0 $$ 2>/dev/null; do ${files.length ? `find ${words(files)} -type f -size +${STATUS_LINE_MAX_BYTES}c -exec sh -c ': >"$1"' sh {} \\; 2>/dev/null; ` : ""}sleep 1; done; rm -rf -- "$a" ) </dev/null >/dev/null 2>&1 &`;
  const script = [
    `umask 077; f=$1; shift; S=${q(host.stateDir)}; a="$S/sandbox/"${q(pane.sessionId)}; A="$a/args"; rm -rf -- "$a"; mkdir -p -- "$a" && : >"$A" && : >"$a/ro" || exit 1`,
    ...(files.length ? [`for m in ${words(files)}; do : >>"$m" || exit 1; done`] : []),
    protectScript(policy, pane, host),
    // After the watch's `&`, with no `;`.
    `${watch} if ${writeFilter(policy.unix_sockets === "allow")} >"$f.$$" && mv -f "$f.$$" "$f"; then b=$1; shift; exec "$b" --seccomp ${SECCOMP_FD} "$@" ${SECCOMP_FD}<"$f" ${PROTECT_FD}<"$A"; fi; rm -f "$f.$$"; exec "$@" ${PROTECT_FD}<"$A"`,
  ].join("; ");
  return { argv: ["/bin/sh", "-c", script, "sh", filter, ...box], policy };
}

/** A status line's bound (terminal/live/status-file.ts STATUS_LINE_MAX_BYTES; that folder imports this one). */
const STATUS_LINE_MAX_BYTES = 256;

/** Where the launcher hands bwrap the arguments it found on the host (bwrap --args). */
const PROTECT_FD = 8;

/** A shell `case` printing the filter for the machine it runs on (printf octal escapes), failing where there is none. */
function writeFilter(unixSockets: boolean): string {
  const printf = (bytes: Buffer) => `printf '${[...bytes].map((b) => "\\" + b.toString(8).padStart(3, "0")).join("")}'`;
  const arms = (["x64", "arm64"] as const).map((arch) => `${arch === "x64" ? "x86_64" : "aarch64|arm64"}) ${printf(seccompFilter(arch, { unixSockets })!)};;`);
  return `case $(uname -m) in ${arms.join(" ")} *) false;; esac`;
}
