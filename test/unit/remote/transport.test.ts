// The two ways termhive reaches a host (ssh, a container's exec): which `host` strings pick
// which, the argv each gives, and the set-up's answers when the link sets no SHELL (an exec).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { checkDestination, hostAddress } from "../../../src/backends/remote/destination.js";
import { transportFor } from "../../../src/backends/remote/transport.js";
import { bootstrapScript, parseFacts } from "../../../src/backends/remote/bootstrap.js";
import { splitWords } from "../../../src/util/words.js";

test("docker://NAME and podman://NAME are containers; anything else stays an ssh destination", () => {
  assert.deepEqual(hostAddress(checkDestination(" docker://web-1 ", null)), { kind: "container", host: "docker://web-1", engine: "docker", name: "web-1" });
  assert.deepEqual(hostAddress("podman://a1b2c3d4e5f6"), { kind: "container", host: "podman://a1b2c3d4e5f6", engine: "podman", name: "a1b2c3d4e5f6" });
  assert.deepEqual(hostAddress("build-box"), { kind: "ssh", host: "build-box" });
  assert.deepEqual(hostAddress("ssh://me@gpu:2222"), { kind: "ssh", host: "ssh://me@gpu:2222" });
  assert.equal(checkDestination("docker://task_7.x", ["docker://task_7.x"]), "docker://task_7.x");
  assert.throws(() => checkDestination("docker://web", ["docker://db"]), /host "docker:\/\/web" is not in TERMHIVE_HOSTS/);
});

test("container names that are not names are refused, saying what a name is", () => {
  for (const bad of ["docker://", "docker://-it", "docker://--privileged", "docker://a;b", "docker://$(id)", "docker://a b", "podman://x/y", "docker://a:b", "docker://.hidden", "docker://`id`", "docker://" + "a".repeat(129), "lxc://box"]) {
    assert.throws(() => checkDestination(bad, null), /is not a container: (docker|podman):\/\/NAME takes a running container's name or id|is not an ssh destination/, bad);
  }
  assert.throws(() => checkDestination("docker://-it", null), /is not a container: docker:\/\/NAME takes a running container's name or id \(letters, digits, "_", "\." and "-", starting with a letter or digit\)/);
});

test("a container's transport is `<engine> exec -i NAME argv…`, words kept apart, never a shell line", () => {
  const docker = transportFor(hostAddress("docker://web"), ["ssh"]);
  assert.deepEqual(docker.commandArgv(["/usr/bin/tmux", "-S", "/root/x y.sock", "-C", "new-session"]), ["docker", "exec", "-i", "web", "/usr/bin/tmux", "-S", "/root/x y.sock", "-C", "new-session"]);
  assert.deepEqual(docker.commandArgv(["/bin/sh"]), ["docker", "exec", "-i", "web", "/bin/sh"]);
  const podman = transportFor(hostAddress("podman://db"), ["ssh"]);
  assert.deepEqual(podman.commandArgv(["/bin/sh"]), ["podman", "exec", "-i", "db", "/bin/sh"]);
  // What a person types: a terminal of their own (-t), the command line read back word for word.
  const attach = docker.interactive("tmux -S '/root/a b.sock' attach -t %3");
  assert.deepEqual(splitWords(attach), ["docker", "exec", "-it", "web", "/bin/sh", "-c", "tmux -S '/root/a b.sock' attach -t %3"]);
  assert.match(docker.unreachable("Error response from daemon: container 1f2e is not running"), /^cannot reach container docker:\/\/web: Error response from daemon: container 1f2e is not running \(termhive needs it running: docker ps; docker start web\)$/);
  assert.match(docker.describeExit(137, null), /container docker:\/\/web .*exited 137/);
  assert.equal(docker.link, "the docker exec link to container web");
});

test("ssh's transport is unchanged: the user's words, termhive's options, the host after --, an exec'd command line", () => {
  const ssh = transportFor(hostAddress("build"), ["ssh", "-F", "/c f"]);
  const argv = ssh.commandArgv(["/usr/bin/tmux", "-S", "/h/a b", "-C"]);
  assert.deepEqual(argv.slice(0, 3), ["ssh", "-F", "/c f"]);
  assert.deepEqual(argv.slice(-3), ["--", "build", "exec /usr/bin/tmux -S '/h/a b' -C"]);
  assert.deepEqual(ssh.commandArgv(["/bin/sh"]).slice(-2), ["build", "/bin/sh"]);
  assert.deepEqual(splitWords(ssh.interactive("tmux attach -t %3")), ["ssh", "-F", "/c f", "-t", "build", "tmux attach -t %3"]);
  assert.equal(ssh.link, "the ssh connection to build");
});

test("a link that sets no SHELL (a container's exec): the set-up reports the account's login shell from passwd", () => {
  const home = mkdtempSync(join(tmpdir(), "termhive-transport-"));
  try {
    const r = spawnSync("/bin/sh", [], { input: bootstrapScript("set -g history-limit 5\n"), env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" }, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const passwd = spawnSync("getent", ["passwd", String(userInfo().uid)], { encoding: "utf8" }).stdout.trim().split(":");
    assert.equal(parseFacts("h", r.stdout).shell, passwd[6] || "/bin/sh");
    const withShell = spawnSync("/bin/sh", [], { input: bootstrapScript("x\n"), env: { HOME: home, SHELL: "/bin/zsh-of-ssh", PATH: process.env.PATH ?? "/usr/bin:/bin" }, encoding: "utf8" });
    assert.equal(parseFacts("h", withShell.stdout).shell, "/bin/zsh-of-ssh");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
