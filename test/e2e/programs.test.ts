// Real programs in real panes: a python3 REPL, vim, less, a 100 KB paste, a flood of output.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";

describe("programs", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("python3 REPL via terminal_run: each run returns its own output at the prompt", async () => {
    await h.ok("terminal_open", { name: "py", command: "python3" });
    // Its banner and first prompt first: under load, a run typed before them had the banner
    // (or an empty output at the banner's prompt) as its result. Not a shell: no readiness mark.
    assert.equal((await h.ok("terminal_wait", { session: "py", pattern: "^>>> $", timeout_s: 30 })).matched, true);
    const r = await h.ok("terminal_run", { session: "py", command: "1+1" });
    assert.equal(r.output, "2");
    assert.equal(r.reason, "nested-prompt");
    assert.equal(r.complete, true);
    const loop = await h.ok("terminal_run", { session: "py", command: "for i in range(3): print(i * 10)\n" });
    assert.match(loop.output, /0\n10\n20/);
    const err = await h.ok("terminal_run", { session: "py", command: "1/0" });
    assert.match(err.output, /ZeroDivisionError/);
  });

  test("a REPL started from the shell is reached by later runs", async () => {
    await h.ok("terminal_open", { name: "sh-py", command: "bash" });
    const start = await h.ok("terminal_run", { session: "sh-py", command: "python3 -q" });
    assert.equal(start.reason, "nested-prompt");
    assert.equal(start.running, true);
    const r = await h.ok("terminal_run", { session: "sh-py", command: "print('from-repl')" });
    assert.equal(r.output, "from-repl");
    const out = await h.ok("terminal_run", { session: "sh-py", command: "exit()" });
    assert.equal(out.complete, true);
    // Usually the shell's own end marker (osc133, exit 0); under load its prompt can be seen first.
    assert.ok(["osc133", "nested-prompt"].includes(out.reason), out.reason);
    const back = await h.ok("terminal_run", { session: "sh-py", command: "echo back-in-shell" });
    assert.equal(back.reason, "osc133");
    assert.equal(back.output, "back-in-shell");
  });

  test("vim: open, type, :wq, the file has the text", async () => {
    const file = join(h.home, "note.txt");
    await h.ok("terminal_open", { name: "ed", command: "bash" });
    await h.ok("terminal_send", { session: "ed", text: `vim -u NONE -N ${file}` });
    const screen = await waitScreen(h, "ed", (r) => r.tui === true);
    assert.equal(screen.tui, true);
    await h.ok("terminal_send", { session: "ed", text: "i", enter: false });
    await h.ok("terminal_send", { session: "ed", text: "hello from termhive", enter: false });
    await h.ok("terminal_send", { session: "ed", keys: ["Escape"] });
    await h.ok("terminal_send", { session: "ed", text: ":wq" });
    const done = await h.ok("terminal_wait", { session: "ed", for: "completion", timeout_s: 10 });
    assert.equal(done.exit_code, 0);
    assert.equal(readFileSync(file, "utf8"), "hello from termhive\n");
    const back = await h.ok("terminal_read", { session: "ed", mode: "auto" });
    assert.equal(back.tui, false);
  });

  test("less: screen mode shows the page, PageDown moves, q quits", async () => {
    await h.ok("terminal_open", { name: "pager", command: "bash", rows: 20, cols: 80 });
    await h.ok("terminal_send", { session: "pager", text: "seq 1 1000 | less" });
    const first = await waitScreen(h, "pager", (r) => r.tui && /^1$/m.test(r.output));
    assert.match(first.output, /^19$/m);
    assert.doesNotMatch(first.output, /^40$/m);
    await h.ok("terminal_send", { session: "pager", keys: ["PageDown"] });
    const second = await waitScreen(h, "pager", (r) => /^30$/m.test(r.output));
    assert.doesNotMatch(second.output, /^1$/m);
    const diff = await h.ok("terminal_read", { session: "pager", mode: "diff" });
    assert.match(diff.note, /not changed/);
    await h.ok("terminal_send", { session: "pager", text: "q", enter: false });
    const done = await h.ok("terminal_wait", { session: "pager", for: "completion", timeout_s: 10 });
    assert.equal(done.exit_code, 0);
  });

  test("a 100 KB paste arrives byte-exact", async () => {
    const file = join(h.home, "paste.txt");
    const lines: string[] = [];
    for (let i = 0; lines.join("\n").length < 100 * 1024; i++) lines.push(`${String(i).padStart(6, "0")} ${"abcdefghijklmnopqrstuvwxyz0123456789".repeat(2)} é✓`);
    const text = lines.join("\n") + "\n";
    await h.ok("terminal_open", { name: "paste", command: "bash" });
    const run = await h.ok("terminal_run", { session: "paste", command: `stty -echo; cat > ${file}`, timeout_s: 0.3 });
    assert.equal(run.complete, false);
    const sent = await h.ok("terminal_send", { session: "paste", text, enter: false });
    assert.ok(sent.sent_bytes >= Buffer.byteLength(text));
    await h.ok("terminal_send", { session: "paste", keys: ["C-d"] });
    const done = await h.ok("terminal_wait", { session: "paste", for: "completion", timeout_s: 30 });
    assert.equal(done.exit_code, 0);
    const got = readFileSync(file);
    assert.equal(got.length, Buffer.byteLength(text));
    assert.equal(createHash("sha256").update(got).digest("hex"), createHash("sha256").update(text).digest("hex"));
  });

  test("seq 1 200000 completes, folded, with its first and last lines", async () => {
    await h.ok("terminal_open", { name: "flood", command: "bash" });
    const r = await h.ok("terminal_run", { session: "flood", command: "seq 1 200000", timeout_s: 60 });
    assert.equal(r.reason, "osc133");
    assert.equal(r.exit_code, 0);
    assert.match(r.output, /^1$/m);
    assert.match(r.output, /^200000$/m);
    assert.ok(r.tokens < 600, `tokens ${r.tokens}`);
    assert.ok(r.raw_tokens > 100_000);
    // The fold marker names a terminal_read call that returns the hidden lines.
    const call = /terminal_read (\{[^}]*"mode":"lines"[^}]*\})/.exec(r.output);
    assert.ok(call, r.output);
    const args = JSON.parse(call[1]!);
    const hidden = await h.ok("terminal_read", { ...args, to_line: args.from_line + 4 });
    assert.equal(hidden.output.split("\n").length, 5);
    assert.match(hidden.output, /^\d+$/m);
  });

  test("invalid UTF-8 and binary output never crash a read", async () => {
    await h.ok("terminal_open", { name: "bin", command: "bash" });
    const r = await h.ok("terminal_run", { session: "bin", command: "printf 'ok\\xff\\xfe\\x00\\x01\\xc3 done\\n'; head -c 3000 /dev/urandom | tr -d '\\033'; echo; echo end" });
    assert.equal(r.exit_code, 0);
    assert.match(r.output, /ok.*done/);
    assert.match(r.output, /end$/);
    const read = await h.ok("terminal_read", { session: "bin", mode: "all" });
    assert.match(read.output, /end/);
  });

  test("the asciinema recording holds the session's output", async (t) => {
    await h.ok("terminal_open", { name: "rec", command: "bash" });
    await h.ok("terminal_run", { session: "rec", command: "echo recorded-$((40+2))" });
    const list = await h.ok("terminal_list");
    const id = list.sessions.find((s: { name: string }) => s.name === "rec").session;
    const lines = readFileSync(join(h.home, "sessions", id, "output.cast"), "utf8").trim().split("\n");
    const header = JSON.parse(lines[0]!);
    assert.equal(header.version, 2);
    assert.equal(header.width, 120);
    const events = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    assert.ok(events.every(([t, kind]) => typeof t === "number" && (kind === "o" || kind === "r")));
    assert.match(events.map((e) => e[2]).join(""), /recorded-42/);
    // asciinema itself plays it (it needs a terminal: script(1) gives it one). It is optional:
    // without it the file's format was still checked above, and the skip says what was not.
    if (!hasProgram("asciinema")) {
      t.skip("asciinema is not installed (apt-get install asciinema): the .cast file was checked, playing it back was not");
      return;
    }
    const cast = join(h.home, "sessions", id, "output.cast");
    const played = spawnSync("script", ["-qec", `asciinema play -i 0.01 -s 50 ${cast}`, "/dev/null"], { encoding: "utf8", timeout: 30_000 });
    assert.equal(played.status, 0, played.stderr);
    assert.match(played.stdout, /recorded-42/);
  });
});

async function waitScreen(h: Harness, session: string, ok: (r: Record<string, any>) => boolean): Promise<Record<string, any>> {
  // Each terminal_wait returns once the output settles; the screen is then read and checked.
  for (let i = 0; i < 50; i++) {
    const screen = await h.ok("terminal_read", { session, mode: "screen" });
    if (ok(screen)) return screen;
    await h.ok("terminal_wait", { session, for: "idle", idle_ms: 50, timeout_s: 2 });
  }
  throw new Error(`screen of ${session} never matched`);
}

function hasProgram(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).status === 0;
}
