// A run right after a pager or REPL hands control back: the shell's own prompt is the shell's,
// with its exact end and exit code; a REPL's multi-line block runs to its end, with or without
// its closing empty line.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { until } from "../until.js";

describe("runs after a pager quits", () => {
  let h: Harness;
  let file: string;
  before(async () => {
    h = await Harness.startField();
    file = join(h.home, "long.txt");
    writeFileSync(file, Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  });
  after(async () => h.destroy());

  // The run is typed while the pager's command line is still ending (here held a moment by the
  // sleep after it; in the trial, less had not exited yet): the prompt the shell then draws is
  // its own, not a program's.
  test("less quit with q (and its Enter): the next run ends by the shell's mark, with its exit code and without the prompt", async () => {
    await h.ok("terminal_open", { name: "pg", command: "bash", rows: 30, cols: 100 });
    for (const command of [`less '${file}'; sleep 1`, `less '${file}'`]) {
      const paged = await h.ok("terminal_run", { session: "pg", command, timeout_s: 20 });
      assert.equal(paged.reason, "fullscreen", JSON.stringify(paged));
      await h.ok("terminal_send", { session: "pg", text: "q" });
      const next = await h.ok("terminal_run", { session: "pg", command: "ls /nonexistent-after-pager", timeout_s: 20 });
      assert.equal(next.reason, "osc133", `${command}: ${JSON.stringify(next)}`);
      assert.equal(next.exit_code, 2, JSON.stringify(next));
      assert.equal(next.running, false);
      assert.match(next.output, /nonexistent-after-pager/);
      assert.doesNotMatch(next.output, /[#$] *$/, JSON.stringify(next.output));
    }
  });
});

describe("the completion after a full-screen program quits", () => {
  let h: Harness;
  let file: string;
  before(async () => {
    h = await Harness.startField();
    file = join(h.home, "pages.txt");
    writeFileSync(file, Array.from({ length: 400 }, (_, i) => `page-line ${i + 1}`).join("\n") + "\n");
  });
  after(async () => h.destroy());

  // Trial 15: less's every redraw (its first page twice, "...skipping...", the page searched
  // to) came back as the command's output, ~1500 tokens; vim's last screen as one garbled line.
  test("less, a search, q: the output is what the command printed after less quit, not less's screens", async () => {
    await h.ok("terminal_open", { name: "lq", command: "bash", rows: 30, cols: 100 });
    const paged = await h.ok("terminal_run", { session: "lq", command: `less '${file}'; echo AFTER-$((6*7))`, timeout_s: 20 });
    assert.equal(paged.reason, "fullscreen", JSON.stringify(paged));
    await h.ok("terminal_send", { session: "lq", text: "/page-line 200" });
    await until("the searched page", async () => (/^page-line 200$/m.test((await h.ok("terminal_read", { session: "lq", mode: "screen" })).output) ? true : undefined));
    await h.ok("terminal_send", { session: "lq", text: "q", enter: false });
    const done = await h.ok("terminal_wait", { session: "lq", for: "completion", timeout_s: 20 });
    assert.equal(done.exit_code, 0, JSON.stringify(done));
    assert.match(done.output, /^AFTER-42$/m, done.output);
    assert.doesNotMatch(done.output, /page-line|skipping/, done.output);
    assert.ok(done.tokens < 100, done.output);
  });

  test("vim, an edit, :wq: the file is written and the output holds none of vim's screen", async () => {
    const edited = join(h.home, "edited.txt");
    writeFileSync(edited, "one\ntwo\n");
    await h.ok("terminal_open", { name: "vq", command: "bash", rows: 30, cols: 100 });
    const opened = await h.ok("terminal_run", { session: "vq", command: `vim -u NONE -N '${edited}'`, timeout_s: 20 });
    assert.equal(opened.reason, "fullscreen", JSON.stringify(opened));
    await h.ok("terminal_send", { session: "vq", text: "ggOinserted top", enter: false });
    await h.ok("terminal_send", { session: "vq", keys: ["Escape"] });
    await h.ok("terminal_send", { session: "vq", text: ":wq" });
    const done = await h.ok("terminal_wait", { session: "vq", for: "completion", timeout_s: 20 });
    assert.equal(done.exit_code, 0, JSON.stringify(done));
    assert.equal(readFileSync(edited, "utf8"), "inserted top\none\ntwo\n");
    assert.doesNotMatch(done.output, /written|inserted|one|two|:wq/, done.output);
  });
});

describe("a run in which a full-screen program starts and quits", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  // Trial 15: vim's screen (its message line about the file) came back in the run's output.
  test("vim -c q between two echoes: the output is the two echoes and a line naming vim's screens", async () => {
    const file = join(h.home, "quick.txt");
    writeFileSync(file, Array.from({ length: 50 }, (_, i) => `quick-line ${i + 1}`).join("\n") + "\n");
    await h.ok("terminal_open", { name: "vc", command: "bash", rows: 30, cols: 100 });
    const run = await h.ok("terminal_run", { session: "vc", command: `echo BEFORE-$((1+1)); vim -u NONE -N -c 'sleep 200m' -c q '${file}'; echo AFTER-$((2+2))`, timeout_s: 20 });
    assert.equal(run.reason, "osc133", JSON.stringify(run));
    assert.equal(run.exit_code, 0, JSON.stringify(run));
    const lines = run.output.split("\n");
    assert.equal(lines[0], "BEFORE-2", run.output);
    assert.equal(lines.at(-1), "AFTER-4", run.output);
    assert.match(run.output, /^\[a full-screen program's screens, not output: terminal_read \{"session":"vc","mode":"lines",/m, run.output);
    assert.doesNotMatch(run.output, /quick-line|50 lines|bytes/, run.output);
  });
});

describe("a REPL's multi-line block", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  // A slow machine pauses at a continuation prompt between the lines of a block; this REPL
  // pauses after every prompt it draws (readline's pre-input hook), so the first "... " is seen
  // on a quiet screen, as in the trial.
  test("python3: a for block typed by terminal_run runs to its end and returns its output", async () => {
    const startup = join(h.home, "slow-prompt.py");
    writeFileSync(startup, "import readline, time\nreadline.set_pre_input_hook(lambda: time.sleep(0.4))\n");
    await h.ok("terminal_open", { name: "py", command: `python3 -q -i '${startup}'`, rows: 30, cols: 100 });
    // Its first prompt is drawn before the block is typed (typed earlier, the tty would echo it all at once).
    await h.ok("terminal_run", { session: "py", command: "print('ready')", timeout_s: 20 });
    const block = await h.ok("terminal_run", { session: "py", command: "for i in range(3):\n    print('i', i)\n", timeout_s: 20 });
    assert.equal(block.reason, "nested-prompt", JSON.stringify(block));
    assert.equal(block.prompt, "python");
    assert.match(block.output, /i 0\ni 1\ni 2/, JSON.stringify(block));
    const next = await h.ok("terminal_run", { session: "py", command: "print('after', 6 * 7)", timeout_s: 20 });
    assert.equal(next.output, "after 42", JSON.stringify(next));
  });
});

describe("ordinary Python source typed into the REPL", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  // The trial's pasted class: an empty line between its methods ended the class in the REPL
  // (IndentationError, AttributeError, reported as done). Judged by what python printed.
  test("a class with empty lines between its methods, and a top-level line right after a loop, run as a file would", async () => {
    await h.ok("terminal_open", { name: "src", command: "python3 -q", rows: 30, cols: 100 });
    await h.ok("terminal_wait", { session: "src", pattern: ">>> ", timeout_s: 20 });
    const cls = await h.ok("terminal_run", {
      session: "src",
      command: "class Counter:\n    def __init__(self):\n        self.n = 40\n\n    def bump(self):\n        self.n += 2\n        return self.n\n\nprint('bumped', Counter().bump())",
      timeout_s: 20,
    });
    assert.equal(cls.reason, "nested-prompt", JSON.stringify(cls));
    assert.match(cls.output, /^bumped 42$/m, JSON.stringify(cls));
    assert.doesNotMatch(cls.output, /Error/, JSON.stringify(cls));
    assert.match(cls.hint, /1 empty line\(s\) inside indented blocks left out/, JSON.stringify(cls));
    const loop = await h.ok("terminal_run", { session: "src", command: "total = 0\nfor i in range(4):\n    total += i\nprint('total', total)", timeout_s: 20 });
    assert.match(loop.output, /^total 6$/m, JSON.stringify(loop));
    assert.doesNotMatch(loop.output, /SyntaxError/, JSON.stringify(loop));
    const next = await h.ok("terminal_run", { session: "src", command: "print('next')", timeout_s: 20 });
    assert.equal(next.output, "next", JSON.stringify(next));
  });
});

describe("a REPL block typed without its closing empty line", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  // Python reads a compound statement until an empty line: without it the REPL waits at "... "
  // and the next run's text is read as more of the block (a SyntaxError in the trial).
  for (const [label, open] of [
    ["python3 opened as the session's program", { command: "python3 -q" }],
    ["python3 started in a shell", { command: "bash", python: "python3 -q" }],
  ] as const) {
    test(`${label}: a block ending in an indented line runs to its end; an open bracket or a block's first line alone is incomplete and cancelled`, async () => {
      const name = "python" in open ? "shpy" : "py";
      await h.ok("terminal_open", { name, command: open.command, rows: 30, cols: 100 });
      // python3 as the pane's program draws its first prompt after the open returns: a run typed
      // before it is judged by quiet output.
      if (!("python" in open)) await h.ok("terminal_wait", { session: name, pattern: ">>> ", timeout_s: 20 });
      const ready = await h.ok("terminal_run", { session: name, command: "python" in open ? open.python : "print('ready')", timeout_s: 20 });
      assert.equal(ready.reason, "nested-prompt", JSON.stringify(ready));
      const block = await h.ok("terminal_run", { session: name, command: "for i in range(3):\n    print('row', i)", timeout_s: 20 });
      assert.equal(block.reason, "nested-prompt", JSON.stringify(block));
      assert.match(block.output, /row 0\nrow 1\nrow 2/, JSON.stringify(block));
      const next = await h.ok("terminal_run", { session: name, command: "print('next')", timeout_s: 20 });
      assert.equal(next.output, "next", JSON.stringify(next));
      // An empty line does not close a bracket: nothing ran, and the REPL is back at ">>> ".
      const open1 = await h.ok("terminal_run", { session: name, command: "print(1,", timeout_s: 20 });
      assert.equal(open1.reason, "incomplete", JSON.stringify(open1));
      assert.equal(open1.prompt, "python");
      assert.match(open1.hint, /cancelled \(Ctrl-C\)/, JSON.stringify(open1));
      const after1 = await h.ok("terminal_run", { session: name, command: "print('after', 6 * 7)", timeout_s: 20 });
      assert.equal(after1.output, "after 42", JSON.stringify(after1));
      // A block's first line alone (trial 15: `while True:`) is incomplete too: no empty line is
      // typed after it (python then said IndentationError), the line is cancelled, nothing ran.
      const opener = await h.ok("terminal_run", { session: name, command: "while True:", timeout_s: 20 });
      assert.equal(opener.reason, "incomplete", JSON.stringify(opener));
      assert.doesNotMatch(opener.output, /IndentationError/, JSON.stringify(opener));
      assert.match(opener.hint, /a block without its body.*cancelled \(Ctrl-C\)/, JSON.stringify(opener));
      const after2 = await h.ok("terminal_run", { session: name, command: "print('after', 6 * 8)", timeout_s: 20 });
      assert.equal(after2.output, "after 48", JSON.stringify(after2));
    });
  }
});
