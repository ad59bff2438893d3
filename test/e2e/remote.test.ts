// Sessions on another host, against a real OpenSSH server on loopback (test/fixtures/sshd):
// termhive reaches it with `ssh -F <test config>` and runs the session in that host's tmux.
// The remote side's HOME is a temporary folder (sshd's SetEnv), so its tmux socket is the
// test's own; everything else — sshd, ssh, the remote /bin/sh, tmux, bash — is real.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { CLI, Harness } from "./harness.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";
import { until as waitUntil } from "../until.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000) => waitUntil(what, probe, timeoutMs, 100);

const skip = sshdAvailable() ? false : "sshd (openssh-server) is not installed: apt-get install -y openssh-server";

describe("remote hosts over ssh", { skip }, () => {
  let host: LoopbackHost;
  let h: Harness;
  const remoteSocket = () => join(host.remoteHome, ".local/state/termhive/tmux.sock");
  const remoteTmux = (...args: string[]) => spawnSync("tmux", ["-S", remoteSocket(), ...args], { encoding: "utf8" });

  before(async () => {
    host = await startLoopbackHost();
    h = await Harness.start({ TERMHIVE_SSH: host.sshCommand });
  });
  after(async () => {
    await h?.destroy();
    await host?.stop();
  });

  test("open on the host: the shell runs there, in the host's tmux, with exact exit codes", async () => {
    const opened = await h.ok("terminal_open", { name: "far", host: host.alias });
    assert.equal(opened.host, host.alias);
    assert.equal(opened.integrated, true);
    assert.match(opened.pane, /^%\d+@loopback$/);
    assert.match(opened.attach, /^ssh -F \S+ -t loopback 'tmux -S \S+\/\.local\/state\/termhive\/tmux\.sock attach -t %\d+'$/);
    // The host's tmux holds the pane, on the remote user's termhive socket in a 0700 folder.
    assert.equal(statSync(join(host.remoteHome, ".local/state/termhive")).mode & 0o777, 0o700);
    const panes = remoteTmux("list-panes", "-a", "-F", "#{pane_id} #{@termhive_meta}");
    assert.equal(panes.status, 0, panes.stderr);
    assert.ok(panes.stdout.includes(opened.pane.split("@")[0]), panes.stdout);

    const where = await h.ok("terminal_run", { session: "far", command: "echo $HOME" });
    assert.equal(where.output, host.remoteHome);
    assert.equal(where.exit_code, 0);
    assert.equal(where.reason, "osc133");
    const three = await h.ok("terminal_run", { session: "far", command: "(exit 3)" });
    assert.equal(three.exit_code, 3);
    assert.equal(three.reason, "osc133");
    const fail = await h.ok("terminal_run", { session: "far", command: "ls /no-such-folder-xyz" });
    assert.equal(fail.exit_code, 2);
    // The host is another machine: the local checkout and its installed packages are not there
    // (test/fixtures/sshd hides them), so nothing here passes by reaching the local termhive.
    const local = [join(process.cwd(), "package.json"), join(realpathSync("node_modules"), "@modelcontextprotocol")];
    const hidden = await h.ok("terminal_run", { session: "far", command: `test -e ${JSON.stringify(local[0])} || test -e ${JSON.stringify(local[1])}; echo seen=$?` });
    assert.equal(hidden.output, "seen=1", `the ssh host sees the local checkout: ${local.join(", ")}`);

    const list = await h.ok("terminal_list");
    const far = list.sessions.find((s: { name: string }) => s.name === "far");
    assert.equal(far?.host, host.alias);
    assert.equal(far?.cwd, host.remoteHome);
    const listed = await h.call("terminal_list");
    assert.match(listed.text, /far \(th-[0-9a-f]+, pane %\d+@loopback\) on loopback alive/);
  });

  test("every read mode, send, wait, resize and close work on a remote session", async () => {
    await h.ok("terminal_open", { name: "modes", host: host.alias });
    await h.ok("terminal_run", { session: "modes", command: "for i in 1 2 3 4 5; do echo line-$i; done" });
    const all = await h.ok("terminal_read", { session: "modes", mode: "all" });
    assert.match(all.output, /line-1[\s\S]*line-5/);
    const screen = await h.ok("terminal_read", { session: "modes", mode: "screen" });
    assert.match(screen.output, /line-5/);
    const lines = await h.ok("terminal_read", { session: "modes", mode: "lines", from_line: 1, to_line: 200, filter: "^line-3$" });
    assert.match(lines.output, /line-3/);
    assert.doesNotMatch(lines.output, /line-4/);
    await h.ok("terminal_read", { session: "modes", mode: "new" });
    await h.ok("terminal_send", { session: "modes", text: "echo sent-$((20+22))\n" });
    const waited = await h.ok("terminal_wait", { session: "modes", pattern: "sent-42", timeout_s: 15 });
    assert.match(waited.output, /sent-42/);
    const fresh = await h.ok("terminal_read", { session: "modes", mode: "new" });
    assert.doesNotMatch(fresh.output, /line-1/);
    await h.ok("terminal_read", { session: "modes", mode: "diff" });
    await h.ok("terminal_run", { session: "modes", command: "echo diffed" });
    const diff = await h.ok("terminal_read", { session: "modes", mode: "diff" });
    assert.match(diff.output, /diffed/);

    await h.ok("terminal_resize", { session: "modes", rows: 30, cols: 100 });
    const size = await h.ok("terminal_run", { session: "modes", command: "stty size" });
    assert.equal(size.output, "30 100");

    await h.ok("terminal_send", { session: "modes", text: "sleep 30\n" });
    await until("sleep to run", async () => ((await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "modes")?.running === "sleep 30" ? true : undefined));
    await h.ok("terminal_send", { session: "modes", keys: ["C-c"] });
    const interrupted = await h.ok("terminal_wait", { session: "modes", for: "completion", timeout_s: 15 });
    assert.equal(interrupted.exit_code, 130);

    const pane = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "modes").pane as string;
    await h.ok("terminal_close", { session: "modes" });
    const left = remoteTmux("list-panes", "-a", "-F", "#{pane_id}");
    assert.ok(!left.stdout.split("\n").includes(pane.split("@")[0]!), left.stdout);
  });

  test("a secret typed at the remote shell's prompt runs and stays out of its history", async () => {
    const secret = `hunter2-${Math.random().toString(36).slice(2, 8)}`;
    await h.ok("terminal_open", { name: "sec", host: host.alias });
    await h.ok("terminal_run", { session: "sec", command: "echo before" });
    await h.ok("terminal_send", { session: "sec", secret: `export TOK=${secret}` });
    await h.ok("terminal_wait", { session: "sec", for: "completion", timeout_s: 10 });
    const ran = await h.ok("terminal_run", { session: "sec", command: "echo ${#TOK}" });
    assert.equal(ran.output, String(secret.length));
    const listed = await h.ok("terminal_run", { session: "sec", command: `history | grep -c 'hunte[r]${secret.slice(6)}'` });
    assert.equal(listed.output, "0", "the remote bash history holds the secret line");
    const kept = await h.ok("terminal_run", { session: "sec", command: "history | grep -c 'ech[o] before'" });
    assert.notEqual(kept.output, "0");
    const files = spawnSync("grep", ["-rl", secret, join(host.remoteHome, ".local/state/termhive")], { encoding: "utf8" });
    assert.equal(files.stdout, "", "a file on the host holds the secret");
  });

  test("a hive split and an agent spawned on the host run there", async () => {
    await h.ok("terminal_open", { name: "lead", host: host.alias });
    const split = await h.ok("hive_split", { session: "lead", direction: "right", name: "side" });
    assert.match(split.pane, /@loopback$/);
    const side = await h.ok("terminal_run", { session: "side", command: "echo $HOME" });
    assert.equal(side.output, host.remoteHome);
    const spawned = await h.ok("agent_spawn", { name: "worker", command: "bash", host: host.alias, profile: "shell" });
    assert.equal(spawned.agent.name, "worker");
    const worker = await h.ok("terminal_run", { session: "worker", command: "echo $HOME" });
    assert.equal(worker.output, host.remoteHome);
    // The agent's status at a glance is kept in the host's tmux: its pane's mark and its window's summary.
    const workerPane = (spawned.agent.pane ?? (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "worker").pane) as string;
    await until("the remote pane's status mark", () => {
      const shown = remoteTmux("display-message", "-p", "-t", workerPane.split("@")[0]!, "#{@termhive_status} #{@termhive_summary}");
      return /\S+ \S+/.test(shown.stdout.trim()) ? true : undefined;
    });
    const layout = await h.ok("hive_layout", { layout: "horizontal", panes: [{ name: "la", host: host.alias }, { name: "lb", host: host.alias }] });
    assert.equal(layout.panes.length, 2);
    for (const pane of layout.panes) assert.match(pane.pane, /@loopback$/);
    const lb = await h.ok("terminal_run", { session: "lb", command: "echo $HOME" });
    assert.equal(lb.output, host.remoteHome);
    const refused = await h.call("hive_split", { session: "lead", direction: "below", host: "elsewhere" });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /runs on the host of lead \(loopback\)/);
  });

  test("kill -9 of termhive: a new process adopts the remote session by name, output and all", async () => {
    await h.ok("terminal_open", { name: "survivor", host: host.alias });
    await h.ok("terminal_run", { session: "survivor", command: "echo before-crash-$((6*7))" });
    process.kill(h.pid, "SIGKILL");
    await h.close();
    await h.connect();
    const list = await h.ok("terminal_list");
    const me = list.sessions.find((s: { name: string }) => s.name === "survivor");
    assert.ok(me, JSON.stringify(list));
    assert.equal(me.host, host.alias);
    assert.equal(me.alive, true);
    const all = await h.ok("terminal_read", { session: "survivor", mode: "all" });
    assert.match(all.output, /before-crash-42/);
    const r = await h.ok("terminal_run", { session: "survivor", command: "(exit 3)" });
    assert.equal(r.exit_code, 3);
    assert.equal(r.reason, "osc133");
  });

  test("a dropped connection is made again on the next call; output and exit code made meanwhile are read from the host", async () => {
    await h.ok("terminal_open", { name: "dropped", host: host.alias });
    await h.ok("terminal_run", { session: "dropped", command: "echo connected" });
    const before = host.connectionPids();
    assert.ok(before.length >= 1, "termhive holds an ssh connection to the host");
    await h.ok("terminal_send", { session: "dropped", text: "sleep 1; echo while-away-$((6*7)); (exit 7)\n" });
    // The command has started (its start is recorded with the pane) before the drop.
    await until("the command to start", async () => ((await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "dropped")?.running ? true : undefined));
    // Kill the server side of every connection: what a network drop or sshd restart does.
    for (const pid of before) process.kill(pid, "SIGKILL");
    await until("the connections to close", () => (host.connectionPids().some((pid) => before.includes(pid)) ? undefined : true));
    // The host's tmux outlived the connection and the command finished there.
    await until("the command to finish on the host", () => {
      const pane = remoteTmux("capture-pane", "-p", "-t", "dropped");
      return /while-away-42/.test(pane.stdout) ? true : undefined;
    });
    const read = await h.ok("terminal_read", { session: "dropped", mode: "all" });
    assert.match(read.output, /while-away-42/);
    // Its end was in the lost stream; the shell's status file on the host still has the code.
    const listed = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "dropped");
    assert.equal(listed.running, null);
    assert.equal(listed.last_exit_code, 7);
    const r = await h.ok("terminal_run", { session: "dropped", command: "echo back-$((1+1))" });
    assert.equal(r.output, "back-2");
    assert.equal(r.exit_code, 0);
    assert.equal(r.reason, "osc133");
    assert.ok(host.connectionPids().some((pid) => !before.includes(pid)), "a new connection was made");
  });

  test("a wait after the connection came back sees the command that ended meanwhile, at once (issue 21 §2)", async () => {
    await h.ok("terminal_open", { name: "waited", host: host.alias });
    await h.ok("terminal_run", { session: "waited", command: "echo connected" });
    const before = host.connectionPids();
    await h.ok("terminal_send", { session: "waited", text: "sleep 1; echo ended-away-$((6*7)); (exit 6)\n" });
    await until("the command to start", async () => ((await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "waited")?.running ? true : undefined));
    // The host drops out (the server side of every connection killed) and the command ends there.
    for (const pid of before) process.kill(pid, "SIGKILL");
    await until("the connections to close", () => (host.connectionPids().some((pid) => before.includes(pid)) ? undefined : true));
    await until("the command to finish on the host", () => (/ended-away-42/.test(remoteTmux("capture-pane", "-p", "-t", "waited").stdout) ? true : undefined));
    const waited = await h.ok("terminal_wait", { session: "waited", for: "completion", timeout_s: 20 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    assert.equal(waited.exit_code, 6);
    assert.match(waited.output, /ended-away-42/);
    assert.ok(waited.duration_ms < 15_000, `answered after ${waited.duration_ms} ms`);
  });

  test("the CLI opens on a host too, and the MCP server's process adopts that session", async () => {
    const cli = spawnSync(process.execPath, [CLI, "open", "--host", host.alias, "--name", "by-cli", "--json"], { env: h.serverEnv(), encoding: "utf8" });
    assert.equal(cli.status, 0, cli.stderr);
    assert.equal(JSON.parse(cli.stdout).host, host.alias);
    const r = await h.ok("terminal_run", { session: "by-cli", command: "echo $HOME" });
    assert.equal(r.output, host.remoteHome);
  });

  test("a host nobody answers on is a clear error naming it, within 15 s", async () => {
    const started = Date.now();
    const r = await h.call("terminal_open", { host: host.closedAlias });
    assert.equal(r.isError, true);
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    assert.match(r.text, /cannot reach host closed: .*Connection refused/);
    assert.match(r.text, /nothing was opened/);
  });

  test("a host without tmux gets the install hint", async () => {
    const r = await h.call("terminal_open", { host: host.noTmuxAlias });
    assert.equal(r.isError, true);
    assert.match(r.text, /tmux is not installed on host notmux/);
    assert.match(r.text, /apt-get install -y tmux/);
  });

  test("bad and unlisted destinations are refused before ssh runs", async () => {
    const option = await h.call("terminal_open", { host: "-oProxyCommand=touch /tmp/x" });
    assert.equal(option.isError, true);
    assert.match(option.text, /is not an ssh destination/);
    const listed = await Harness.start({ TERMHIVE_SSH: host.sshCommand, TERMHIVE_HOSTS: "build-box, user@gpu" });
    try {
      const r = await listed.call("terminal_open", { host: host.alias });
      assert.equal(r.isError, true);
      assert.match(r.text, /host "loopback" is not in TERMHIVE_HOSTS \(build-box, user@gpu\)/);
      assert.ok(!existsSync(join(listed.home, "remote-hosts")), "nothing was remembered for a refused host");
    } finally {
      await listed.destroy();
    }
  });
});
