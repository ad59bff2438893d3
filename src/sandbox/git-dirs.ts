// Every git dir a project reaches, and the parts of each that make git run code: a later plain
// `git status` outside, at the project's top, reads them too (it recurses into submodules, whose
// git dirs live in .git/modules; a linked worktree reads its own .git/worktrees/<name> and the
// common dir that names). Objects, refs, logs and the index stay writable: commits work.
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * In a git dir: what git runs (config: core.fsmonitor, core.hooksPath, aliases, filter and diff
 * drivers, core.sshCommand; hooks/) and what points git at another git dir whose config it then
 * reads (commondir).
 */
export const GIT_DIR_PATHS = ["config", "config.worktree", "hooks", "commondir"];

/** A bound on the git dirs looked through under one .git (submodules of submodules, worktrees). */
const MAX_GIT_DIRS = 256;
const MAX_DEPTH = 6;

const isDir = (path: string) => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/** A git dir has a HEAD; a folder of .git/modules without one holds nested submodule names (a/b). */
const isGitDir = (dir: string) => {
  try {
    return lstatSync(join(dir, "HEAD")).isFile();
  } catch {
    return false;
  }
};

/** The git dirs in and under one: itself, its submodules' (modules/**), its linked worktrees' (worktrees/*). */
export function gitDirsUnder(gitDir: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (found.length >= MAX_GIT_DIRS || depth > MAX_DEPTH) return;
    if (isGitDir(dir)) {
      found.push(dir);
      for (const nested of ["modules", "worktrees"]) for (const sub of subdirs(join(dir, nested))) visit(sub, depth + 1);
    } else for (const sub of subdirs(dir)) visit(sub, depth + 1);
  };
  visit(gitDir, 0);
  return found;
}

/** The git dir a `.git` file (a submodule's or a linked worktree's) names, or undefined. */
export function gitFileTarget(dotGit: string): string | undefined {
  try {
    const text = readFileSync(dotGit, { encoding: "utf8", flag: "r" }).slice(0, 4096);
    const named = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
    return named ? (isAbsolute(named) ? named : resolve(dirname(dotGit), named)) : undefined;
  } catch {
    return undefined;
  }
}

/** The common dir a linked worktree's git dir names in its commondir file, or undefined. */
function commonDir(gitDir: string): string | undefined {
  try {
    const named = readFileSync(join(gitDir, "commondir"), "utf8").slice(0, 4096).trim();
    return named ? (isAbsolute(named) ? named : resolve(gitDir, named)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The dangerous parts of every git dir reachable from `gitDir` (itself, modules/**, worktrees/*,
 * and each one's common dir). A missing hooks folder is made (empty) when `make` says so, so that
 * it can be covered: left missing, the pane would make it and plant a hook (a repository made with
 * `git init --template=` has none). Likewise an empty config.worktree where the repository turns
 * worktree config on (extensions.worktreeConfig). Both are inside the git dir, where git itself
 * makes them, and show in no `git status`.
 */
export function gitDirParts(gitDir: string, make: (path: string) => boolean): string[] {
  const dirs = new Set(gitDirsUnder(gitDir));
  for (const dir of [...dirs]) {
    const common = commonDir(dir);
    if (common && isDir(common)) dirs.add(common);
  }
  const parts: string[] = [];
  for (const dir of dirs) {
    const hooks = join(dir, "hooks");
    if (!isDir(hooks) && !exists(hooks) && make(hooks)) mkdirSync(hooks, { mode: 0o755 });
    const worktreeConfig = join(dir, "config.worktree");
    if (!exists(worktreeConfig) && worktreeConfigOn(commonDir(dir) ?? dir) && make(worktreeConfig)) writeEmpty(worktreeConfig);
    parts.push(...GIT_DIR_PATHS.map((p) => join(dir, p)));
  }
  return parts;
}

function worktreeConfigOn(common: string): boolean {
  try {
    return /^\s*worktreeconfig\s*=\s*(true|yes|on|1)\s*$/im.test(readFileSync(join(common, "config"), "utf8").slice(0, 65536));
  } catch {
    return false;
  }
}

/** Whether anything is at `path`, a dangling link too (lstat). */
export function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function writeEmpty(path: string): void {
  try {
    writeFileSync(path, "", { flag: "wx", mode: 0o644 }); // never over a file that appeared meanwhile
  } catch {
    // made meanwhile: covered as it is
  }
}

/** The last `core.hooksPath` a git config text sets ("" for none). */
export function hooksPathSetting(text: string): string {
  let section = "";
  let found = "";
  for (const line of text.split("\n")) {
    const header = /^\s*\[([^\]]*)\]/.exec(line);
    if (header) section = header[1]!.trim().toLowerCase();
    const setting = section === "core" ? /^\s*hookspath\s*=\s*(.*?)\s*$/i.exec(header ? line.slice(header[0].length) : line) : null;
    if (setting) found = setting[1]!.replace(/^"(.*)"$/, "$1");
  }
  return found;
}

/**
 * The hooks folder git runs for the work tree `top` instead of its git dir's hooks/, when a
 * config sets core.hooksPath (husky's `.husky/_`, a `.githooks` of the project, a `~/.githooks`):
 * the global configs first, the repository's last (it wins, as in git). Relative to the work
 * tree's top, as git reads it.
 */
export function hooksPathFor(top: string, gitDir: string, home: string): string | undefined {
  const configs = [join(home, ".gitconfig"), join(home, ".config", "git", "config"), join(commonDir(gitDir) ?? gitDir, "config"), join(gitDir, "config.worktree")];
  let setting = "";
  for (const config of configs) {
    try {
      setting = hooksPathSetting(readFileSync(config, "utf8").slice(0, 65536)) || setting;
    } catch {
      // no such config
    }
  }
  if (!setting) return undefined;
  if (setting === "~" || setting.startsWith("~/")) return join(home, setting.slice(1));
  return isAbsolute(setting) ? setting : resolve(top, setting);
}
