// Load and lifecycle hardening: what is left behind when termhive is killed, waits on a tmux
// server that is gone, and a flood of output in one session.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../../src/output/index.js";
import { Harness } from "./harness.js";

/** Pids of processes whose command line names this socket, the tmux server itself excepted. */
function clientsOf(socketPath: string, serverPid: number): { pid: number; args: string }[] {
  const found: { pid: number; args: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === serverPid) continue;
    let args: string;
    try {
      args = readFileSync(join("/proc", entry, "cmdline"), "utf8").split("\0").join(" ");
    } catch {
      continue; // exited while we looked
    }
    if (args.includes(socketPath)) found.push({ pid: Number(entry), args });
  }
  return found;
}

async function until<T>(probe: () => T, done: (value: T) => boolean, limitMs: number): Promise<T> {
  const end = Date.now() + limitMs;
  let value = probe();
  while (!done(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = probe();
  }
  return value;
}

describe("kill -9 of termhive", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("its tmux control client dies with it, also while a pane floods output, and the next server works", async () => {
    await h.ok("terminal_open", { name: "flood", command: "bash" });
    // A pane that never stops printing: tmux will not end a control client while output is
    // still owed to it, so stdin EOF alone left the client running for ever.
    await h.ok("terminal_send", { session: "flood", text: "yes", enter: true });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const socket = join(h.home, "tmux.sock");
    const serverPid = Number(h.tmux("display-message", "-p", "#{pid}").stdout.trim());
    assert.ok(serverPid > 0);
    assert.ok(clientsOf(socket, serverPid).length > 0, "the control client is running before the kill");

    process.kill(h.pid, "SIGKILL");
    // Bounded so a regression fails here instead of hanging; the figure is not asserted.
    const left = await until(() => clientsOf(socket, serverPid), (l) => l.length === 0, 10_000);
    assert.deepEqual(left, [], "processes still attached to the socket after the server was killed");

    await h.connect();
    await h.ok("terminal_send", { session: "flood", keys: ["C-c"] });
    const r = await h.ok("terminal_run", { session: "flood", command: "echo alive-again" });
    assert.equal(r.output, "alive-again");
  });
});

describe("tmux server gone", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("hive_wait on its targets answers at once with an error naming the cause, not after the timeout", async () => {
    await h.ok("terminal_open", { name: "w1", command: "bash" });
    await h.ok("terminal_open", { name: "w2", command: "bash" });
    // Waits already blocked when the server goes: before, they sat out their 30 s and then
    // reported a plain timeout (the test's own limit is shorter than no answer would need).
    const waits = [
      { targets: "w1", for: "pattern", pattern: "never-printed", timeout_s: 30 },
      { targets: ["w1", "w2"], for: "waiting_for_input", mode: "any", timeout_s: 30 },
      { targets: ["w1", "w2"], for: "pattern", pattern: "never-printed", mode: "all", timeout_s: 30 },
    ].map((args) => ({ args, result: h.call("hive_wait", args) }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    h.tmux("kill-server");
    for (const { args, result } of waits) {
      const r = await Promise.race([result, new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000))]);
      assert.ok(r, `${JSON.stringify(args)}: no answer 20 s after the tmux server was killed`);
      assert.equal(r.isError, true, `${JSON.stringify(args)}: ${r.text}`);
      assert.match(r.text, /tmux server went away/, r.text);
    }
    // A wait started after the server went: the targets are unknown at once.
    const late = await h.call("hive_wait", { targets: "w1", for: "pattern", pattern: "x", timeout_s: 30 });
    assert.equal(late.isError, true, late.text);
    // The next call reconnects: a fresh tmux server, and waits work again on new sessions.
    await h.ok("terminal_open", { name: "w3", command: "bash" });
    await h.ok("terminal_send", { session: "w3", text: "echo here-it-is", enter: true });
    const ok = await h.ok("hive_wait", { targets: "w3", for: "pattern", pattern: "here-it-is", timeout_s: 10 });
    assert.equal(ok.matched, true, JSON.stringify(ok));
  });
});

describe("a flood of output", () => {
  let h: Harness;
  before(async () => {
    // A small transcript cap so a quick flood overflows it (the default is 16M characters).
    h = await Harness.start({ TERMHIVE_TRANSCRIPT_MAX_CHARS: "1000000" });
    await h.ok("terminal_open", { name: "flood", command: "bash" });
  });
  after(async () => h.destroy());

  const flood = "echo FIRST-LINE; yes | head -c 5000000; echo LAST-LINE";

  test("bigger than the transcript cap: the result still starts with the first line and ends with the last", async () => {
    const r = await h.ok("terminal_run", { session: "flood", command: flood, timeout_s: 120 });
    assert.equal(r.exit_code, 0);
    const lines = r.output.split("\n");
    assert.equal(lines[0], "FIRST-LINE", r.output.slice(0, 400));
    assert.equal(lines.at(-1), "LAST-LINE", r.output.slice(-400));
    // What is left out is said, with the call that reads what memory still holds of it.
    // One marker, folded once (issue 24): the head once, the tail once.
    const markers = lines.filter((l: string) => /^… \d+ lines hidden/.test(l));
    assert.equal(markers.length, 1, r.output);
    const marker = markers[0];
    assert.match(marker!, /no longer in memory/);
    const call = JSON.parse(marker!.slice(marker!.indexOf("{")));
    const read = await h.ok("terminal_read", call);
    assert.match(read.output, /^y( ×\d+)?$/m);
    assert.ok(r.tokens < 2500, `tokens ${r.tokens}`);
  });

  test("terminal_wait for completion shows the same head", async () => {
    await h.ok("terminal_send", { session: "flood", text: flood, enter: true });
    const w = await h.ok("terminal_wait", { session: "flood", for: "completion", timeout_s: 120 });
    assert.match(w.output, /^FIRST-LINE\n/, JSON.stringify(w).slice(0, 1000));
    // Then the next prompt, which a wait shows.
    assert.match(w.output, /\nLAST-LINE(\n|$)/, JSON.stringify(w).slice(-1000));
  });
});

describe("a large output within the transcript cap", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
    await h.ok("terminal_open", { name: "big", command: "bash" });
  });
  after(async () => h.destroy());

  test("seq 1 200000 is folded once: ≤ 200 tokens, first and last lines, the head and the tail once, one marker", async () => {
    const r = await h.call("terminal_run", { session: "big", command: "seq 1 200000", timeout_s: 120 });
    const lines = r.text.split("\n");
    assert.equal(lines[0], "1", r.text);
    assert.ok(lines.includes("200000"), r.text);
    assert.equal(lines.filter((l) => /^… \d+ lines hidden/.test(l)).length, 1, r.text);
    const numbers = lines.filter((l) => /^\d+$/.test(l));
    assert.equal(new Set(numbers).size, numbers.length, "no line shown twice");
    // Numbers climb once: one run from 1, then one run to 200000 (two heads made it climb thrice).
    const jumps = numbers.slice(1).filter((n, i) => Number(n) !== Number(numbers[i]) + 1).length;
    assert.equal(jumps, 1, r.text);
    assert.ok(countTokens(r.text) <= 200, `${countTokens(r.text)} tokens:\n${r.text}`);
  });

  test("is rendered as head and tail: first and last line shown, the middle named with the call that reads it", async () => {
    const r = await h.ok("terminal_run", { session: "big", command: "echo FIRST-LINE; seq 1 400000; echo LAST-LINE", timeout_s: 120 });
    const lines = r.output.split("\n");
    assert.equal(lines[0], "FIRST-LINE", r.output.slice(0, 400));
    assert.equal(lines.at(-1), "LAST-LINE", r.output.slice(-400));
    const markers = lines.filter((l: string) => /^… \d+ lines hidden/.test(l));
    assert.equal(markers.length, 1, r.output);
    const marker = markers[0];
    assert.doesNotMatch(marker!, /no longer in memory/);
    // The named lines are exactly the ones left out: the first of them follows the head's last number.
    const call = JSON.parse(marker!.slice(marker!.indexOf("{")));
    const read = await h.ok("terminal_read", { ...call, to_line: call.from_line });
    const headNumbers = lines.slice(0, lines.indexOf(marker!)).filter((l: string) => /^\d+$/.test(l)).map(Number);
    assert.equal(Number(read.output.trim().split("\n").at(-1)), headNumbers.at(-1)! + 1, read.output);
  });
});
