// `git show` and `git log -p` through terminal_run keep the diff they print (a user trial saw
// `git show HEAD~5` summarised a line per commit, its diff gone); plain `git log` still is.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";

const COMMITS = 8;

/** Commit i rewrites a.txt and b.txt to "a of commit i" / "b of commit i". */
function makeRepo(dir: string): void {
  mkdirSync(dir);
  const git = (...args: string[]) => {
    const r = spawnSync("git", ["-c", "user.name=Trial User", "-c", "user.email=t@example.com", "-C", dir, ...args], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  };
  git("init", "-q", "-b", "main");
  for (let i = 1; i <= COMMITS; i++) {
    writeFileSync(join(dir, "a.txt"), `a of commit ${i}\nshared line\n`);
    writeFileSync(join(dir, "b.txt"), `b of commit ${i}\n`);
    git("add", "-A");
    git("commit", "-q", "-m", `change ${i}`, "-m", `Why change ${i} was made.`);
  }
}

describe("git output that shows changes", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
    const repo = join(h.home, "repo");
    makeRepo(repo);
    await h.ok("terminal_open", { name: "git", command: "bash", cwd: repo });
  });
  after(async () => h.destroy());

  test("git show HEAD~5 returns the commit's message and its diff", async () => {
    const show = await h.ok("terminal_run", { session: "git", command: "git show HEAD~5" });
    assert.equal(show.exit_code, 0, JSON.stringify(show));
    assert.notEqual(show.reducer, "git-log", show.output);
    for (const fact of ["change 3", "Why change 3 was made.", "Author: Trial User", "a.txt", "b.txt", "-a of commit 2", "+a of commit 3", "-b of commit 2", "+b of commit 3"]) {
      assert.ok(show.output.includes(fact), `missing ${JSON.stringify(fact)} in:\n${show.output}`);
    }
  });

  test("git log -p keeps every commit's diff; plain git log is a line per commit", async () => {
    const patch = await h.ok("terminal_run", { session: "git", command: "git log -p -3" });
    assert.notEqual(patch.reducer, "git-log", patch.output);
    for (const i of [8, 7, 6]) {
      for (const fact of [`change ${i}`, `+a of commit ${i}`, `-a of commit ${i - 1}`, `+b of commit ${i}`]) assert.ok(patch.output.includes(fact), `missing ${JSON.stringify(fact)} in:\n${patch.output}`);
    }
    const log = await h.ok("terminal_run", { session: "git", command: "git log" });
    assert.equal(log.reducer, "git-log", log.output);
    assert.equal(log.output.split("\n").filter((line: string) => /^[0-9a-f]{8} change \d … · \d{4}-\d\d-\d\d Trial User\b/.test(line)).length, COMMITS, log.output);
  });
});
