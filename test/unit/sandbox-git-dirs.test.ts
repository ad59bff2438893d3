// Which git dirs a project's .git reaches and what of each the sandbox keeps read-only
// (src/sandbox/git-dirs.ts), on repositories real git made: nested submodules, a linked worktree,
// a repository with no hooks folder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gitDirParts, gitDirsUnder, gitFileTarget } from "../../src/sandbox/git-dirs.js";
import { tempFolder } from "../temp-folder.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always", ...args], { cwd, stdio: "pipe" });

test("a submodule of a submodule, a submodule named a/b and a linked worktree: each git dir is found, with its config, hooks and commondir", () => {
  const root = tempFolder("git-dirs-");
  const leaf = join(root, "leaf");
  const mid = join(root, "mid");
  const top = join(root, "top");
  for (const repo of [leaf, mid, top]) git(root, "init", "-q", repo);
  git(leaf, "commit", "-q", "--allow-empty", "-m", "leaf");
  git(mid, "submodule", "add", "-q", leaf, "leaf");
  git(mid, "commit", "-q", "-m", "mid");
  git(top, "submodule", "add", "-q", mid, "mid");
  git(top, "submodule", "add", "-q", "--name", "a/b", leaf, "nested/leaf");
  git(top, "submodule", "update", "-q", "--init", "--recursive");
  git(top, "commit", "-q", "-m", "top");
  git(top, "worktree", "add", "-q", join(root, "linked"));
  const dot = join(top, ".git");
  const found = gitDirsUnder(dot).map((d) => d.slice(dot.length) || "/");
  assert.deepEqual(found.sort(), ["/", "/modules/a/b", "/modules/mid", "/modules/mid/modules/leaf", "/worktrees/linked"]);
  assert.equal(gitFileTarget(join(top, "mid", ".git")), join(dot, "modules", "mid"));
  assert.equal(gitFileTarget(join(top, "mid", "leaf", ".git")), join(dot, "modules", "mid", "modules", "leaf"));
  // A linked worktree's git dir names the common dir: its config is listed from there too.
  const parts = gitDirParts(join(dot, "worktrees", "linked"), () => false);
  assert.ok(parts.includes(join(dot, "config")) && parts.includes(join(dot, "worktrees", "linked", "commondir")), parts.join("\n"));
  const all = gitDirParts(dot, () => false);
  for (const p of ["modules/mid/modules/leaf/config", "modules/a/b/hooks", "worktrees/linked/config.worktree"]) assert.ok(all.includes(join(dot, p)), p);
});

test("a repository made with no template: its hooks folder is made (empty) only where make says so; config.worktree only with worktree config on", () => {
  const root = tempFolder("git-dirs-bare-");
  const repo = join(root, "r");
  git(root, "init", "-q", "--template=", repo);
  const dot = join(repo, ".git");
  gitDirParts(dot, () => false);
  assert.equal(existsSync(join(dot, "hooks")), false);
  gitDirParts(dot, () => true);
  assert.deepEqual(readdirSync(join(dot, "hooks")), []);
  assert.equal(existsSync(join(dot, "config.worktree")), false);
  git(repo, "config", "extensions.worktreeConfig", "true");
  gitDirParts(dot, () => true);
  assert.equal(existsSync(join(dot, "config.worktree")), true);
  // git still reads the repository as before.
  git(repo, "status");
});
