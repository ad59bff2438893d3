// A pager never holds a run: programs that page by default (git, man, systemctl…) print their
// whole output for command lines termhive types, in bash, zsh and fish; a person typing in the
// same pane still gets their pager; a pager that does show is recognised, by a run and a send.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2E_BACKEND, Harness } from "./harness.js";
import { until } from "../until.js";
import { removeAtExit } from "../temp-folder.js";

const COMMITS = 120;

function hasProgram(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).status === 0;
}

/** A repository with COMMITS commits ("commit 1" … "commit 120") and an uncommitted 100-line change. */
function makeRepo(dir: string): void {
  mkdirSync(dir);
  const git = (...args: string[]) => {
    const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-C", dir, ...args], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  };
  git("init", "-q", "-b", "main");
  for (let i = 1; i <= COMMITS; i++) {
    writeFileSync(join(dir, "file.txt"), `line of commit ${i}\n`);
    git("add", "file.txt");
    git("commit", "-q", "-m", `commit ${i}`);
  }
  writeFileSync(join(dir, "file.txt"), Array.from({ length: 100 }, (_, i) => `changed line ${i + 1}`).join("\n") + "\n");
}

describe("pagers", () => {
  let h: Harness;
  let repo: string;
  before(async () => {
    h = await Harness.start();
    repo = join(h.home, "repo");
    makeRepo(repo);
  });
  after(async () => h.destroy());

  for (const shell of ["bash", "zsh", "fish"]) {
    test(`${shell}: git log, git show and git diff in a 40-row pane return their whole output, and the pane takes the next command`, async (t) => {
      if (!hasProgram(shell)) return t.skip(`${shell} is not installed`);
      const name = `git-${shell}`;
      await h.ok("terminal_open", { name, command: shell, rows: 40, cols: 100, cwd: repo });
      const log = await h.ok("terminal_run", { session: name, command: "git log --oneline", timeout_s: 20, max_tokens: 20_000 });
      assert.equal(log.reason, "osc133", JSON.stringify(log));
      assert.equal(log.exit_code, 0);
      const lines = log.output.split("\n").filter((line: string) => /^[0-9a-f]{7,} /.test(line));
      assert.equal(lines.length, COMMITS, log.output);
      assert.match(lines[0], /commit 120$/);
      assert.match(lines[COMMITS - 1], /commit 1$/);
      const show = await h.ok("terminal_run", { session: name, command: "git show HEAD~3", timeout_s: 20 });
      assert.equal(show.reason, "osc133", JSON.stringify(show));
      assert.match(show.output, /commit 117/);
      const diff = await h.ok("terminal_run", { session: name, command: "git diff", timeout_s: 20, max_tokens: 20_000 });
      assert.equal(diff.reason, "osc133", JSON.stringify(diff));
      assert.match(diff.output, /\+changed line 100/);
      const next = await h.ok("terminal_run", { session: name, command: "echo next-command" });
      assert.equal(next.reason, "osc133");
      assert.equal(next.output, "next-command");
    });
  }

  test("a message to a shell agent that pages runs through, and the agent takes the next one", async () => {
    await h.ok("agent_spawn", { name: "sh-agent", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "sh-agent", for: "idle", timeout_s: 20 })).matched, true);
    const mark = join(h.home, "after-log");
    await h.ok("hive_message", { agents: { "sh-agent": `cd '${repo}' && git log && touch '${mark}'` } });
    await until("the command after git log to run", () => (existsSync(mark) ? true : undefined));
    const next = join(h.home, "next-message");
    await h.ok("hive_message", { agents: { "sh-agent": `touch '${next}'` } });
    await until("the next message to run", () => (existsSync(next) ? true : undefined));
  });

  test("man and systemctl --help print their whole text", async (t) => {
    await h.ok("terminal_open", { name: "docs", command: "bash", rows: 30, cols: 100 });
    if (!hasProgram("man") || spawnSync("man", ["-w", "ls"]).status !== 0) t.diagnostic("man or its page for ls is not installed: man not checked");
    else {
      const man = await h.ok("terminal_run", { session: "docs", command: "man ls", timeout_s: 20, max_tokens: 30_000 });
      assert.equal(man.reason, "osc133", JSON.stringify(man));
      assert.equal(man.exit_code, 0);
      assert.match(man.output, /NAME/);
      assert.match(man.output, /SEE ALSO/);
    }
    if (!hasProgram("systemctl")) t.diagnostic("systemctl is not installed: not checked");
    else {
      const help = await h.ok("terminal_run", { session: "docs", command: "systemctl --help", timeout_s: 20, max_tokens: 30_000 });
      assert.equal(help.reason, "osc133", JSON.stringify(help));
      assert.match(help.output, /See the systemctl\(1\) man page for details/);
    }
  });

  test("a person who types git log in the pane gets their pager; a send to it says where the text went", async (t) => {
    if (E2E_BACKEND === "pty") return t.skip("a person types through tmux here; the pty backend has no tmux pane");
    const opened = await h.ok("terminal_open", { name: "person", command: "bash", rows: 20, cols: 100, cwd: repo });
    await h.ok("terminal_run", { session: "person", command: "true" });
    // Typed through tmux, as a person at the pane would.
    assert.equal(h.tmux("send-keys", "-t", opened.pane, "-l", "git log").status, 0);
    assert.equal(h.tmux("send-keys", "-t", opened.pane, "Enter").status, 0);
    await until("less to show git's log", async () => {
      const screen = await h.ok("terminal_read", { session: "person", mode: "screen" });
      return /commit 120/.test(screen.output) && /^:\s*$/m.test(screen.output) ? true : undefined;
    });
    // "42" and Enter: less moves 42 lines on (a command line such as `sleep 20` would have had
    // its "s" taken as less's "save to file", writing a file named "leep 20").
    const sent = await h.call("terminal_send", { session: "person", text: "42" });
    assert.equal(sent.isError, false);
    assert.equal(sent.data.taken_by, "pager");
    assert.match(sent.text, /pager was waiting for keys/);
    await h.ok("terminal_send", { session: "person", text: "q", enter: false });
    const done = await h.ok("terminal_wait", { session: "person", for: "completion", timeout_s: 20 });
    assert.equal(done.exit_code, 0);
    const back = await h.ok("terminal_run", { session: "person", command: "echo back" });
    assert.equal(back.output, "back");
  });

  for (const shell of ["bash", "zsh", "fish"]) {
    test(`${shell}: the user's own GIT_PAGER runs for a line a person types, not for a line termhive types`, async (t) => {
      if (!hasProgram(shell)) return t.skip(`${shell} is not installed`);
      if (E2E_BACKEND === "pty") return t.skip("a person types through tmux here; the pty backend has no tmux pane");
      const name = `own-${shell}`;
      const opened = await h.ok("terminal_open", { name, command: shell, rows: 20, cols: 100, cwd: repo, env: { GIT_PAGER: "sed s/^/PERSONS-PAGER:/" } });
      const ours = await h.ok("terminal_run", { session: name, command: "git log --oneline -3", timeout_s: 20 });
      assert.equal(ours.reason, "osc133", JSON.stringify(ours));
      assert.doesNotMatch(ours.output, /PERSONS-PAGER/);
      assert.match(ours.output, /commit 120/);
      assert.equal(h.tmux("send-keys", "-t", opened.pane, "-l", "git log --oneline -3").status, 0);
      assert.equal(h.tmux("send-keys", "-t", opened.pane, "Enter").status, 0);
      await until("the person's pager to print", async () => {
        const screen = await h.ok("terminal_read", { session: name, mode: "screen" });
        return /PERSONS-PAGER:[0-9a-f]+ commit 118/.test(screen.output) ? true : undefined;
      });
    });
  }

  test("journalctl --help prints its whole text", async (t) => {
    if (!hasProgram("journalctl")) return t.skip("journalctl is not installed");
    await h.ok("terminal_open", { name: "journal", command: "bash", rows: 20, cols: 100 });
    const help = await h.ok("terminal_run", { session: "journal", command: "journalctl --help", timeout_s: 20, max_tokens: 30_000 });
    assert.equal(help.reason, "osc133", JSON.stringify(help));
    assert.match(help.output, /See the journalctl\(1\) man page for details/);
  });

  test("a program that pages through SYSTEMD_PAGER as systemd's tools do prints its whole output", async () => {
    // journalctl pages real output, but this machine has no journal ("No journal files were
    // found"): this stand-in pages the way systemd's pager.c does — only on a terminal, the
    // pipe read by `sh -c "$SYSTEMD_PAGER"` (else $PAGER, else less), with LESS=FRSXMK.
    const tool = join(h.home, "journal-like");
    writeFileSync(tool, [
      "#!/bin/sh",
      "[ -t 1 ] || exec seq -f 'entry %g' 1 300",
      "export LESS=FRSXMK",
      "seq -f 'entry %g' 1 300 | sh -c \"${SYSTEMD_PAGER:-${PAGER:-less}}\"",
      "",
    ].join("\n"), { mode: 0o755 });
    await h.ok("terminal_open", { name: "sdpager", command: "bash", rows: 20, cols: 100 });
    const run = await h.ok("terminal_run", { session: "sdpager", command: `'${tool}'`, timeout_s: 20, max_tokens: 30_000 });
    assert.equal(run.reason, "osc133", JSON.stringify(run));
    assert.equal(run.exit_code, 0);
    assert.match(run.output, /^entry 1$/m);
    assert.match(run.output, /^entry 300$/m);
    assert.equal((await h.ok("terminal_run", { session: "sdpager", command: "echo next-command" })).output, "next-command");
  });

  test("psql: PSQL_PAGER is termhive's pager, and a query result taller than the pane prints whole", async (t) => {
    if (!hasProgram("psql")) return t.skip("psql is not installed");
    await h.ok("terminal_open", { name: "psql", command: "bash", rows: 20, cols: 100 });
    const env = await h.ok("terminal_run", { session: "psql", command: "printf '%s\\n' \"$PSQL_PAGER\"" });
    assert.match(env.output, /\/bin\/pager'? PSQL_PAGER$/, env.output);
    const server = startPostgres();
    if (!server) return t.diagnostic("no PostgreSQL server could be started here (initdb/pg_ctl): only PSQL_PAGER checked");
    try {
      const query = await h.ok("terminal_run", { session: "psql", command: `psql -h '${server}' -U postgres -c 'select generate_series(1, 200) as n'`, timeout_s: 30, max_tokens: 30_000 });
      assert.equal(query.reason, "osc133", JSON.stringify(query));
      assert.equal(query.exit_code, 0);
      assert.match(query.output, /^\s+200$/m);
      assert.match(query.output, /\(200 rows\)/);
    } finally {
      stopPostgres(server);
    }
  });

  test("sh: git log in a shell termhive does not integrate prints its whole output, and the pane takes the next command", async (t) => {
    if (!hasProgram("sh")) return t.skip("sh is not installed");
    const opened = await h.ok("terminal_open", { name: "git-sh", command: "sh", rows: 40, cols: 100, cwd: repo, env: { GIT_PAGER: "sed s/^/PERSONS-PAGER:/" } });
    const log = await h.ok("terminal_run", { session: "git-sh", command: "git log --oneline", timeout_s: 20, max_tokens: 20_000 });
    assert.equal(log.exit_code ?? 0, 0, JSON.stringify(log));
    assert.equal(log.output.split("\n").filter((line: string) => /^[0-9a-f]{7,} /.test(line)).length, COMMITS, JSON.stringify(log));
    assert.notEqual(log.reason, "fullscreen", JSON.stringify(log));
    assert.notEqual(log.reason, "timeout", JSON.stringify(log));
    assert.doesNotMatch(log.output, /PERSONS-PAGER/);
    const next = await h.ok("terminal_run", { session: "git-sh", command: "echo next-command" });
    assert.match(next.output, /^next-command$/m, JSON.stringify(next));
    // The mark is termhive's lines' only: a line a person types afterwards gets their own pager.
    if (E2E_BACKEND === "pty") return;
    assert.equal(h.tmux("send-keys", "-t", opened.pane, "-l", "git log --oneline -3").status, 0);
    assert.equal(h.tmux("send-keys", "-t", opened.pane, "Enter").status, 0);
    await until("the person's pager to print", async () => {
      const screen = await h.ok("terminal_read", { session: "git-sh", mode: "screen" });
      return /PERSONS-PAGER:[0-9a-f]+ commit 118/.test(screen.output) ? true : undefined;
    });
  });

  test("a command that calls a pager itself returns when the pager waits, and says so", async () => {
    await h.ok("terminal_open", { name: "self", command: "bash", rows: 20, cols: 80 });
    const run = await h.ok("terminal_run", { session: "self", command: "seq 1 500 | less -X", timeout_s: 20 });
    assert.equal(run.reason, "fullscreen", JSON.stringify(run));
    assert.equal(run.running, true);
    assert.match(run.hint, /a pager is showing/);
    assert.match(run.output, /^19$/m);
    const sent = await h.ok("terminal_send", { session: "self", text: "q", enter: false });
    assert.equal(sent.taken_by, "pager");
    const done = await h.ok("terminal_wait", { session: "self", for: "completion", timeout_s: 20 });
    assert.equal(done.exit_code, 0);
    const full = await h.ok("terminal_send", { session: "self", text: "vim -u NONE -N" });
    assert.equal(full.taken_by, undefined);
    await until("vim's screen", async () => ((await h.ok("terminal_read", { session: "self", mode: "auto" })).tui ? true : undefined));
    const typed = await h.ok("terminal_send", { session: "self", text: ":q" });
    assert.equal(typed.taken_by, "full-screen");
  });
});

const POSTGRES_BIN = "/usr/lib/postgresql";

/**
 * A private PostgreSQL server (initdb into the test's folder, unix socket only, trust): the
 * folder its socket is in, or undefined where none can be started (no server installed).
 * initdb refuses root, so as root it runs as the postgres user.
 */
function startPostgres(): string | undefined {
  if (!existsSync(POSTGRES_BIN)) return undefined;
  const version = spawnSync("ls", [POSTGRES_BIN], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).sort().at(-1);
  if (!version) return undefined;
  const bin = join(POSTGRES_BIN, version, "bin");
  // In /tmp, not the test's own TMPDIR: that folder is root's alone, and the server runs as postgres.
  const dir = mkdtempSync(join("/tmp", "termhive-pg-"));
  removeAtExit(dir);
  const asUser = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  if (asUser.length && spawnSync("chown", ["postgres", dir]).status !== 0) return undefined;
  const run = (...argv: string[]) => spawnSync(asUser[0] ?? argv[0]!, [...asUser.slice(1), ...(asUser.length ? argv : argv.slice(1))], { encoding: "utf8", timeout: 120_000 });
  const data = join(dir, "data");
  if (run(join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8").status !== 0) return undefined;
  const started = run(join(bin, "pg_ctl"), "-D", data, "-w", "-t", "60", "-l", join(dir, "log"), "-o", `-k ${dir} -c listen_addresses=''`, "start");
  return started.status === 0 ? dir : undefined;
}

function stopPostgres(dir: string): void {
  const version = spawnSync("ls", [POSTGRES_BIN], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).sort().at(-1)!;
  const argv = [join(POSTGRES_BIN, version, "bin", "pg_ctl"), "-D", join(dir, "data"), "-m", "immediate", "-w", "stop"];
  if (process.getuid?.() === 0) spawnSync("runuser", ["-u", "postgres", "--", ...argv]);
  else spawnSync(argv[0]!, argv.slice(1));
}
