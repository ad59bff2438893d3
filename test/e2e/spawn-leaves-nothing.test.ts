// Trial 16 §6: an agent_spawn that is refused leaves nothing behind (no git worktree, no
// branch: the retry would meet "a branch named … already exists"), and replace: true takes the
// place of the agent's own exited pane, worktree and all.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { agentIs } from "./real-agents.js";
import { removeAtExit, removeTempFolder, tempFolder } from "../temp-folder.js";

describe("agent_spawn with a worktree, refused or replacing", () => {
  let h: Harness;
  let repo = "";
  const git = (...a: string[]) => spawnSync("git", ["-C", repo, ...a], { encoding: "utf8" });
  const branches = () => git("branch", "--format=%(refname:short)").stdout.trim().split("\n").sort();
  const worktrees = () => git("worktree", "list", "--porcelain").stdout.split("\n").filter((l) => l.startsWith("worktree ")).length;

  before(async () => {
    h = await Harness.start();
    repo = tempFolder("termhive-repo-");
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "README"), "hi\n");
    git("add", "README");
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "init");
    removeAtExit(`${realpathSync(repo)}.termhive-worktrees`);
  });
  after(async () => {
    await h?.destroy();
    removeTempFolder(repo);
  });

  test("a name held by another session is refused before the worktree is made", async () => {
    await h.ok("terminal_open", { name: "held" });
    const r = await h.call("agent_spawn", { name: "held", command: "bash", worktree: { repo, branch: "held-work" } });
    assert.equal(r.isError, true);
    assert.match(r.text, /a session named "held" already exists .*pick another name or close it first/);
    assert.deepEqual(branches(), ["main"]);
    assert.equal(worktrees(), 1);
    assert.equal(existsSync(join(`${realpathSync(repo)}.termhive-worktrees`, "held")), false);
  });

  test("replace: true takes the place of the agent's exited pane", async () => {
    await h.ok("agent_spawn", { name: "ed", command: "bash", worktree: { repo, branch: "ed-work" } });
    await h.ok("terminal_send", { session: "ed", text: "exit 3\n" });
    await agentIs(h, "ed", "exited");
    const r = await h.ok("agent_spawn", { name: "ed", command: "bash", replace: true, worktree: { repo, branch: "ed-work2" } });
    assert.equal(r.ready, "ready", JSON.stringify(r));
    // The first worktree is kept (it holds the exited agent's work); the new one is beside it.
    assert.equal(r.worktree.path, join(`${realpathSync(repo)}.termhive-worktrees`, "ed-2"));
    const run = await h.ok("terminal_run", { session: "ed", command: "git branch --show-current" });
    assert.equal(run.output.trim(), "ed-work2");
    assert.equal(((await agentIs(h, "ed", "idle")) as unknown as { alive: boolean }).alive, true);
  });
});
