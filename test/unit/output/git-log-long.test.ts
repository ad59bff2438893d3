// A long git log with long subjects, folded to the budget: the reducer's closing line keeps the
// whole call that fetches the log (a cut call fetches nothing), and a subject is cut at its end,
// not in the middle of the line where the subject is; the hash and subject come first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderOutput } from "../../../src/output/index.js";
import { cutOverlong } from "../../../src/output/overlong.js";

function longLog(commits: number): string {
  const blocks: string[] = [];
  for (let i = commits; i > 0; i--) {
    const hash = (i * 2654435761).toString(16).padStart(8, "0").repeat(5).slice(0, 40);
    const subject = `Change number ${i}: ${"a subject that goes on and explains why at length ".repeat(5)}end ${i}`;
    blocks.push(`commit ${hash}\nAuthor: Seed fa381102 maintainers <maintainers@example.com>\nDate:   Sun Nov 29 04:00:49 2026 +0000\n\n    ${subject}\n\n    A body line.\n`);
  }
  return blocks.join("\n");
}

test("git log of 781 commits with long subjects: the closing call is whole, subjects are cut at their end", () => {
  const text = longLog(781);
  const result = renderOutput(text, { command: "git log", firstLine: 9964, session: "dev" });
  assert.equal(result.reducer, "git-log");
  const lines = result.text.split("\n");
  const closing = lines.at(-1)!;
  const call = /^\[git-log reducer, \d+ of \d+ lines; all: terminal_read (\{.*\})\]$/.exec(closing);
  assert.ok(call, closing);
  const args = JSON.parse(call[1]!) as { from_line: number; to_line: number };
  assert.equal(args.from_line, 9964);
  assert.equal(args.to_line, 9964 + text.replace(/\n$/, "").split("\n").length - 1);
  const commits = lines.filter((line) => /^[0-9a-f]{8} Change number /.test(line));
  assert.ok(commits.length >= 10, result.text);
  for (const line of commits) {
    assert.doesNotMatch(line, /chars cut/, line);
    assert.match(line, /^[0-9a-f]{8} Change number \d+: a subject that goes on .*[^ ]… · 2026-11-29 Seed/, line);
    assert.ok(line.length <= 120, line);
  }
  assert.ok(result.tokens <= 2000, String(result.tokens));
});

test("a line cut to its width keeps a terminal_read call that ends it whole", () => {
  const call = 'terminal_read {"session":"dev","mode":"lines","from_line":9964,"to_line":14821}';
  const cut = cutOverlong(`[git-log reducer, 782 of 4858 lines; all: ${call}]`, 100);
  assert.ok(cut.endsWith(`${call}]`), cut);
  assert.ok(cut.startsWith("[git-log reducer, 782 of 4858 lines"), cut);
  // Other long lines are still cut in the middle, and a huge one is not scanned for a call.
  assert.match(cutOverlong("x".repeat(500) + call + "y", 100), /^x+ …\[\d+ chars cut\]… .*y$/);
  assert.equal(cutOverlong("z".repeat(10_000_000), 400).length < 450, true);
});

/** Subjects of varied words and lengths (60 to 300 characters), as a real log's are: a line costs more tokens than a repeated phrase. */
function variedLog(commits: number): string {
  const words = "terminal wait pattern prompt echo session tmux pane reducer fold budget subject commit hash author sandbox relay agent hive message queue restore adoption screen alternate less vim completion exit code shell bash zsh fish readline cursor transcript offset marker token line output input typed gate refused paste bytes".split(" ");
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const blocks: string[] = [];
  for (let i = commits; i > 0; i--) {
    const hash = (i * 2654435761).toString(16).padStart(8, "0").repeat(5).slice(0, 40);
    const subject: string[] = [];
    const length = 60 + (next() % 240);
    while (subject.join(" ").length < length) subject.push(words[next() % words.length]! + (next() % 5 === 0 ? `-${next() % 100}` : ""));
    blocks.push(`commit ${hash}\nAuthor: Seed fa381102 maintainers <maintainers@example.com>\nDate:   Wed Dec 2 04:00:49 2026 +0000\n\n    Step ${i}: ${subject.join(" ")}\n`);
  }
  return blocks.join("\n");
}

test("a folded log keeps each commit's hash and subject first, its ref list last, and fills most of the budget (trial 15)", () => {
  // As git prints it to a terminal: the newest commit carries its refs.
  const text = variedLog(973).replace(/^(commit [0-9a-f]{40})/, "$1 (HEAD -> main, origin/main, origin/HEAD, tag: v0.1.0-rc.2-with-a-long-name)");
  const result = renderOutput(text, { command: "git log", firstLine: 1, session: "dev" });
  assert.equal(result.reducer, "git-log");
  const lines = result.text.split("\n");
  assert.match(lines[0]!, /^[0-9a-f]{8} Step 973: \w.* · 2026-12-02/, lines[0]);
  const commits = lines.filter((line) => /^[0-9a-f]{8} /.test(line));
  for (const line of commits) {
    assert.doesNotMatch(line, /chars cut/, line);
    assert.match(line, /^[0-9a-f]{8} Step \d+: \w/, line);
    assert.ok(line.length <= 120, line);
  }
  // Halving what was kept each time it was over budget came back in about half of it (1038 tokens here).
  assert.ok(result.tokens > 1500 && result.tokens <= 2000, `${result.tokens} tokens:\n${result.text}`);
});

test("a commit line cut to the fold's width loses its end, not its subject", () => {
  const line = "447599a6 A REPL gets 5 s instead of 2 s to draw its prompt again after the Ctrl-C · 2026-12-02 Seed fa381102 maintainers (HEAD -> main)";
  const cut = cutOverlong(line, 60, "end");
  assert.equal(cut, "447599a6 A REPL gets 5 s instead of 2 s to draw its prompt…");
  assert.match(cutOverlong(line, 60), /chars cut/);
});
