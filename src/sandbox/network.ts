// The `outside` network of a sandbox: a network namespace of its own that keeps the
// internet and other hosts but reaches no loopback service of this host, except the loopback
// ports the policy names. bwrap makes the namespace (--unshare-net); pasta (Debian package
// `passt`) gives it a copy of the host's interface and routes, carrying its traffic through
// sockets of the host, with the gateway's mapping to the host off (--no-map-gw) and loopback
// forwarding (-T) only for the named ports.
//
// The helper is started by the pane's own launch, not by the termhive process: a pane outlives
// the process that opened it. The launch shell forks a watcher, then becomes bwrap; bwrap holds
// the program (--block-fd) until the watcher has pasta attached to the sandbox's namespace
// (found by --info-fd), and keeps a pipe open (--sync-fd) for exactly as long as the sandbox
// runs; its end is the watcher's sign to stop pasta.
import { findOnPath } from "../util/find-program.js";
import { SECCOMP_FD } from "./seccomp.js";

/** bwrap's descriptors in the launch (the seccomp filter is 9, seccomp.ts). */
export const NET_FDS = { block: 5, sync: 7, info: 8 } as const;

export const PASTA_MISSING =
  'the sandbox\'s "outside" network (the presets\' default) needs pasta, which is not installed here: install it: apt-get install passt (or name network "off", or "on" for the host\'s network with its loopback services)';

/** The pasta on PATH, or null. */
export function findPasta(pathVar: string = process.env.PATH ?? ""): string | null {
  return findOnPath("pasta", pathVar);
}

/** Variables that name the API an agent talks to (Claude Code's, the OpenAI SDK's, …). */
const BASE_URL_VAR = /_BASE_URL$/;
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The loopback ports of the APIs the pane's environment points its agent at
 * (ANTHROPIC_BASE_URL=http://127.0.0.1:8080 → 8080): a preset names them, so that an agent whose
 * configured API is a local proxy or stand-in still reaches it. The caller chose both the
 * environment and the preset; the ports are written into the resolved policy, shown and restored.
 */
export function apiLoopbackPorts(env: Record<string, string | undefined>): number[] {
  const ports = new Set<number>();
  for (const [name, value] of Object.entries(env)) {
    if (!BASE_URL_VAR.test(name) || !value) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (!LOOPBACK_HOST.test(url.hostname)) continue;
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : url.protocol === "http:" ? 80 : 0;
    if (port > 0) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

/**
 * The launch of a sandbox with the `outside` network: `/bin/sh -c <this> sh <filter> <pasta>
 * <ports> <dir> bwrap …`. <filter> is the seccomp filter file or ""; <ports> pasta's -T value
 * ("none" or "5432,8080"); <dir> a private folder for the rendezvous (under TERMHIVE_HOME,
 * hidden inside the sandbox). If pasta cannot attach, the program is not started: the sandbox is
 * ended with the helper's error on the pane.
 */
export function outsideLaunchScript(): string {
  const { block, sync, info } = NET_FDS;
  return [
    `umask 077; f=$1; p=$2; t=$3; n=$4; shift 4`,
    `rm -rf -- "$n"; mkdir -p -- "$n" && mkfifo "$n/i" "$n/b" "$n/s" || exit 1`,
    // The watcher: signals that end the pane's program (tmux's HUP) do not end it before the sandbox has.
    `( trap '' HUP INT TERM; exec 6<"$n/s" 4<"$n/i" </dev/null >/dev/null`,
    `c=; while IFS= read -r l <&4; do case $l in *'"child-pid"'*) c=\${l##*: }; c=\${c%%[!0-9]*};; esac; done; exec 4<&-`,
    `ok=; if [ -n "$c" ]; then u=; [ "$(readlink /proc/$c/ns/user)" = "$(readlink /proc/self/ns/user)" ] || u="--userns /proc/self/fd/5"; r=; [ "$(id -u)" = 0 ] && r="--runas 0:0"`,
    // --runas: as root pasta would turn into nobody before it opens the namespace, and fail. The
    // namespaces are opened here (a redirection that fails does not end this shell, an exec would).
    `"$p" --quiet $r $u --netns /proc/self/fd/3 --config-net --no-map-gw -t none -u none -T "$t" -U none -P "$n/pid" 2>"$n/log" 6<&- 3</proc/$c/ns/net 5</proc/$c/ns/user && ok=1; fi`,
    `if [ -z "$ok" ]; then echo "termhive sandbox: the network helper (pasta) could not start, so the program was not: $(cat "$n/log" 2>/dev/null)" >&2; rm -rf -- "$n"; kill $$; exit 1; fi`,
    `q=$(cat "$n/pid"); echo go >"$n/b"; rm -rf -- "$n"; exec 2>/dev/null; cat <&6 >/dev/null; kill "$q" ) &`,
    `exec ${block}<>"$n/b" ${sync}>"$n/s"; if [ -n "$f" ]; then exec ${SECCOMP_FD}<"$f"; fi; exec "$@" ${info}>"$n/i"`,
  ].join("\n");
}

/** bwrap's arguments for the `outside` network: the namespace, and the hand-over with the watcher. */
export function outsideBwrapArgs(): string[] {
  return ["--unshare-net", "--info-fd", String(NET_FDS.info), "--block-fd", String(NET_FDS.block), "--sync-fd", String(NET_FDS.sync)];
}
