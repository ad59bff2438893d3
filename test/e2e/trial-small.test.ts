// Small things a fresh-clone trial met in ordinary use, each through the built server started
// the field way (bare env, another folder): git log's reducer says each commit once (the last
// subject came again as an extra line), a filter that found nothing in unread output says how
// to search everything, a sandbox write path that is a symlink to a folder holding a termhive
// home is refused before the open (bwrap failed after it), and a bad env name is bad input.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

describe("trial: small things", () => {
  let h: Harness;
  let repo: string;
  before(async () => {
    h = await Harness.startField();
    repo = join(h.home, "repo");
    mkdirSync(repo);
    git(repo, "init", "-q");
    for (let i = 1; i <= 60; i++) {
      writeFileSync(join(repo, "f"), String(i));
      git(repo, "add", "f");
      git(repo, "commit", "-q", "-m", `commit ${i}: change with a rather long subject line to see how log reduction handles it ${i}`);
    }
    await h.ok("terminal_open", { name: "t", cwd: repo });
  });
  after(async () => h.destroy());

  test("git log -2 is two lines and its closing line; git log of 60 commits is 60", async () => {
    const two = await h.ok("terminal_run", { session: "t", command: "git log -2" });
    const lines = two.output.split("\n");
    assert.equal(lines.length, 3, two.output);
    assert.match(lines[0], /commit 60:/);
    assert.match(lines[1], /commit 59:/);
    assert.match(lines[2], /^\[git-log reducer, 2 of 11 lines;/);
    const all = await h.ok("terminal_run", { session: "t", command: "git log", max_tokens: 8000 });
    assert.match(all.output, /\[git-log reducer, 60 of 359 lines;/, all.output.slice(-400));
    assert.equal(all.output.split("\n").filter((l: string) => /commit 1: /.test(l)).length, 1, all.output.slice(-600));
  });

  test("a filter that finds nothing in unread output names the read that searches everything", async () => {
    await h.ok("terminal_run", { session: "t", command: "echo needle-$((40+2))" });
    const empty = await h.ok("terminal_read", { session: "t", filter: "needle-42" });
    assert.match(empty.note ?? "", /no new output since the last read; to search everything .*terminal_read \{"session":"t","mode":"all","filter":"needle-42"\}/, JSON.stringify(empty));
    const all = await h.ok("terminal_read", { session: "t", mode: "all", filter: "needle-42" });
    assert.match(all.output, /^needle-42$/m);
    // Unread output that does not match (whether or not its echo has come yet): the same way out.
    await h.ok("terminal_send", { session: "t", text: "echo more-hay\n" });
    const none = await h.ok("terminal_read", { session: "t", filter: "needle-42" });
    assert.match(none.note ?? "", /^(the filter searched only the output since the last read|no new output since the last read); to search everything .*"mode":"all"/, JSON.stringify(none));
  });

  test("a sandbox write path that is a symlink to the folder holding a termhive home is refused before the open", async () => {
    // A user HOME outside the test's termhive home, as a real user's is: its default home
    // (~/.local/state/termhive) is one no sandbox may write.
    const elsewhere = tempFolder("termhive-link-");
    const userHome = join(elsewhere, "user");
    const state = join(userHome, ".local", "state");
    mkdirSync(join(state, "termhive"), { recursive: true });
    const link = join(elsewhere, "link-state");
    symlinkSync(state, link);
    const other = new Harness(h.home, { HOME: userHome });
    other.bare = true;
    other.cwd = h.cwd;
    await other.connect();
    try {
      const r = await other.call("terminal_open", { name: "sbx", sandbox: { write: [link], network: "off" } });
      assert.ok(r.isError, r.text);
      assert.match(r.text, /is a symlink to .*which holds termhive's own folder .*nothing was opened/, r.text);
      const list = await other.ok("terminal_list", {});
      assert.ok(!JSON.stringify(list).includes('"sbx"'), JSON.stringify(list));
    } finally {
      await other.close();
      removeTempFolder(elsewhere);
    }
  });

  test("a bad env name is an input error, not an internal one", async () => {
    const r = await h.call("terminal_open", { name: "badenv", env: { "A;B": "1" } });
    assert.ok(r.isError);
    assert.match(r.text, /^invalid environment variable name "A;B"/, r.text);
  });
});
