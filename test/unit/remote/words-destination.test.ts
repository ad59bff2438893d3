// TERMHIVE_SSH word splitting and the destinations `host` accepts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { joinWords, splitWords } from "../../../src/util/words.js";
import { checkDestination } from "../../../src/backends/remote/destination.js";
import { loadConfig, ConfigError, parseHostList } from "../../../src/config.js";

/** The words /bin/sh makes of a command line. */
function shellWords(line: string): string[] {
  const shell = spawnSync("/bin/sh", ["-c", `set -- ${line}; for w in "$@"; do printf '%s\\0' "$w"; done`], { encoding: "utf8" });
  assert.equal(shell.status, 0, shell.stderr);
  return shell.stdout.split("\0").slice(0, -1);
}

test("TERMHIVE_SSH splits as a POSIX shell would split it", () => {
  const cases = ["ssh", "ssh -F '/tmp/my config'", 'ssh -o "ProxyJump=a b" -q', "ssh -F /x\\ y  -v", `ssh -o 'a"b' "c'd" "e\\"f\\\\g"`, "  ssh   -4  ", "ssh ''"];
  for (const text of cases) assert.deepEqual(splitWords(text), shellWords(text), text);
  assert.throws(() => splitWords("ssh -F 'open"), /unclosed ' quote/);
  assert.throws(() => splitWords("ssh \\"), /lone backslash/);
});

test("joinWords gives a command line /bin/sh reads back word for word", () => {
  const words = ["tmux", "-S", "/home/a b/.local/state/termhive/tmux.sock", "it's", "$HOME", "", "a;b", "%3"];
  assert.deepEqual(shellWords(joinWords(words)), words);
});

test("destinations: aliases, user@host and ssh:// URIs pass; options and junk are refused", () => {
  for (const ok of ["build-box", "user@gpu.example.com", "ssh://user@host:2222", "ssh://host", "root@[::1]", "10.0.0.5", "a_b.c"]) {
    assert.equal(checkDestination(` ${ok} `, null), ok);
  }
  for (const bad of ["", "-oProxyCommand=x", "host name", "host;rm", "a\nb", "ssh://u@h:22/path", "$(id)", "`id`"]) {
    assert.throws(() => checkDestination(bad, null), /host|destination/, JSON.stringify(bad));
  }
  assert.throws(() => checkDestination("gpu", ["build"]), /host "gpu" is not in TERMHIVE_HOSTS \(build\)/);
  assert.equal(checkDestination("build", ["build"]), "build");
});

test("TERMHIVE_HOSTS and TERMHIVE_SSH in the config", () => {
  assert.deepEqual(parseHostList(" a, user@b ,,c "), ["a", "user@b", "c"]);
  assert.equal(parseHostList(""), null);
  const config = loadConfig({ TERMHIVE_SSH: "ssh -F '/tmp/x y'", TERMHIVE_HOSTS: "a,b" });
  assert.deepEqual(config.ssh, ["ssh", "-F", "/tmp/x y"]);
  assert.deepEqual(config.allowedHosts, ["a", "b"]);
  assert.deepEqual(loadConfig({}).ssh, ["ssh"]);
  assert.throws(() => loadConfig({ TERMHIVE_SSH: "ssh 'x" }), (e: unknown) => e instanceof ConfigError && /TERMHIVE_SSH/.test((e as Error).message));
});
