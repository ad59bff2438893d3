// A fresh git worktree on a new branch for a spawned agent, so agents working on the same
// repository do not edit each other's files.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolError } from "../../util/tool-error.js";

function git(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new ToolError(`git ${args.slice(2).join(" ")} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout.trim());
    });
  });
}

/** `git worktree add -b <branch> <tmp>/<agent>`; returns the worktree path. */
export async function addWorktree(repo: string, branch: string, agent: string): Promise<string> {
  const top = await git(["-C", repo, "rev-parse", "--show-toplevel"]).catch(() => {
    throw new ToolError(`worktree.repo ${JSON.stringify(repo)} is not a git repository`);
  });
  const parent = mkdtempSync(join(tmpdir(), "termhive-wt-"));
  const path = join(parent, agent);
  try {
    await git(["-C", top, "worktree", "add", "-b", branch, path]);
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw error;
  }
  return path;
}
