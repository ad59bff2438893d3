// Reducers on output captured from real tools run here in a pty (see test/fixtures/output/generate.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanLines } from "../../../src/output/clean.js";
import { renderOutput } from "../../../src/output/index.js";
import * as g from "../../fixtures/output/generate.js";

/** `lastLine: false`: the reducer's summary of the last block stands for the last line (git log's commit line). */
function check(generated: g.Generated, reducer: string, also: string[] = [], { lastLine = true } = {}): string {
  for (const command of [generated.command, undefined]) {
    const result = renderOutput(generated.output, { command, firstLine: 1, session: "t" });
    assert.equal(result.reducer, reducer, `reducer for ${command ?? "shape"}`);
    for (const fact of [...generated.facts, ...also]) assert.ok(result.text.includes(fact), `missing ${JSON.stringify(fact)} in:\n${result.text}`);
    const cleaned = cleanLines(generated.output);
    if (lastLine) assert.ok(result.text.includes(cleaned[cleaned.length - 1]!.text), "last line kept");
    assert.ok(result.tokens < result.raw_tokens / 2, `${result.tokens} vs raw ${result.raw_tokens}`);
  }
  return renderOutput(generated.output, { command: generated.command, firstLine: 1, session: "t" }).text;
}

test("pytest: six kinds of failure in ≤ 450 tokens, each with its name, first E line and file:line", { skip: !g.pythonHasPytest() && "python3 -m pytest unavailable" }, () => {
  const suite = g.pytestSuite(40);
  for (const command of [suite.command, undefined]) {
    const result = renderOutput(suite.output, { command, firstLine: 1, session: "t" });
    assert.equal(result.reducer, "pytest", `reducer for ${command ?? "shape"}`);
    assert.ok(result.tokens <= 450, `${result.tokens} tokens (raw ${result.raw_tokens}):\n${result.text}`);
    const lines = result.text.split("\n");
    for (const failure of suite.failures) {
      // The E line and location must sit under this failure's own header, not just anywhere.
      const header = lines.findIndex((line) => line.includes(` ${failure.name} `) && /^_/.test(line));
      assert.ok(header >= 0, `no header for ${failure.name}:\n${result.text}`);
      const next = lines.findIndex((line, i) => i > header && /^(?:_|=)/.test(line));
      const block = lines.slice(header + 1, next < 0 ? undefined : next);
      assert.ok(block.some((line) => /^E\s/.test(line) && line.includes(failure.firstE)), `first E line of ${failure.name} (${failure.firstE}):\n${block.join("\n")}`);
      assert.ok(block.some((line) => line === failure.location || line.startsWith(`${failure.location}: `)), `${failure.location} for ${failure.name}`);
    }
    // Each failing test is named once, in its block's header (the short summary said it again).
    for (const id of ["test_compute_equal", "test_parse_raises", "test_helper_check", "test_double[3-7]", "test_report_long_diff", "test_uses_database"]) {
      assert.equal(lines.filter((line) => line.includes(id)).length, 1, `${id} named once`);
    }
    assert.match(result.text, /^== 5 failed, 34 passed, 1 error in [\d.]+s ==$/m);
    assert.ok(!/={10}|_{10}/.test(result.text), "rules cut to their words");
    assert.ok(!result.text.includes("test session starts") && !result.text.includes("def test_"), "header and source listings dropped");
  }
});

test("pytest -v: a failing test is named once (its failure header), not again by its progress or summary line", { skip: !g.pythonHasPytest() && "python3 -m pytest unavailable" }, () => {
  const suite = g.pytestSuite(40, "-v");
  assert.match(suite.output, /test_compute_equal\S* \S*FAILED/, "pytest -v printed progress lines");
  const result = renderOutput(suite.output, { command: suite.command, firstLine: 1, session: "t" });
  assert.ok(result.tokens <= 450, `${result.tokens} tokens:\n${result.text}`);
  for (const id of ["test_compute_equal", "test_parse_raises", "test_helper_check", "test_double[3-7]", "test_report_long_diff", "test_uses_database"]) {
    const mentions = result.text.split("\n").filter((line) => line.includes(id));
    assert.equal(mentions.length, 1, `${id}: ${mentions.join(" | ")}`);
    assert.match(mentions[0]!, /^_+ /);
  }
});

test("git log --stat: every subject, one line per commit", () => {
  const repo = g.gitLogRepo(30);
  const text = check(repo, "git-log", [], { lastLine: false });
  assert.equal(text.split("\n").filter((line) => /^[0-9a-f]{8}\b/.test(line)).length, 30);
  // The last commit's stat total is on its line, not again after it.
  assert.match(text.split("\n").at(-2)!, /^[0-9a-f]{8}\b.*\(\d+ files \+\d+ -\d+\) · /, text.slice(-500));
  assert.ok(!text.includes(" | "), "per-file stat lines dropped");
});

test("git status and git diff", () => {
  const tree = g.gitWorkTree();
  const status = renderOutput(tree.status, { command: "git status", firstLine: 1, session: "t" });
  for (const fact of ["notes.md", "src/module1/file0.ts", "src/module2/file0.ts", "scratch/", "Untracked files:"]) assert.ok(status.text.includes(fact), fact);
  assert.ok(!status.text.includes('(use "git'));
  const diff = renderOutput(tree.diff, { command: "git diff", firstLine: 1, session: "t" });
  assert.equal(diff.reducer, "git-diff");
  assert.match(diff.text, /src\/module2\/file0\.ts \| \+\d+ -\d+/);
  assert.match(diff.text, /more diff lines of src\/module2\/file0\.ts: terminal_read/);
});

test("tsc: every error location and the Found line", () => {
  const text = check(g.tscProject(), "tsc");
  assert.ok(!/~~~/.test(text));
});

test("node --test: every failing test, counters on one line", () => {
  const text = check(g.nodeTestSuite(), "node-test", ["junk accepted"]);
  assert.ok(!text.includes("✔ adds numbers"));
});

test("make + gcc: every error with file:line:col and make's Error lines", () => {
  const text = check(g.makeProject(), "compiler");
  assert.ok(!/^\s+\d+ \|/m.test(text), "source excerpts dropped");
});

test("cargo test: failing tests, panic locations, result line", { skip: !g.hasTool("cargo") && "cargo unavailable" }, () => {
  const text = check(g.cargoTestCrate(), "cargo");
  assert.ok(!text.includes("rust_begin_unwind"), "backtrace frames dropped");
});

test("cargo build: every error location", { skip: !g.hasTool("cargo") && "cargo unavailable" }, () => {
  check(g.cargoBuildCrate(), "cargo");
});

test("grep -rn: grouped by file with counts", () => {
  const text = check(g.grepTree(), "grep");
  assert.match(text, /^src\/part0\/code0\.ts \(30\)$/m);
});

test("ls -laR: names and sizes, directory headings kept", () => {
  const listing = g.lsTree(3, 4);
  const result = renderOutput(listing.output, { command: listing.command, firstLine: 1, session: "t" });
  assert.equal(result.reducer, "ls-long");
  assert.match(result.text, /^\.\/pkg0\/lib:$/m);
  assert.match(result.text, /^file_0_1\.js \d/m);
  assert.ok(!/rw-r--r--/.test(result.text), "permissions dropped everywhere");
  // The last entry is kept once, in its short form: not repeated raw below it.
  assert.equal(result.text.split("\n").filter((line) => line.includes("file_2_3.js")).length, 1, result.text);
  assert.match(result.text, /^file_2_3\.js \d+\n\[ls-long reducer/m);
});

test("pip install failure: the error and its cause survive", () => {
  const generated = g.pipInstallBroken();
  const result = renderOutput(generated.output, { command: generated.command, firstLine: 1, session: "t" });
  for (const fact of generated.facts) assert.ok(result.text.includes(fact), fact);
});

test("npm install from the offline cache: the added line survives", (t) => {
  const generated = g.npmInstallOffline();
  if (!generated) return t.skip("packages not in the local npm cache");
  const result = renderOutput(generated.output, { command: generated.command, firstLine: 1, session: "t" });
  for (const fact of generated.facts) assert.ok(result.text.includes(fact), fact);
  assert.ok(!/[⠁-⣿]/.test(result.text), "spinner frames gone");
});
