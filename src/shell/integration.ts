// How termhive starts a shell so that it reports prompts, commands, exit codes and
// the working directory as OSC 133 / OSC 633;E / OSC 7 sequences, without the user
// editing any rc file, and while still reading the user's own rc files.
//
// The scripts themselves are shipped as plain files next to this one (bash/, zsh/,
// fish/, bin/) and are found through shellAssetDir(), so they work from src/ (tsx)
// and from an installed package alike. Nothing is generated at run time.
import { basename, join } from "node:path";
import { shellAssetDir } from "../util/paths.js";
import { removeStaleCommandLineFiles } from "./cmdline-files.js";

export type ShellKind = "bash" | "zsh" | "fish" | "other";

export interface ShellLaunch {
  kind: ShellKind;
  /** argv to exec (argv[0] is the program). Exec'd directly, never through a shell. */
  argv: string[];
  /** Extra environment for the shell process (merged into the pane's environment). */
  env: Record<string, string>;
}

export interface IntegrationOptions {
  /** A private directory termhive owns; bash keeps its per-shell command-line file there. */
  stateDir: string;
  /** Start a login shell (reads /etc/profile, ~/.bash_profile, ~/.zprofile, …). Default false. */
  login?: boolean;
  /**
   * The environment the shell will start with (termhive's own merged with the
   * session's), used to keep the user's ZDOTDIR. Default: process.env.
   */
  baseEnv?: Record<string, string | undefined>;
  /** Where the scripts live; default shellAssetDir(). Tests point it elsewhere. */
  assetDir?: string;
}

/** Env var naming the directory that holds the integration scripts; re-exec'd shells use it. */
export const SHELL_DIR_ENV = "TERMHIVE_SHELL_DIR";

/** Shells termhive knows how to integrate, by program name (a login `-bash` counts). */
export function detectShell(program: string): ShellKind {
  const name = basename(program).replace(/^-/, "");
  if (name === "bash" || name === "zsh" || name === "fish") return name;
  return "other";
}

/** Paths of the shipped scripts, for callers that want to show or check them. */
export function integrationScripts(assetDir: string = shellAssetDir()): Record<Exclude<ShellKind, "other">, string> {
  return {
    bash: join(assetDir, "bash", "termhive.bash"),
    zsh: join(assetDir, "zsh", ".zshenv"),
    fish: join(assetDir, "fish", "termhive.fish"),
  };
}

/** Quotes a string as one fish word (single quotes; fish only escapes \ and ' inside). */
export function fishQuote(s: string): string {
  return "'" + s.replace(/[\\']/g, (c) => "\\" + c) + "'";
}

/**
 * How to start `shellPath` with termhive's OSC 133/OSC 7 integration, still sourcing
 * the user's rc. An unknown program (sh, dash, python3, ssh …) is returned as given.
 */
export function integrationLaunch(shellPath: string, opts: IntegrationOptions): ShellLaunch {
  const kind = detectShell(shellPath);
  const dir = opts.assetDir ?? shellAssetDir();
  const scripts = integrationScripts(dir);
  const env: Record<string, string> = { [SHELL_DIR_ENV]: dir };
  switch (kind) {
    case "bash":
      removeStaleCommandLineFiles(opts.stateDir);
      // `--rcfile` replaces ~/.bashrc with our file, which sources ~/.bashrc itself.
      // bash ignores --rcfile in a login shell, so "login" is a non-login interactive
      // shell told (TERMHIVE_SHELL_LOGIN) to read the login files instead.
      if (opts.login) env.TERMHIVE_SHELL_LOGIN = "1";
      return { kind, argv: [shellPath, "--rcfile", scripts.bash, "-i"], env };
    case "zsh": {
      // zsh reads every startup file from $ZDOTDIR: pointing it at our shim directory
      // lets the shim load integration, then restore the user's ZDOTDIR and source the
      // user's files from there exactly as zsh would have. The user's value travels in
      // TERMHIVE_USER_ZDOTDIR ("unset" is told apart from "empty" by its presence).
      const base = opts.baseEnv ?? process.env;
      const userZdotdir = base.ZDOTDIR;
      if (userZdotdir !== undefined) env.TERMHIVE_USER_ZDOTDIR = userZdotdir;
      env.ZDOTDIR = join(dir, "zsh");
      return { kind, argv: opts.login ? [shellPath, "-l", "-i"] : [shellPath, "-i"], env };
    }
    case "fish": {
      // fish reads its own config.fish as usual; --init-command runs after it, so our
      // hooks are added on top of whatever the user's config set up.
      const argv = [shellPath];
      if (opts.login) argv.push("-l");
      argv.push("-i", "--init-command", "source " + fishQuote(scripts.fish));
      return { kind, argv, env };
    }
    default:
      return { kind, argv: [shellPath], env: {} };
  }
}
