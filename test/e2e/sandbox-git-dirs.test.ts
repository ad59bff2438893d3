// The ways out of a `worktree` sandbox that the sixteenth trial found (trial16 section 5): a
// project's other git dirs (a submodule's in .git/modules, a linked worktree's in .git/worktrees)
// and what was missing at launch (a .git/hooks, a .claude) let the pane plant code that a plain
// git or agent run outside executes. Real bubblewrap panes; judged by what runs outside after.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { findOnPath } from "../../src/util/find-program.js";
import { Harness } from "./harness.js";
import { outsideTmp } from "../temp-folder.js";

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";
const ID = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always"];

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", [...ID, ...args], { cwd, encoding: "utf8" });
  assert.equal(r.status, 0, `git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

describe("a worktree sandbox leaves no git dir or agent folder of its project to plant code in", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome = "";
  let top = "";
  let bare = "";

  before(async () => {
    root = mkdtempSync(join(outsideTmp(), "termhive-gitdirs-"));
    userHome = join(root, "user");
    top = join(userHome, "super");
    bare = join(userHome, "bare");
    mkdirSync(userHome);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    const subsrc = join(userHome, "subsrc");
    git(userHome, "init", "-q", subsrc);
    git(subsrc, "commit", "-q", "--allow-empty", "-m", "one");
    git(userHome, "init", "-q", top);
    git(top, "submodule", "add", "-q", subsrc, "sub");
    git(top, "commit", "-q", "-m", "add");
    // A linked worktree of the project, with per-worktree config turned on and no config.worktree yet.
    git(top, "config", "extensions.worktreeConfig", "true");
    git(top, "worktree", "add", "-q", join(top, "linked"));
    // A repository made with no template: no hooks folder at all; no .claude either.
    git(userHome, "init", "-q", "--template=", bare);
    git(bare, "commit", "-q", "--allow-empty", "-m", "one");
    h = new Harness(join(root, "th"), { HOME: userHome });
    h.bare = true;
    h.cwd = userHome;
    await h.connect();
  });
  after(async () => {
    await h?.destroy();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = (session: string, command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });

  test("a submodule's git dir (.git/modules/sub) and a linked worktree's (.git/worktrees/linked) keep config, hooks and commondir read-only: the user's git status outside runs nothing planted", async () => {
    const { session } = await h.ok("terminal_open", { name: "gd-super", command: "bash", cwd: top, sandbox: "worktree" });
    const mark = join(userHome, "FSMONPWN");
    const plants = [
      `git config -f .git/modules/sub/config core.fsmonitor 'echo FSMON > ${mark}; false'`,
      `printf '#!/bin/sh\\necho HOOK > ${mark}\\n' > .git/modules/sub/hooks/post-checkout`,
      `git config -f .git/worktrees/linked/config.worktree core.fsmonitor 'echo FSMON > ${mark}; false'`,
      `echo ${join(userHome, "evil")} > .git/worktrees/linked/commondir`,
      `echo "gitdir: ${join(userHome, "evil")}" > linked/.git`,
    ];
    for (const plant of plants) {
      const r = await run(session, plant);
      assert.notEqual(r.exit_code, 0, `planted: ${plant}\n${r.output}`);
      assert.match(r.output, /Read-only file system|could not lock|Permission denied|Device or resource busy/, r.output);
    }
    // The git dirs cannot be moved away to make fresh ones in their place.
    const moved = await run(session, `mv .git/modules/sub .git/modules/sub-old || mv .git/worktrees/linked .git/worktrees/l2; echo rc=$?`);
    assert.match(moved.output, /rc=[1-9]/, moved.output);
    // The pane's own work still commits, in the project and in the submodule.
    const work = await run(session, `echo w > w.txt && git add w.txt && git -c user.name=t -c user.email=t@t commit -qm w && cd sub && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m s && echo committed`);
    assert.match(work.output, /committed/, work.output);
    await h.ok("terminal_close", { session });
    git(top, "status");
    git(join(top, "linked"), "status");
    git(join(top, "sub"), "checkout", "-q", "HEAD~1");
    assert.equal(existsSync(mark), false, "a planted command ran outside");
  });

  test("a repository with no .git/hooks and no .claude at launch: neither can be made inside, so nothing planted runs on the user's next commit; no litter git shows", async () => {
    const { session } = await h.ok("terminal_open", { name: "gd-bare", command: "bash", cwd: bare, sandbox: "worktree" });
    const mark = join(userHome, "HOOKPWN");
    const hook = await run(session, `mkdir -p .git/hooks; printf '#!/bin/sh\\necho HOOK > ${mark}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`);
    assert.notEqual(hook.exit_code, 0, hook.output);
    const claude = await run(session, `mkdir -p .claude; echo '{"hooks":{}}' > .claude/settings.json`);
    assert.notEqual(claude.exit_code, 0, claude.output);
    const renamed = await run(session, `mv .claude .claude-old || mv .git/hooks .git/hooks-old; echo rc=$?`);
    assert.match(renamed.output, /rc=[1-9]/, renamed.output);
    await h.ok("terminal_close", { session });
    git(bare, "commit", "-q", "--allow-empty", "-m", "two");
    assert.equal(existsSync(mark), false, "the planted hook ran outside");
    assert.deepEqual(readdirSync(join(bare, ".git", "hooks")), []);
    assert.equal(existsSync(join(bare, ".claude", "settings.json")), false);
    // What was made to be covered is empty folders: git shows nothing new in the project.
    assert.equal(git(bare, "status", "--porcelain"), "");
  });

  test("a hooks folder core.hooksPath names (a project's .githooks, husky's .husky/_ not made yet) is read-only: the user's next commit runs nothing planted", async () => {
    const hooked = join(userHome, "hooked");
    git(userHome, "init", "-q", hooked);
    mkdirSync(join(hooked, ".githooks"));
    writeFileSync(join(hooked, ".githooks", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    git(hooked, "config", "core.hooksPath", ".githooks");
    git(hooked, "commit", "-q", "--allow-empty", "-m", "one");
    const husky = join(userHome, "husky");
    git(userHome, "init", "-q", husky);
    git(husky, "config", "core.hooksPath", ".husky/_");
    git(husky, "commit", "-q", "--allow-empty", "-m", "one");
    const mark = join(userHome, "HOOKSPATHPWN");
    for (const [repo, plant] of [
      [hooked, `printf '#!/bin/sh\\necho HOOKSPATH > ${mark}\\n' > .githooks/pre-commit`],
      [husky, `mkdir -p .husky/_ && printf '#!/bin/sh\\necho HUSKY > ${mark}\\n' > .husky/_/pre-commit && chmod +x .husky/_/pre-commit`],
    ] as const) {
      const { session } = await h.ok("terminal_open", { name: `gd-${repo.split("/").pop()}`, command: "bash", cwd: repo, sandbox: "worktree" });
      const r = await run(session, plant);
      assert.notEqual(r.exit_code, 0, `planted: ${plant}\n${r.output}`);
      await h.ok("terminal_close", { session });
      git(repo, "commit", "-q", "--allow-empty", "-m", "two");
    }
    assert.equal(existsSync(mark), false, "a planted hook ran outside");
    assert.equal(git(husky, "status", "--porcelain"), "", "the folder made to be covered shows nothing in git");
  });

  test("~/.claude given to the pane without settings.json or hooks at launch: hooks is made empty and read-only, settings.json the pane's own copy, so no hook is planted for the next claude outside", async () => {
    mkdirSync(join(userHome, ".claude"));
    const { session } = await h.ok("terminal_open", { name: "gd-claude", command: "bash", cwd: top, sandbox: { write: ["~/.claude"], network: "on" } });
    const r = await run(session, `mkdir -p ~/.claude/hooks && touch ~/.claude/hooks/x; echo rc=$?`);
    assert.match(r.output, /rc=[1-9]/, r.output);
    const own = await run(session, `echo '{"hooks":{"Stop":[]}}' > ~/.claude/settings.json && grep -c Stop ~/.claude/settings.json`);
    assert.equal(own.output, "1", own.output);
    const state = await run(session, `echo s > ~/.claude/history.jsonl && echo state-written`);
    assert.match(state.output, /state-written/, state.output);
    await h.ok("terminal_close", { session });
    assert.doesNotMatch(spawnSync("cat", [join(userHome, ".claude", "settings.json")], { encoding: "utf8" }).stdout, /hooks/);
  });

  test("termhive's own programs (tmux, bwrap, the /bin/sh it launches through) stay read-only where a write path holds them, or the open is refused naming the link it cannot keep", async () => {
    // The folder tmux is in (/usr/bin here) holds bwrap and sh too; the pane only probes it.
    const tmux = findOnPath("tmux")!;
    const r = await h.call("terminal_open", { name: "gd-bin", command: "bash", cwd: top, sandbox: { write: [join(tmux, "..")], network: "on" } });
    if (r.isError) {
      // pasta and sh are links there (to passt, to dash): a link cannot be kept read-only.
      assert.match(r.text, /^sandbox write path ".*" holds ".*", a symlink to ".*", which is termhive's own code, run outside the sandbox: .*nothing was opened$/, r.text);
      return;
    }
    const probe = await run(r.data.session as string, `for p in ${tmux} ${bwrap} /bin/sh; do test -w "$p" && echo "writable: $p"; done; echo probed`);
    await h.ok("terminal_close", { session: r.data.session });
    assert.equal(probe.output, "probed", probe.output);
  });
});
