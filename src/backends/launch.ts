// Starting a pane's program without letting any user-supplied string reach a command parser:
// the program, its arguments, cwd and environment become a POSIX script that is base64-encoded,
// so the tmux command line (and /bin/sh's own command string) only ever holds [A-Za-z0-9+/=].

export interface LaunchSpec {
  argv: string[];
  cwd?: string;
  env?: Record<string, string>;
  /**
   * `env` is the program's whole environment: nothing is inherited from the process that runs
   * the script (the tmux server's environment is the first client's, see util/pane-env.ts),
   * except what the terminal sets for this pane itself (TERM, COLORTERM, TMUX, TMUX_PANE).
   */
  clean?: boolean;
}

/** Variables the terminal sets for the pane itself; kept by a clean launch when set. */
const TERMINAL_SET = ["TERM", "COLORTERM", "TMUX", "TMUX_PANE"];

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
  if (spec.clean) {
    // env -i: the program starts from exactly this list. `${X+"X=$X"}` is the word X=value when the terminal set X, else nothing.
    const kept = TERMINAL_SET.filter((name) => !(spec.env && name in spec.env)).map((name) => `\${${name}+"${name}=$${name}"}`);
    const given = Object.entries(spec.env ?? {}).map(([name, value]) => shellWord(`${name}=${value}`));
    // A program whose name holds "=" would be read by env as one more variable: ./ makes it a path.
    const [program, ...rest] = spec.argv;
    const first = program!.includes("=") && !program!.includes("/") ? `./${program}` : program!;
    lines.push(`exec env -i ${[...kept, ...given].join(" ")} ${joinWords([first, ...rest])}`);
    return lines.join("\n");
  }
  for (const [name, value] of Object.entries(spec.env ?? {})) lines.push(`export ${name}=${shellWord(value)}`);
  lines.push(`exec ${joinWords(spec.argv)}`);
  return lines.join("\n");
}

/** argv for the pane: /bin/sh decodes and evaluates the script. */
export function launchArgv(spec: LaunchSpec): string[] {
  const encoded = Buffer.from(launchScript(spec), "utf8").toString("base64");
  return ["/bin/sh", "-c", `eval "$(printf %s ${encoded} | base64 -d)"`];
}
