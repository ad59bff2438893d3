// The host pane's `termhive` script (src/shell/cli/termhive) and the server's side of its
// channel (takeAsks / answerAsk, parseAsk) against a real tmux server and a real /bin/sh:
// arguments and answers keep every byte, the exit code comes back, a request is taken once,
// one over the bound is dropped unread.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { answerAsk, sweepLeftovers, takeAsks } from "../../../src/backends/tmux/buffers.js";
import { parseAsk } from "../../../src/serve/host-door.js";
import { shellAssetDir } from "../../../src/util/paths.js";
import { endTmuxServer } from "../../tmux-server.js";
import { tempFolder } from "../../temp-folder.js";
import { until } from "../../until.js";

describe("the host pane's termhive and its channel through tmux", () => {
  const dir = tempFolder("termhive-asks-");
  const socket = join(dir, "tmux.sock");
  const script = join(dir, "shell-test", "cli", "termhive");
  const tmux = async (command: string): Promise<string[]> => {
    const r = spawnSync("tmux", ["-S", socket, "source-file", "-"], { input: command + "\n", encoding: "utf8", timeout: 20_000 });
    if (r.status !== 0) throw new Error(r.stderr || r.stdout);
    return r.stdout.replace(/\n$/, "").split("\n");
  };
  /** Runs the script as pane %7 would; resolves with what it printed and its exit code. */
  const run = (args: string[], stdin = "") =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(script, args, { env: { PATH: process.env.PATH, TMUX_PANE: "%7", TERMHIVE_ASK_WAIT_S: "20" } });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });
  const oneAsk = () => until("the script's request", async () => {
    const { asks } = await takeAsks(tmux, 1024 * 1024);
    return asks[0];
  }, 20_000, 20);

  before(() => {
    mkdirSync(join(dir, "shell-test", "cli"), { recursive: true });
    copyFileSync(join(shellAssetDir(), "cli", "termhive"), script);
    spawnSync("chmod", ["755", script]);
    assert.equal(spawnSync("tmux", ["-S", socket, "-f", "/dev/null", "new-session", "-d"]).status, 0);
  });
  after(() => endTmuxServer(socket));

  test("every byte of the arguments arrives; the answer's stdout, stderr and exit code come back exactly", async () => {
    const args = ["msg", "bob", 'two\nlines $HOME "q" \\ é ✓ \x01 --from x'];
    const ran = run(args);
    const ask = await oneAsk();
    assert.equal(ask.paneId, "%7");
    assert.deepEqual(parseAsk(ask.text!), { args, stdin: null });
    // Taken once: nothing is left for a second taker.
    assert.deepEqual((await takeAsks(tmux, 1024 * 1024)).asks, []);
    const stdout = `out: $HOME "q" \\ é ✓ \x01 ${"x".repeat(70_000)}\nlast line\n`;
    await answerAsk(tmux, ask.name, { code: 3, stdout, stderr: "termhive: said so\n" });
    const done = await ran;
    assert.equal(done.code, 3);
    assert.equal(done.stdout, stdout);
    assert.equal(done.stderr, "termhive: said so\n");
    // The reply buffers are gone with the script.
    assert.doesNotMatch((await tmux("list-buffers -F '#{buffer_name}'")).join("\n"), /termhive-/);
  });

  test("a hook hands its stdin payload and does not wait; a request over the bound is dropped unread", async () => {
    const payload = JSON.stringify({ hook_event_name: "Stop", session_id: "s-1", note: "ünïcode\n" });
    const hooked = await run(["hook", "Stop", "--status", "idle"], payload);
    assert.equal(hooked.code, 0, hooked.stderr);
    const ask = await oneAsk();
    assert.deepEqual(parseAsk(ask.text!), { args: ["hook", "Stop", "--status", "idle"], stdin: payload });

    await tmux(`set-buffer -b termhive-ask-9-1-1 '${"ab".repeat(3000)}'`);
    const { asks } = await takeAsks(tmux, 4096);
    assert.equal(asks.length, 1);
    assert.equal(asks[0]!.text, null);
    assert.equal(asks[0]!.bytes, 6000);
    assert.doesNotMatch((await tmux("list-buffers -F '#{buffer_name}'")).join("\n"), /termhive-/);
  });

  test("requests come back in the order they were left, those of one second too (tmux lists its buffers newest first, their times in whole seconds)", async () => {
    const names = [1, 2, 3, 4, 5].map((i) => `termhive-ask-7-${100 + i}-1`);
    await tmux(names.map((name, i) => `set-buffer -b ${name} 'termhive-ask-v1\n${i}'`).join("\n"));
    const { asks } = await takeAsks(tmux, 4096);
    assert.deepEqual(asks.map((a) => a.name), names);
  });

  test("leftovers of a termhive that died mid-request are swept by their age on the host's clock; requests and other buffers stay", async () => {
    const names = ["termhive-taken-4242-1", "termhive-reply-7-1-1", "termhive-reply-7-1-1-out", "termhive-ask-7-2-2", "a-user-s-buffer"];
    for (const name of names) await tmux(`set-buffer -b ${name} x`);
    const listed = async () => (await tmux("list-buffers -F '#{buffer_name}'")).filter((n) => n !== "").sort();
    // Made just now: younger than the bound, nothing goes.
    assert.equal(await sweepLeftovers(tmux), 0);
    assert.deepEqual(await listed(), [...names].sort());
    // Any age counts as old (-1 s): only the taken and reply buffers go.
    assert.equal(await sweepLeftovers(tmux, -1), 3);
    assert.deepEqual(await listed(), ["a-user-s-buffer", "termhive-ask-7-2-2"]);
    for (const name of ["a-user-s-buffer", "termhive-ask-7-2-2"]) await tmux(`delete-buffer -b ${name}`);
  });

  test("what is not a request of this version is told apart", () => {
    assert.match(parseAsk("termhive-ask-v0\n").toString(), /not a request of this termhive/);
    assert.match(parseAsk("termhive-ask-v1\nzz\n").toString(), /malformed/);
    assert.deepEqual(parseAsk("termhive-ask-v1\n\n"), { args: [""], stdin: null });
  });
});
