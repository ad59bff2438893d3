// A fresh git worktree on a new branch for a spawned agent, so agents working on the same
// repository do not edit each other's files.
//
// Where: beside the repository, in `<repo>.termhive-worktrees/<agent>` (e.g. /src/app's agents
// work in /src/app.termhive-worktrees/). Not in TMPDIR: a reboot may clear it, and with it the
// agent's only copy of its work, which agent_restore exists to bring back. Not inside the
// repository: `git add -A` there would take another checkout in, and its .git stays read-only
// under a sandbox. The folder is the agent's pane cwd, so the "worktree" preset writes it.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ToolError } from "../../util/tool-error.js";

function git(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new ToolError(`git ${args.slice(2).join(" ")} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout.trim());
    });
  });
}

/** The folder a repository's agent worktrees live in: beside the repository, named after it. */
export function worktreesFolder(top: string): string {
  return join(dirname(top), `${basename(top)}.termhive-worktrees`);
}

/** `git worktree add -b <branch> <repo>.termhive-worktrees/<agent>`; returns the worktree path. */
export async function addWorktree(repo: string, branch: string, agent: string): Promise<string> {
  const top = await git(["-C", repo, "rev-parse", "--show-toplevel"]).catch(() => {
    throw new ToolError(`worktree.repo ${JSON.stringify(repo)} is not a git repository`);
  });
  const parent = worktreesFolder(top);
  const made = !existsSync(parent);
  try {
    mkdirSync(parent, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw new ToolError(`cannot make ${JSON.stringify(parent)} for the agent's worktree (beside the repository): ${(error as Error).message}`);
  }
  // An earlier agent of this name may have left its worktree (kept for its work): never reused.
  let path = join(parent, agent);
  for (let n = 2; existsSync(path); n++) path = join(parent, `${agent}-${n}`);
  try {
    await git(["-C", top, "worktree", "add", "-b", branch, path]);
  } catch (error) {
    // The folder this call made goes again (empty: git made nothing in it).
    if (made) {
      try {
        rmdirSync(parent);
      } catch {
        // not empty after all: left as it is
      }
    }
    throw error;
  }
  return path;
}

/** Undoes addWorktree for a spawn that failed after it: the worktree and its new branch go. */
export async function removeWorktree(repo: string, branch: string, path: string): Promise<void> {
  const top = await git(["-C", repo, "rev-parse", "--show-toplevel"]).catch(() => null);
  if (!top) return;
  await git(["-C", top, "worktree", "remove", "--force", path]).catch(() => undefined);
  // -d, not -D: a branch with commits of its own is not this call's to delete.
  await git(["-C", top, "branch", "-d", branch]).catch(() => undefined);
}
