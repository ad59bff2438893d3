// A file read through a tmux paste buffer (a remote host's shell status file, which a sandboxed
// pane there can write): never more than the bound loaded, never a link followed or a FIFO
// waited on, a file over the bound emptied on the disk. Against a real tmux server.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readViaBuffer } from "../../../src/backends/tmux/buffers.js";
import { endTmuxServer } from "../../tmux-server.js";
import { tempFolder } from "../../temp-folder.js";

describe("readViaBuffer", () => {
  const dir = tempFolder("termhive-buffers-");
  const socket = join(dir, "tmux.sock");
  // Each command through its own client, in order (a control client keeps that order too).
  const tmux = async (command: string): Promise<string[]> => {
    const r = spawnSync("tmux", ["-S", socket, "source-file", "-"], { input: command + "\n", encoding: "utf8", timeout: 20_000 });
    if (r.status !== 0) throw new Error(r.stderr || r.stdout);
    return r.stdout.replace(/\n$/, "").split("\n");
  };
  before(() => {
    assert.equal(spawnSync("tmux", ["-S", socket, "-f", "/dev/null", "new-session", "-d"]).status, 0);
  });
  after(() => endTmuxServer(socket));

  test("a status line is read; a file over the bound is not, and is emptied on the disk", async () => {
    const line = join(dir, "status.a");
    writeFileSync(line, "123 4 0\n");
    assert.equal((await readViaBuffer(tmux, line, 256)).trim(), "123 4 0");
    const big = join(dir, "status.b");
    writeFileSync(big, "9 9 0" + " ".repeat(5_000_000));
    assert.equal(await readViaBuffer(tmux, big, 256), "");
    assert.equal(statSync(big).size, 0);
    // Just past the bound: still no line.
    writeFileSync(big, "x".repeat(257));
    assert.equal(await readViaBuffer(tmux, big, 256), "");
  });

  test("a link is not followed (its target kept whole), a FIFO not waited on, a missing file is empty", async () => {
    const target = join(dir, "victim");
    writeFileSync(target, "x".repeat(1000));
    const link = join(dir, "status.link");
    symlinkSync(target, link);
    assert.equal(await readViaBuffer(tmux, link, 256), "");
    assert.equal(readFileSync(target, "utf8").length, 1000);
    const fifo = join(dir, "status.fifo");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    assert.equal(await readViaBuffer(tmux, fifo, 256), "");
    assert.equal(await readViaBuffer(tmux, join(dir, "missing"), 256), "");
  });
});
