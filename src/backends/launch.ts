// Starting a pane's program without letting any user-supplied string reach a command parser:
// the program, its arguments, cwd and environment become a POSIX script that is base64-encoded,
// so the tmux command line (and /bin/sh's own command string) only ever holds [A-Za-z0-9+/=].

export interface LaunchSpec {
  argv: string[];
  cwd?: string;
  env?: Record<string, string>;
}

import { shellWord } from "../util/shell-word.js";
import { joinWords } from "../util/words.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class InvalidLaunchError extends Error {
  override name = "InvalidLaunchError";
}

export function validateLaunch(spec: LaunchSpec): void {
  if (spec.argv.length === 0 || !spec.argv[0]) throw new InvalidLaunchError("command is empty");
  for (const part of [...spec.argv, spec.cwd ?? "", ...Object.values(spec.env ?? {})]) {
    if (part.includes("\0")) throw new InvalidLaunchError("command, cwd and env values cannot contain NUL bytes");
  }
  for (const name of Object.keys(spec.env ?? {})) {
    if (!ENV_NAME.test(name)) throw new InvalidLaunchError(`invalid environment variable name ${JSON.stringify(name)}: use letters, digits and _`);
  }
}

/** The script the pane runs: cd, export, exec — nothing else, so the pane's pid is the program's. */
export function launchScript(spec: LaunchSpec): string {
  validateLaunch(spec);
  const lines: string[] = [];
  if (spec.cwd) lines.push(`cd -- ${shellWord(spec.cwd)} || exit 126`);
  for (const [name, value] of Object.entries(spec.env ?? {})) lines.push(`export ${name}=${shellWord(value)}`);
  lines.push(`exec ${joinWords(spec.argv)}`);
  return lines.join("\n");
}

/** argv for the pane: /bin/sh decodes and evaluates the script. */
export function launchArgv(spec: LaunchSpec): string[] {
  const encoded = Buffer.from(launchScript(spec), "utf8").toString("base64");
  return ["/bin/sh", "-c", `eval "$(printf %s ${encoded} | base64 -d)"`];
}
