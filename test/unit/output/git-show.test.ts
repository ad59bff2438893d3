// git commands that print a commit's diff (show, log -p, whatchanged, show --stat) keep it:
// only plain `git log` is summarised a line per commit. Real git output from a temp repo.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { renderOutput } from "../../../src/output/index.js";
import { selectReducer } from "../../../src/output/reducers/index.js";
import * as g from "../../fixtures/output/generate.js";

let dir = "";
before(() => {
  // Eight commits (commit i rewrites 1 + i % 4 files with `export const v<i> = <i>;` lines),
  // then one that rewrites a file to 120 lines: a diff longer than a reducer keeps per file.
  dir = g.gitLogRepo(8).dir;
  g.write(dir, { "src/big.ts": Array.from({ length: 120 }, (_, i) => `export const big${i} = ${i};\n`).join("") });
  const env = { ...process.env, GIT_AUTHOR_DATE: "2026-03-03T10:00:00", GIT_COMMITTER_DATE: "2026-03-03T10:00:00" };
  for (const args of [["add", "-A"], ["commit", "-q", "-m", "Add the big table", "-m", "Why: the parser needs it."]]) {
    const result = spawnSync("git", args, { cwd: dir, encoding: "utf8", env });
    assert.equal(result.status, 0, result.stderr);
  }
});

const run = (command: string): string => g.capturePty(command.replace(/^git /, "git -c color.ui=always --no-pager "), dir);

/** Rendered by command and by shape alone (the command unknown): both must keep `facts`. */
function renders(command: string, facts: (string | RegExp)[], byShape = true): string[] {
  const output = run(command);
  return (byShape ? [command, undefined] : [command]).map((known) => {
    const result = renderOutput(output, { command: known, firstLine: 1, session: "t" });
    const label = `${known ?? "shape"} (${result.reducer ?? "no reducer"})`;
    assert.notEqual(result.reducer, "git-log", `${label} summarised as a log:\n${result.text}`);
    for (const fact of facts) {
      if (typeof fact === "string") assert.ok(result.text.includes(fact), `${label}: missing ${JSON.stringify(fact)} in:\n${result.text}`);
      else assert.match(result.text, fact, label);
    }
    return result.text;
  });
}

// Commit 3 (HEAD~6) made src/module3/file0.ts (9 lines) … src/module6/file3.ts.
const COMMIT3_FILES = ["src/module3/file0.ts", "src/module4/file1.ts", "src/module5/file2.ts", "src/module6/file3.ts"];

test("git show: the commit's header, message and every file's hunks", () => {
  renders("git show HEAD~6", [/^commit [0-9a-f]{40}$/m, "Author: Dev Example", "Document tmux backend step 3", "Longer explanation for change 3.", ...COMMIT3_FILES, /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m, /^\+export const v3 = 3;/m, "src/module3/file0.ts | +9 -0"]);
});

test("git show of a long diff: the rest of a file is one marker with its fetch call", () => {
  const [byCommand] = renders("git show", ["Add the big table", "Why: the parser needs it.", "src/big.ts", "+export const big0 = 0;"]);
  assert.match(byCommand!, /more diff lines of src\/big\.ts: terminal_read \{"session":"t","mode":"lines","from_line":\d+,"to_line":\d+\}/);
});

test("git log -p: every commit's subject and every file of each", () => {
  // HEAD~1 is commit 8 (src/module1/file0.ts: 8 lines of commit 1 become 5), HEAD~2 commit 7 (module0/file0 … module3/file3).
  const commit7 = ["src/module0/file0.ts", "src/module1/file1.ts", "src/module2/file2.ts", "src/module3/file3.ts"];
  renders("git log -p -3", ["Add the big table", "Document tmux backend step 8", "Refactor fold markers step 7", "src/big.ts", "src/module1/file0.ts", ...commit7, /^\+export const v8 = 8;/m, /^\+export const v7 = 7;/m, /^-export const v1 = 1;/m, "src/module1/file0.ts | +5 -8"]);
});

test("git show --stat and git whatchanged keep their per-file lines", () => {
  // By shape alone this is `git log -1 --stat`, which the log reducer summarises: only the command tells them apart.
  renders("git show --stat HEAD~6", [...COMMIT3_FILES.map((file) => `${file} |`), "Document tmux backend step 3"], false);
  renders("git whatchanged -2", ["Add the big table", "src/big.ts", "Document tmux backend step 8", /^:100644 100644 [0-9a-f]+ [0-9a-f]+ M\s+src\/module\d\/file0\.ts$/m]);
});

test("plain git log is still a line per commit; git log --oneline is left alone", () => {
  const log = renderOutput(run("git log"), { command: "git log", firstLine: 1, session: "t" });
  assert.equal(log.reducer, "git-log");
  assert.equal(log.text.split("\n").filter((line) => /^[0-9a-f]{8}\b/.test(line)).length, 9, log.text);
  const oneline = run("git log --oneline");
  const result = renderOutput(oneline, { command: "git log --oneline", firstLine: 1, session: "t" });
  assert.equal(result.text.split("\n").filter((line) => /^[0-9a-f]{7,} /.test(line)).length, 9, result.text);
});

test("which reducer a git command line gets", () => {
  const expected: Record<string, string | undefined> = {
    "git log": "git-log",
    "git log --stat -5": "git-log",
    "git -C repo log --oneline": "git-log",
    "git show": "git-diff",
    "git show HEAD~5": "git-diff",
    "git show --stat HEAD": "git-diff",
    "git log -p": "git-diff",
    "git log --patch -3 src/": "git-diff",
    "git log -U1": "git-diff",
    "git log --stat -p": "git-diff",
    "git log --name-status": "git-diff",
    "git whatchanged": "git-diff",
    "git diff HEAD~1": "git-diff",
    "git diff --stat": undefined,
  };
  for (const [command, name] of Object.entries(expected)) assert.equal(selectReducer(command, [])?.name, name, command);
});
