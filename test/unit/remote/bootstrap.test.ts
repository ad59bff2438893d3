// The host set-up script, run by a real /bin/sh in a temporary HOME: it writes the shell
// integration byte for byte, keeps the folder private, and reports what termhive needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrapScript, parseFacts } from "../../../src/backends/remote/bootstrap.js";
import { shellAssetDir } from "../../../src/util/paths.js";

function runScript(home: string, path = process.env.PATH ?? "/usr/bin:/bin", tmuxConf = "set -g history-limit 5\n") {
  const r = spawnSync("/bin/sh", [], { input: bootstrapScript(tmuxConf), env: { HOME: home, PATH: path }, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("the set-up writes the integration scripts verbatim into a private folder and reports HOME, tmux and shell", () => {
  const home = mkdtempSync(join(tmpdir(), "termhive-boot-"));
  try {
    const facts = parseFacts("h", runScript(home));
    assert.equal(facts.home, home);
    assert.equal(facts.stateDir, join(home, ".local/state/termhive"));
    assert.match(facts.tmuxPath, /\/tmux$/);
    assert.match(facts.shellDir, /\/shell-[0-9a-f]{12}$/);
    assert.equal(statSync(facts.stateDir).mode & 0o777, 0o700);
    assert.ok(statSync(join(facts.stateDir, "shell")).isDirectory(), "the shells' status files go there");
    assert.equal(readFileSync(join(facts.stateDir, "tmux.conf"), "utf8"), "set -g history-limit 5\n");
    const local = shellAssetDir();
    for (const sub of ["bash", "zsh", "fish", "bin"]) {
      for (const name of readdirSync(join(local, sub))) {
        const want = readFileSync(join(local, sub, name), "utf8");
        const got = readFileSync(join(facts.shellDir, sub, name), "utf8");
        assert.equal(got, want.endsWith("\n") ? want : want + "\n", `${sub}/${name}`);
        if (statSync(join(local, sub, name)).mode & 0o100) assert.ok(statSync(join(facts.shellDir, sub, name)).mode & 0o100, `${sub}/${name} stays executable`);
      }
    }
    // A second run (another termhive, a reconnect) keeps the written copy.
    const before = statSync(join(facts.shellDir, "bash/termhive.bash")).mtimeMs;
    assert.deepEqual(parseFacts("h", runScript(home)), facts);
    assert.equal(statSync(join(facts.shellDir, "bash/termhive.bash")).mtimeMs, before);
    assert.deepEqual(readdirSync(facts.stateDir).sort(), ["shell", facts.shellDir.split("/").pop()!, "tmux.conf"].sort());
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("no tmux on the host's PATH: the install hint names the host", () => {
  const home = mkdtempSync(join(tmpdir(), "termhive-boot-"));
  try {
    // Only the coreutils the script needs, no tmux.
    const bin = join(home, "bin");
    spawnSync("/bin/sh", ["-c", `mkdir -p "${bin}" && for p in mkdir chmod cat rm mv; do ln -s "$(command -v $p)" "${bin}/$p"; done`]);
    const out = runScript(home, bin);
    assert.throws(() => parseFacts("gpu-box", out), /tmux is not installed on host gpu-box.*apt-get install -y tmux/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("a host that printed something else is a clear error", () => {
  assert.throws(() => parseFacts("x", "Welcome!\n"), /host x did not finish termhive's set-up/);
});
