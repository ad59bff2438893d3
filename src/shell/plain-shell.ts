// A POSIX shell termhive does not integrate (sh, dash, ksh…) runs no script of termhive's, so
// nothing would point its pagers at bin/pager and `git log` would wait in less. Its pane's
// environment does that instead; since such a shell has no prompt hook to clear the run mark,
// termhive clears it itself when the run returns (terminal/live/line-marks.ts), so a line a person
// types later gets their own pager.
import { basename, join } from "node:path";
import { shellAssetDir } from "../util/paths.js";

const PLAIN_SHELLS = new Set(["sh", "dash", "ash", "ksh", "ksh93", "mksh", "pdksh", "posh", "yash"]);
const PAGERS = ["PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "PSQL_PAGER"] as const;

/** Whether a pane's program is such a shell (one word: a command line runs under /bin/sh -c). */
export function isPlainShell(program: string | undefined): boolean {
  return program !== undefined && !/\s/.test(program) && PLAIN_SHELLS.has(basename(program));
}

/**
 * The pager variables of a plain shell's pane, as the integration scripts set them for bash,
 * zsh and fish: the user's own values kept as TERMHIVE_USER_* for the lines a person types.
 * `env`: the pane's environment so far (the caller's and the open's own). {} for other programs.
 */
export function plainShellPagerEnv(program: string, env: Record<string, string | undefined>, shellDir = shellAssetDir()): Record<string, string> {
  if (!isPlainShell(program)) return {};
  const raw = join(shellDir, "bin", "pager");
  // Scripts run `$PAGER file` split, not parsed: quoted only when the path must be.
  const pager = /[^A-Za-z0-9/._+-]/.test(raw) ? `'${raw.replace(/'/g, `'\\''`)}'` : raw;
  const out: Record<string, string> = {};
  for (const name of PAGERS) {
    const own = env[name];
    if (own !== undefined && own !== "" && !own.startsWith(pager)) out[`TERMHIVE_USER_${name}`] = own;
    out[name] = name === "PAGER" ? pager : `${pager} ${name}`;
  }
  // In its secure mode (on where it cannot ask logind) systemd runs less whatever SYSTEMD_PAGER says.
  if (env.SYSTEMD_PAGERSECURE === undefined) out.SYSTEMD_PAGERSECURE = "0";
  return out;
}
