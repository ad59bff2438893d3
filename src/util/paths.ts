import { existsSync, mkdirSync, chmodSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { homedir } from "node:os";
import { fileURLToPath } from "node:url";

/** The package root, found from this file so it works from src/ (tsx) and dist/src/ alike. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("termhive: package.json not found above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

/** Shipped, non-TypeScript assets (shell integration scripts) live in src/shell in the package. */
export function shellAssetDir(): string {
  return join(packageRoot(), "src", "shell");
}

/** TERMHIVE_HOME, else $XDG_STATE_HOME/termhive, else ~/.local/state/termhive. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TERMHIVE_HOME) return resolve(env.TERMHIVE_HOME);
  const state = env.XDG_STATE_HOME ? resolve(env.XDG_STATE_HOME) : join(homedir(), ".local", "state");
  return join(state, "termhive");
}

/**
 * A folder as the file system names it: absolute, without a trailing slash, its symlinks
 * followed; as given (made absolute) when it does not exist, so two spellings of one folder
 * compare equal and a missing one still compares with itself.
 */
export function realFolder(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Creates a private (0700) directory, tightening it if it already exists with looser bits. */
export function ensurePrivateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o700);
  return path;
}
