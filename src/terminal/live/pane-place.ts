// Where a session's pane runs and what it runs, as the registry opens or adopts it: the folder
// (checked before anything is opened), a remote host's folder, the metadata a pane carries,
// and whether the pane's foreground program is the session's own.
import { basename, isAbsolute, resolve } from "node:path";
import { statSync } from "node:fs";
import type { HostFacts, PaneInfo } from "../../backends/backend.js";
import { ToolError } from "../../util/tool-error.js";
import type { SessionMeta } from "../session/session.js";
import { parseStoredPolicy } from "../../sandbox/policy.js";

/** The pane's foreground process is the program the session was opened with (a shell: nothing runs in it). */
export function ownProgramInForeground(pane: { foreground: string }, meta: { command: string }): boolean {
  return basename(pane.foreground) === basename(meta.command.split(" ")[0] ?? "");
}

/**
 * The folder a new session starts in: the caller's (this process's cwd) unless given; a
 * relative one is taken from there too. Checked before any pane exists, so a typo leaves
 * nothing behind — not a pane whose shell exits 126 at once.
 */
export function resolveCwd(cwd: string | undefined, home = process.env.HOME): string {
  // "~" is the home folder, as in a shell (it was taken as a folder named "~" in the cwd).
  const expanded = home && cwd !== undefined && (cwd === "~" || cwd.startsWith("~/")) ? home + cwd.slice(1) : cwd;
  const folder = resolve(process.cwd(), expanded ?? ".");
  let stat;
  try {
    stat = statSync(folder);
  } catch {
    throw new ToolError(`cwd ${JSON.stringify(cwd ?? folder)} does not exist${expanded !== undefined && !isAbsolute(expanded) ? ` (resolved against ${process.cwd()} to ${folder})` : ""}; nothing was opened`);
  }
  if (!stat.isDirectory()) throw new ToolError(`cwd ${JSON.stringify(cwd ?? folder)} is not a folder; nothing was opened`);
  return folder;
}

/** A remote session's folder: the host's HOME unless given; a relative one is taken from there. */
export function remoteCwd(host: HostFacts, cwd: string | undefined): string {
  if (cwd === undefined || cwd === "") return host.home;
  return cwd.startsWith("/") ? cwd : `${host.home}/${cwd}`;
}

export function metaFromPane(pane: PaneInfo): SessionMeta {
  const shell = pane.meta.shell;
  const sandbox = parseStoredPolicy(pane.meta.sandbox);
  return {
    ...(sandbox ? { sandbox } : {}),
    ...(pane.meta.host ? { host: pane.meta.host } : {}),
    id: pane.meta.id!,
    name: pane.meta.name ?? pane.meta.id!,
    created: Number(pane.meta.created) || Date.now(),
    command: pane.meta.command ?? "",
    shell: shell === "bash" || shell === "zsh" || shell === "fish" ? shell : "other",
  };
}
