// A folder name is any bytes but "/" and NUL. One pane in a folder whose name holds a newline,
// a tab or an escape sequence must cost nobody else anything: before, a newline stopped every
// listing on the tmux server (terminal_list, other sessions' runs, agent_list, `termhive ls`,
// in every process on the home), a tab hid the pane, and an escape went raw to the reader.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { CLI, Harness } from "./harness.js";
import { testEnv } from "./serve-process.js";

const ls = (home: string) => spawnSync(process.execPath, [CLI, "ls"], { env: testEnv(home), encoding: "utf8", timeout: 60_000 });
const bash = (path: string) => `$'${path.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\x1b/g, "\\e").replace(/\x07/g, "\\a")}'`;

describe("panes in odd folders", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
    await h.ok("terminal_open", { name: "odd", command: "bash" });
    await h.ok("terminal_open", { name: "bystander", command: "bash" });
  });
  after(async () => {
    await h.destroy();
  });

  const cdInto = async (name: string) => {
    const folder = join(h.home, name);
    mkdirSync(folder);
    const r = await h.ok("terminal_run", { session: "odd", command: `cd ${bash(folder)} && echo in`, timeout_s: 20 });
    assert.equal(r.output, "in");
    return folder;
  };
  const listed = async (harness: Harness = h) => {
    const r = await harness.call("terminal_list");
    assert.equal(r.isError, false, r.text);
    return r;
  };

  test("a newline in one pane's folder: every listing and every other session still work, here and in another process", async () => {
    const folder = await cdInto("a\nb");
    const r = await listed();
    assert.deepEqual(r.data.sessions.map((s: { name: string }) => s.name).sort(), ["bystander", "odd"]);
    const line = r.text.split("\n").find((l) => l.startsWith("odd "));
    assert.ok(line?.endsWith(` · ${join(h.home, "a\u240ab")}`), r.text);
    assert.equal((await h.ok("terminal_run", { session: "bystander", command: "echo still" })).output, "still");
    const other = await h.sibling();
    try {
      await listed(other);
      assert.equal((await other.call("agent_list")).isError, false);
    } finally {
      await other.close();
    }
    const cli = ls(h.home);
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /^odd\t.*\tbash\t.*a\u240ab$/m);
    assert.equal(cli.stdout.trim().split("\n").length, 2, cli.stdout);
    // Its real folder is kept: a pane opened there is in it.
    const opened = await h.ok("terminal_open", { name: "there", command: "bash", cwd: folder });
    assert.equal((await h.ok("terminal_run", { session: "there", command: `[ "$PWD" = ${bash(folder)} ] && echo same` })).output, "same");
    await h.ok("terminal_close", { session: opened.session });
  });

  test("a tab in a pane's folder does not hide it from terminal_list nor `termhive ls`", async () => {
    await cdInto("t\tab");
    const r = await listed();
    assert.ok(r.data.sessions.some((s: { name: string }) => s.name === "odd"), r.text);
    assert.match(r.text, /^odd .* · .*t\u2409ab$/m);
    const cli = ls(h.home);
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /^odd\t[^\t]+\t[^\t]+\t[^\t]+\t[^\t]*t\u2409ab$/m);
  });

  test("an escape sequence in a pane's folder reaches the reader as pictures, not as codes", async () => {
    await cdInto("\x1b]0;x\x07");
    const r = await listed();
    assert.doesNotMatch(r.text, /[\x1b\x07]/);
    assert.match(r.text, /\u241b\]0;x\u2407$/m);
    const cli = ls(h.home);
    assert.equal(cli.status, 0, cli.stderr);
    assert.doesNotMatch(cli.stdout, /[\x1b\x07]/);
    assert.match(cli.stdout, /\u241b\]0;x\u2407$/m);
  });

  test("terminal_open with a newline in cwd opens there and breaks no listing", async () => {
    const folder = join(h.home, "nl\necho NLINJ");
    mkdirSync(folder);
    await h.ok("terminal_open", { name: "nlopen", command: "bash", cwd: folder });
    const r = await listed();
    assert.ok(r.data.sessions.some((s: { name: string }) => s.name === "nlopen"), r.text);
    assert.doesNotMatch(r.text, /^echo NLINJ/m);
    assert.equal((await h.ok("terminal_run", { session: "bystander", command: "echo fine" })).output, "fine");
    await h.ok("terminal_close", { session: "nlopen" });
  });
});
