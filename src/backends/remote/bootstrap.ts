// Prepares a host over one call of its transport (ssh, or a container's exec), without
// installing termhive there: makes the remote
// user's termhive folder (~/.local/state/termhive, 0700), writes the shell-integration scripts
// (into a folder named by their content hash, so a host keeps one copy per version) and the
// tmux config, and reports $HOME and where tmux is. The script goes to /bin/sh on stdin, so the
// remote user's login shell (bash, fish, csh…) only ever parses the word "/bin/sh".
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { HostFacts } from "../backend.js";
import { shellAssetDir } from "../../util/paths.js";
import { joinWords } from "../../util/words.js";
import { CONNECT_TIMEOUT_S } from "./ssh.js";
import type { HostTransport } from "./transport.js";


export type { HostFacts };

export class HostError extends Error {
  override name = "HostError";
}

interface Asset {
  path: string;
  text: string;
  executable: boolean;
}

/** The shipped integration scripts (not the TypeScript beside them). */
function shellAssets(dir = shellAssetDir()): Asset[] {
  const assets: Asset[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder).sort()) {
      const path = join(folder, entry);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (folder !== dir && !/\.(ts|js|map)$/.test(entry)) {
        assets.push({ path: relative(dir, path), text: readFileSync(path, "utf8"), executable: (stat.mode & 0o111) !== 0 });
      }
    }
  };
  walk(dir);
  return assets;
}

const MARK = "termhive-host-v1";

/** The script /bin/sh runs on the host; prints MARK lines that parseFacts reads. */
export function bootstrapScript(tmuxConf: string, assets: Asset[] = shellAssets()): string {
  const hash = createHash("sha256");
  for (const a of assets) hash.update(`${a.path}\0${a.executable}\0${a.text}\0`);
  const version = hash.digest("hex").slice(0, 12);
  // A here-document delimiter that no file contains, so every file is written verbatim.
  let eof = "TERMHIVE_EOF";
  while (assets.some((a) => a.text.includes(eof)) || tmuxConf.includes(eof)) eof += "_";
  const heredoc = (target: string, text: string) => `cat >${target} <<'${eof}'\n${text.endsWith("\n") ? text : text + "\n"}${eof}`;
  const lines = [
    "umask 077",
    // A container's exec sets HOME but not SHELL (no login took place): the account's own.
    'A=$(getent passwd "$(id -u)" 2>/dev/null)',
    '[ -n "$HOME" ] || HOME=$(printf %s "$A" | cut -d: -f6)',
    'D="$HOME/.local/state/termhive"',
    'mkdir -p "$D/shell" && chmod 700 "$D" || exit 1',
    `S="$D/shell-${version}"`,
    'if [ ! -f "$S/.complete" ]; then',
    '  T="$S.tmp.$$"; rm -rf "$T"',
    ...[...new Set(assets.map((a) => a.path.split("/").slice(0, -1).join("/")))].filter(Boolean).map((d) => `  mkdir -p "$T"/${joinWords([d])}`),
    ...assets.flatMap((a) => [heredoc(`"$T"/${joinWords([a.path])}`, a.text), ...(a.executable ? [`chmod 700 "$T"/${joinWords([a.path])}`] : [])]),
    '  : >"$T/.complete"',
    '  if [ -d "$S" ]; then rm -rf "$S"; fi',
    '  mv "$T" "$S" 2>/dev/null || rm -rf "$T"',
    "fi",
    heredoc('"$D/tmux.conf"', tmuxConf),
    `printf '%s home %s\\n' ${MARK} "$HOME"`,
    `printf '%s shell %s\\n' ${MARK} "$S"`,
    // The PATH its tmux server (started over the same link) gives panes: the in-pane termhive's folder goes first (pane-cli.ts).
    `printf '%s path %s\\n' ${MARK} "$PATH"`,
    'L=${SHELL:-$(printf %s "$A" | cut -d: -f7)}',
    `printf '%s login %s\\n' ${MARK} "\${L:-/bin/sh}"`,
    `if T=$(command -v tmux); then printf '%s tmux %s\\n' ${MARK} "$T"; else printf '%s tmux\\n' ${MARK}; fi`,
    // bubblewrap, for the `sandbox` option on this host's panes (sandbox/launch.ts).
    `if T=$(command -v bwrap); then printf '%s bwrap %s\\n' ${MARK} "$T"; fi`,
    "",
  ];
  return lines.join("\n");
}

/** Reads the script's report; a host without tmux is an error that says how to get it. */
export function parseFacts(host: string, stdout: string): HostFacts {
  const facts = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    if (!line.startsWith(MARK + " ")) continue;
    const rest = line.slice(MARK.length + 1);
    const space = rest.indexOf(" ");
    facts.set(space < 0 ? rest : rest.slice(0, space), space < 0 ? "" : rest.slice(space + 1));
  }
  const home = facts.get("home");
  const shellDir = facts.get("shell");
  if (!home || !shellDir || !facts.has("tmux")) {
    throw new HostError(`host ${host} did not finish termhive's set-up (its /bin/sh printed: ${JSON.stringify(stdout.slice(-300))})`);
  }
  const tmuxPath = facts.get("tmux")!;
  if (!tmuxPath) {
    throw new HostError(
      `tmux is not installed on host ${host} (not on the PATH of its non-interactive ssh commands): install it there (apt-get install -y tmux, dnf install -y tmux or brew install tmux), then retry`,
    );
  }
  return { host, home, stateDir: `${home}/.local/state/termhive`, shellDir, tmuxPath, shell: facts.get("login") || "/bin/sh", bwrap: facts.get("bwrap") || null, ...(facts.get("path") ? { path: facts.get("path")! } : {}) };
}

/**
 * Runs the set-up over the transport. Unreachable, refused or unauthorised hosts (a stopped
 * or missing container) fail with the link program's own words, naming the host, within
 * CONNECT_TIMEOUT_S plus a few seconds.
 */
export function prepareHost(transport: HostTransport, tmuxConf: string): Promise<HostFacts> {
  const host = transport.host;
  const [program, ...args] = transport.commandArgv(["/bin/sh"]);
  return new Promise((resolve, reject) => {
    const child = spawn(program!, args, { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new HostError(`host ${host} did not answer within ${CONNECT_TIMEOUT_S + 4} s (${program} ${host}); check it is up and reachable`));
    }, (CONNECT_TIMEOUT_S + 4) * 1000);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdin.on("error", () => {}); // ssh gave up before reading the script: told by its exit
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new HostError(`cannot run ${program} for host ${host}: ${error.message} (${transport.missingProgram})`));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        try {
          resolve(parseFacts(host, stdout));
        } catch (error) {
          reject(error);
        }
        return;
      }
      const said = stderr.trim().split("\n").slice(-3).join("; ") || `${program} exited ${signal ?? code}`;
      reject(new HostError(transport.unreachable(said)));
    });
    child.stdin.end(bootstrapScript(tmuxConf));
  });
}
