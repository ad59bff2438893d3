// Removing what a sandboxed program left in a folder of the host (its relay folder) without
// ever following a link it planted. A program inside can swap any entry for a symlink at any
// moment (rename, renameat2 RENAME_EXCHANGE), so a removal by path — check, then act — can be
// sent through a link into a folder outside the sandbox. Everything here acts on a name inside
// a folder held open by descriptor (/proc/self/fd/<fd>/<name>: the kernel resolves the folder
// from the descriptor, not from a path the program can change), and the last component is never
// followed: unlink and rmdir do not follow it, and folders are opened with O_NOFOLLOW.
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readdirSync, renameSync, rmdirSync, unlinkSync } from "node:fs";
import { randomBytes } from "node:crypto";

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Folders are removed this deep; a deeper one is moved up to the top folder first, so descriptors held stay few. */
const MAX_DEPTH = 16;

/** The entry `name` of the folder open as `fd`, as a path that does not depend on the folder's path. */
export const entryAt = (fd: number, name: string) => `/proc/self/fd/${fd}/${name}`;

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Opens a folder the server made itself (its own path is trusted; a link as its last component is refused). */
export function openFolder(path: string): number {
  return openSync(path, DIR_FLAGS);
}

/** Entries one pass may still visit: shared by every removal of the pass, so a folder the program fills without end costs a bounded amount per pass. */
export interface RemovalBudget {
  left: number;
}

interface Walk {
  /** The top folder: deeper folders are moved here. */
  top: number;
  budget: RemovalBudget;
  /** Names moved into the top folder, removed in this pass when the budget allows. */
  moved: string[];
}

/** Empties a file before it is unlinked: a writer inside that holds it open would otherwise keep its blocks on the host's disk. */
function emptyFile(at: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(at, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    // A second name elsewhere would be emptied too; a bind mount keeps outside files from being linked here, and this keeps it so.
    if (stat.isFile() && stat.nlink === 1 && stat.size > 0) ftruncateSync(fd, 0);
  } catch {
    // a link, a FIFO without a reader, gone: nothing to empty
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function removeAt(walk: Walk, dir: number, name: string, depth: number): boolean {
  if (walk.budget.left-- <= 0) return false;
  const at = entryAt(dir, name);
  emptyFile(at);
  try {
    unlinkSync(at);
    return true;
  } catch (error) {
    if (code(error) === "ENOENT") return true;
    if (code(error) !== "EISDIR") throw error;
  }
  let fd: number;
  try {
    fd = openSync(at, DIR_FLAGS);
  } catch (error) {
    if (code(error) === "ENOENT") return true;
    // Swapped for a link or a file since: that is unlinked, never followed.
    if (code(error) === "ENOTDIR" || code(error) === "ELOOP") return removeAt(walk, dir, name, depth);
    throw error;
  }
  let complete = true;
  try {
    if (depth >= MAX_DEPTH) {
      const moved = `.deep-${randomBytes(6).toString("hex")}`;
      renameSync(at, entryAt(walk.top, moved));
      walk.moved.push(moved);
      return true;
    }
    for (const child of readdirSync(entryAt(fd, ""))) complete = removeAt(walk, fd, child, depth + 1) && complete;
  } finally {
    closeSync(fd);
  }
  if (!complete) return false;
  try {
    rmdirSync(at);
    return true;
  } catch (error) {
    if (code(error) === "ENOENT") return true;
    // Refilled (ENOTEMPTY) or swapped for a non-folder (ENOTDIR) meanwhile: a later pass takes it.
    if (code(error) === "ENOTEMPTY" || code(error) === "ENOTDIR") return false;
    throw error;
  }
}

/**
 * Removes the entry `name` of the folder open as `dir` (a file, a link, a FIFO or a whole
 * tree), following no link, visiting at most what is left of `budget`. False when something is
 * left for a later pass (the budget ran out, or the program refilled a folder meanwhile).
 */
export function removeEntry(dir: number, name: string, budget: RemovalBudget = { left: 10_000 }): boolean {
  const walk: Walk = { top: dir, budget, moved: [] };
  let complete = removeAt(walk, dir, name, 0);
  while (walk.moved.length > 0) complete = removeAt(walk, dir, walk.moved.shift()!, 0) && complete;
  return complete;
}

/** Removes a folder the server made (trusted path) and everything in it, the same safe way. False when something was left. */
export function removeFolder(path: string, budget: RemovalBudget = { left: 1_000_000 }): boolean {
  let fd: number;
  try {
    fd = openFolder(path);
  } catch (error) {
    if (code(error) === "ENOENT") return true;
    throw error;
  }
  let complete = true;
  try {
    for (const name of readdirSync(entryAt(fd, ""))) complete = removeEntry(fd, name, budget) && complete;
    // Whatever the program left, once it is gone (the pane's end), is finite: the budget is a backstop.
  } finally {
    closeSync(fd);
  }
  if (complete) rmdirSync(path);
  return complete;
}
