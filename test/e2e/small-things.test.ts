// Issue 21 §6: smaller things users hit, each as a real client meets it (bare environment,
// another working directory, the built server over MCP).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliIn } from "./cli-field.js";
import { Harness } from "./harness.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("smaller things users hit (issue 21 §6)", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    await h.ok("terminal_open", { name: "s" });
  });
  after(async () => h?.destroy());

  test('keys: ["q"] — the error says to send it as text, and nothing is sent', async () => {
    const r = await h.call("terminal_send", { session: "s", keys: ["q"] });
    assert.equal(r.isError, true);
    assert.match(r.text, /unknown key "q"/);
    assert.match(r.text, /to type "q", send it as text: \{"text": "q", "enter": false\}/);
    // A key-like name that is no key gets the list of keys only.
    const other = await h.call("terminal_send", { session: "s", keys: ["Hyper-X"] });
    assert.doesNotMatch(other.text, /send it as text/);
    const run = await h.ok("terminal_run", { session: "s", command: "echo clean-$((1+1))" });
    assert.equal(run.output, "clean-2", "nothing was typed by the refused calls");
  });

  test("a run right after keys [C-c] at the prompt keeps its first character (readline drops the key it reads as the SIGINT comes)", async () => {
    // The run saw the line's text (the C-c not yet taken), pressed a second C-c, took the first
    // one's prompt for its own and typed into the second SIGINT: "cho" for "echo", ~1 in 15 here.
    for (let i = 0; i < 60; i++) {
      await h.ok("terminal_send", { session: "s", text: "half typed", enter: false });
      await h.ok("terminal_send", { session: "s", keys: ["C-c"] });
      const run = await h.ok("terminal_run", { session: "s", command: `echo kept-${i}` });
      assert.equal(run.output, `kept-${i}`, JSON.stringify(run));
    }
  });

  test("a full-screen program on the normal screen (top) returns when its screen settles, as fullscreen runs do; clear then output does not", async () => {
    const top = await h.ok("terminal_run", { session: "s", command: "top -d 1", timeout_s: 20 });
    assert.equal(top.reason, "fullscreen", JSON.stringify(top).slice(0, 300));
    assert.equal(top.running, true);
    assert.match(top.output, /^top - /m);
    await h.ok("terminal_send", { session: "s", text: "q", enter: false });
    assert.equal((await h.ok("terminal_wait", { session: "s", for: "completion", timeout_s: 15 })).matched, true);
    const cleared = await h.ok("terminal_run", { session: "s", command: "clear; sleep 1.5; echo after-clear" });
    assert.equal(cleared.reason, "osc133");
    assert.equal(cleared.output, "after-clear");
  });
  test("fold markers of a screen read name the rows they hide and a screen read that shows them, never a line range of older output", async () => {
    const file = join(h.home, "numbered.txt");
    writeFileSync(file, Array.from({ length: 200 }, (_, i) => `line-${String(i + 1).padStart(3, "0")} of the numbered file`).join("\n") + "\n");
    const less = await h.ok("terminal_run", { session: "s", command: `less ${file}`, timeout_s: 20 });
    assert.equal(less.reason, "fullscreen", JSON.stringify(less).slice(0, 300));
    const small = await h.ok("terminal_read", { session: "s", mode: "screen", max_tokens: 60 });
    const marker = /… (\d+) lines hidden \(screen rows (\d+)–(\d+)\): terminal_read (\{.*\})/.exec(small.output);
    assert.ok(marker, small.output);
    const call = JSON.parse(marker[4]!) as Record<string, unknown>;
    assert.equal(call.mode, "screen");
    const [from, to] = [Number(marker[2]), Number(marker[3])];
    assert.equal(Number(marker[1]), to - from + 1);
    // Following the marker shows exactly those rows of the screen (less shows line n on row n).
    const shown = await h.ok("terminal_read", call);
    assert.doesNotMatch(shown.output, /lines hidden/);
    for (const row of [from, to]) assert.match(shown.output, new RegExp(`^line-${String(row).padStart(3, "0")} `, "m"), shown.output);
    await h.ok("terminal_send", { session: "s", text: "q", enter: false });
    assert.equal((await h.ok("terminal_wait", { session: "s", for: "completion", timeout_s: 15 })).matched, true);
  });
});

describe("termhive dashboard's background serve can be stopped (issue 21 §6)", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
    await h.ok("terminal_open", { name: "kept" });
  });
  const started: number[] = [];
  after(async () => {
    for (const pid of started.filter(alive)) process.kill(pid, "SIGTERM"); // a failed stop leaves nothing running
    await h?.destroy();
  });

  const startDashboard = () => {
    const r = cliIn(h, {}, ["dashboard", "--no-open", "--port", "0"]);
    assert.equal(r.status, 0, r.stderr);
    const pid = Number(/Started termhive serve \(pid (\d+)/.exec(r.stdout)?.[1]);
    assert.ok(pid > 0 && alive(pid), r.stdout);
    started.push(pid);
    return pid;
  };

  test("termhive serve --stop ends it (and says so); with none running it says that", () => {
    const pid = startDashboard();
    const stop = cliIn(h, {}, ["serve", "--stop"]);
    assert.equal(stop.status, 0, stop.stderr);
    assert.match(stop.stdout, new RegExp(`^stopped termhive serve \\(pid ${pid}, port \\d+\\)\n$`));
    assert.equal(alive(pid), false);
    assert.equal(existsSync(join(h.home, "serve.json")), false, "its record is gone");
    const again = cliIn(h, {}, ["serve", "--stop"]);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /^no termhive serve is running for /);
  });

  test("termhive reset stops it too", () => {
    const pid = startDashboard();
    const reset = cliIn(h, {}, ["reset", "--yes"]);
    assert.equal(reset.status, 0, reset.stderr);
    assert.match(reset.stdout, new RegExp(`stopped the tmux server of .*; stopped termhive serve \\(pid ${pid}`));
    assert.equal(alive(pid), false);
  });
});
