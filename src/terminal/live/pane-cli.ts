// `termhive` inside every pane. Agents report their status and message each other with
// `termhive status …` / `termhive msg …` from their own pane, but termhive is often not
// installed globally (npx, a clone, an MCP client's config). So each pane's PATH starts with
// <TERMHIVE_HOME>/bin, which holds a `termhive` script that execs the install that is running
// now: this node binary and this bin file. The pane's TERMHIVE_SESSION / TERMHIVE_AGENT then
// make the pane's agent the sender.
import { shellWord as quote } from "../../util/shell-word.js";
import { chmodSync, existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ensurePrivateDir } from "../../util/paths.js";
import type { HostFacts } from "../../backends/backend.js";

/** The bin file this process runs from, when it is termhive's CLI (not a library user's script). */
function runningCli(): string | null {
  const arg = process.argv[1];
  if (!arg) return null;
  try {
    const path = realpathSync(arg);
    // dist/bundle/cli.js (package "bin"), or a bin named termhive; a .ts entry needs a loader the shim would not have.
    return /^(cli\.(?:js|mjs)|termhive(?:\.m?js)?)$/.test(basename(path)) ? path : null;
  } catch {
    return null;
  }
}

/** Writes (if needed) <home>/bin/termhive and returns its directory, or null when not run from the CLI. */
export function ensureShim(home: string): string | null {
  const cli = runningCli();
  if (!cli) return null;
  const dir = ensurePrivateDir(join(home, "bin"));
  const file = join(dir, "termhive");
  const script = `#!/bin/sh\n# Written by termhive for its panes: runs the termhive that opened them.\nexec ${quote(process.execPath)} ${quote(cli)} "$@"\n`;
  try {
    if (existsSync(file) && readFileSync(file, "utf8") === script) return dir;
    // Write then rename: a pane running the shim while another process rewrites it never sees half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script, { mode: 0o700 });
    chmodSync(tmp, 0o700);
    renameSync(tmp, file);
    return dir;
  } catch {
    return null; // an unwritable home: panes work, only without the shim
  }
}

/** The env entries a new pane gets so `termhive` runs there: PATH with the shim dir first. */
export function paneCliEnv(home: string, path: string | undefined = process.env.PATH): Record<string, string> {
  const dir = ensureShim(home);
  if (!dir) return {};
  return { PATH: path ? `${dir}:${path}` : dir };
}

/** Where the host's in-pane `termhive` is (src/shell/cli/termhive, written by the host's set-up). */
export function hostCliPath(host: HostFacts): string {
  return `${host.shellDir}/cli/termhive`;
}

/**
 * A pane on a host: PATH with the host's `termhive` script first. That script reaches the hive
 * through the host's tmux server (src/shell/cli/termhive); the PATH is the one the host's
 * tmux server hands its panes, as the set-up read it.
 */
export function hostCliEnv(host: HostFacts): Record<string, string> {
  const dir = `${host.shellDir}/cli`;
  return { PATH: host.path ? `${dir}:${host.path}` : `${dir}:/usr/local/bin:/usr/bin:/bin` };
}
