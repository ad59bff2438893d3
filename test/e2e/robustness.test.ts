// Persistence across processes and restarts, and bad input answered clearly.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { tempFolder } from "../temp-folder.js";

describe("persistence", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("two termhive processes see the same session", async () => {
    await h.ok("terminal_open", { name: "shared", command: "bash" });
    await h.ok("terminal_run", { session: "shared", command: "echo from-first" });
    const second = new Harness(h.home, h.env);
    await second.connect();
    try {
      const list = await second.ok("terminal_list");
      assert.ok(list.sessions.some((s: { name: string }) => s.name === "shared"));
      const r = await second.ok("terminal_run", { session: "shared", command: "echo from-second" });
      assert.equal(r.output, "from-second");
      assert.equal(r.exit_code, 0);
      const seen = await h.ok("terminal_read", { session: "shared", mode: "new" });
      assert.match(seen.output, /from-second/);
    } finally {
      await second.close();
    }
  });

  test("sessions opened concurrently are all integrated and exact", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `par${i}`);
    const opened = await Promise.all(names.map((name) => h.ok("terminal_open", { name, command: "bash" })));
    assert.ok(opened.every((o) => o.integrated === true), JSON.stringify(opened.map((o) => o.integrated)));
    const runs = await Promise.all(names.map((name) => h.ok("terminal_run", { session: name, command: `echo ${name}` })));
    for (const [i, r] of runs.entries()) {
      assert.equal(r.reason, "osc133");
      assert.equal(r.output, names[i]);
    }
  });

  test("kill -9 of termhive, restart: the session is there with its name and earlier output", async () => {
    await h.ok("terminal_open", { name: "survivor", command: "bash" });
    await h.ok("terminal_run", { session: "survivor", command: "echo before-the-crash-$((7*6))" });
    process.kill(h.pid, "SIGKILL");
    await h.close();
    await h.connect();
    const list = await h.ok("terminal_list");
    const me = list.sessions.find((s: { name: string }) => s.name === "survivor");
    assert.ok(me, JSON.stringify(list));
    assert.equal(me.alive, true);
    const all = await h.ok("terminal_read", { session: "survivor", mode: "all" });
    assert.match(all.output, /before-the-crash-42/);
    const r = await h.ok("terminal_run", { session: "survivor", command: "echo after" });
    assert.equal(r.output, "after");
    assert.equal(r.exit_code, 0);
  });
});

describe("a fresh server asked for many sessions at once", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  // The first calls race the tmux connection's own set-up; replies to set-up commands must
  // never be taken for the answer to a new-window.
  test("24 concurrent terminal_open as the very first calls all succeed with their own pane", async () => {
    const names = Array.from({ length: 24 }, (_, i) => `burst${i}`);
    const results = await Promise.all(names.map((name) => h.call("terminal_open", { name, command: "bash" })));
    const failed = results.filter((r) => r.isError).map((r) => r.text);
    assert.deepEqual(failed, []);
    const panes = new Set(results.map((r) => r.data.pane));
    assert.equal(panes.size, names.length);
    const listed = (await h.ok("terminal_list")).sessions as { name: string }[];
    for (const name of names) assert.ok(listed.some((s) => s.name === name), `${name} missing from terminal_list`);
  });
});

describe("bad input", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
    await h.ok("terminal_open", { name: "main", command: "bash" });
  });
  after(async () => h.destroy());

  test("unknown session → error listing the live sessions", async () => {
    const r = await h.call("terminal_run", { session: "nope", command: "true" });
    assert.equal(r.isError, true);
    assert.match(r.text, /unknown session "nope".*main \(th-[0-9a-f]+\)/);
  });

  test("invalid regex → error naming it", async () => {
    const r = await h.call("terminal_wait", { session: "main", pattern: "(unclosed", timeout_s: 1 });
    assert.equal(r.isError, true);
    assert.match(r.text, /invalid pattern regex "\(unclosed"/);
  });

  test("a regex RE2 cannot run in linear time is refused, naming the construct", async () => {
    const r = await h.call("terminal_wait", { session: "main", pattern: "(?=(a+)+b)", timeout_s: 5 });
    assert.equal(r.isError, true);
    assert.match(r.text, /lookahead `\(\?=…\)`.*linear time/);
    const back = await h.call("terminal_read", { session: "main", filter: "(a)\\1" });
    assert.equal(back.isError, true);
    assert.match(back.text, /backreference/);
  });

  for (const name of ["a;b", "x$(id)", "../etc", "with space", "q'uote"]) {
    test(`a session name like ${JSON.stringify(name)} is refused`, async () => {
      const r = await h.call("terminal_open", { name });
      assert.equal(r.isError, true);
      assert.match(r.text, /invalid session name/);
    });
  }

  test("unknown key → clear error, nothing sent", async () => {
    const r = await h.call("terminal_send", { session: "main", text: "echo should-not-run", keys: ["Hyper-X"] });
    assert.equal(r.isError, true);
    assert.match(r.text, /unknown key "Hyper-X"/);
    const read = await h.ok("terminal_read", { session: "main", mode: "screen" });
    assert.doesNotMatch(read.output, /should-not-run/);
  });

  test("a dead pane answers with its exit status", async () => {
    await h.ok("terminal_open", { name: "dies", command: "bash" });
    const r = await h.ok("terminal_run", { session: "dies", command: "exit 7" });
    const panes = () => {
      const list = h.tmux("list-panes", "-a", "-F", "#{pane_id} dead=#{pane_dead} status=#{pane_dead_status} pid=#{pane_pid} #{pane_current_command}").stdout;
      const pids = [...list.matchAll(/pid=(\d+)/g)].map((m) => m[1]!);
      const ps = spawnSync("ps", ["-o", "pid,ppid,stat,comm", "-p", pids.join(",")], { encoding: "utf8" }).stdout;
      return list + ps;
    };
    // The shell's exit hook reports the command's end (osc133) before the pane dies; a pane that
    // died first is seen as exit. Either way: its exit status.
    assert.ok(r.reason === "osc133" || r.reason === "exit", r.reason);
    assert.equal(r.exit_code, 7, `${JSON.stringify(r)}\n${panes()}\n${h.tmux("capture-pane", "-p", "-t", "%0").stdout.trim()}`);
    const again = await h.call("terminal_run", { session: "dies", command: "true" });
    assert.equal(again.isError, true);
    assert.match(again.text, /has exited \(exit status 7\)/);
    const list = await h.ok("terminal_list");
    const dead = list.sessions.find((s: { name: string }) => s.name === "dies");
    assert.equal(dead.alive, false);
    assert.equal(dead.exit_code, 7);
    const closed = await h.ok("terminal_close", { session: "dies" });
    assert.equal(closed.exit_code, 7);
  });

  test("a secret never reaches a result or the audit log", async () => {
    await h.ok("terminal_open", { name: "pw", command: "bash" });
    await h.ok("terminal_run", { session: "pw", command: "read -r -s SECRET_VALUE; echo \"got:$SECRET_VALUE\"", timeout_s: 0.3 });
    await h.ok("terminal_send", { session: "pw", secret: "hunter2-very-secret" });
    const done = await h.ok("terminal_wait", { session: "pw", for: "completion", timeout_s: 10 });
    assert.equal(done.exit_code, 0);
    assert.doesNotMatch(done.output, /hunter2-very-secret/);
    assert.match(done.output, /got:••••/);
    const all = await h.ok("terminal_read", { session: "pw", mode: "all", raw: true });
    assert.doesNotMatch(all.output, /hunter2-very-secret/);
    const audit = readFileSync(join(h.home, "audit.jsonl"), "utf8");
    assert.doesNotMatch(audit, /hunter2-very-secret/);
    assert.match(audit, /"secret":"\[secret, 19 bytes\]"/);
  });

  test("the safety gate refuses rm -rf / unless confirmed", async () => {
    const r = await h.call("terminal_run", { session: "main", command: "rm -rf /" });
    assert.equal(r.isError, true);
    assert.match(r.text, /refused by the safety gate: recursive-delete/);
    const harmless = await h.ok("terminal_run", { session: "main", command: "echo 'rm -rf /'" });
    assert.equal(harmless.output, "rm -rf /");
  });

  test("trial 16's shapes are refused before they are typed; their ordinary relatives run", async () => {
    // A throwaway HOME with a file in it: a refused command must leave it.
    const home = tempFolder("gate16-home-");
    const project = tempFolder("gate16-proj-");
    writeFileSync(join(home, "keep.txt"), "x");
    writeFileSync(join(project, "a.o"), "x");
    writeFileSync(join(project, "a.c"), "x");
    mkdirSync(join(project, "build"));
    await h.ok("terminal_open", { name: "g16", command: "bash", cwd: project, env: { HOME: home } });
    const refused: [string, RegExp][] = [
      ["r=rm; $r -rf ~", /recursive-delete/],
      ["find ~ -delete", /find-delete/],
      ["echo ~ | xargs rm -rf", /recursive-delete-xargs/],
      ["echo cm0gLXJmIH4= | base64 -d | sh", /decoded-pipe-shell/],
      [`python3 -c "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"`, /interpreter-delete/],
    ];
    for (const [command, rule] of refused) {
      const r = await h.call("terminal_run", { session: "g16", command });
      assert.equal(r.isError, true, command);
      assert.match(r.text, new RegExp(`refused by the safety gate: ${rule.source}`), command);
    }
    assert.ok(existsSync(join(home, "keep.txt")), "a refused command ran");
    const ran = await h.ok("terminal_run", { session: "g16", command: "find . -name '*.o' -delete; r=rm; $r -rf build; ls" });
    assert.equal(ran.exit_code, 0);
    assert.equal(ran.output.trim(), "a.c");
  });

  test("progress notifications while a run waits", async () => {
    h.progress = [];
    const r = await h.ok("terminal_run", { session: "main", command: "sleep 1.3; echo slept" }, { progress: true });
    assert.equal(r.output, "slept");
    assert.ok(h.progress.length >= 1, "no progress notification");
  });

  test("tmux killed underneath: calls answer at once with a clear error, then open works again", async () => {
    h.tmux("kill-server");
    // Its answer names the cause; a call that hung would end in the harness's timeout instead.
    const r = await h.call("terminal_run", { session: "main", command: "true" });
    assert.equal(r.isError, true);
    assert.match(r.text, /unknown session "main" \(the tmux server that held it ended(?: \([^)]+\))?, and its sessions ended with it\)|tmux is not running/);
    assert.doesNotMatch(r.text, /detached/);
    const opened = await h.ok("terminal_open", { name: "reborn", command: "bash" });
    assert.equal(opened.name, "reborn");
    const run = await h.ok("terminal_run", { session: "reborn", command: "echo alive" });
    assert.equal(run.output, "alive");
    // After the server's end, a session closed since is told as closed, one never seen as unknown.
    await h.ok("terminal_close", { session: "reborn" });
    const closed = await h.call("terminal_send", { session: "reborn", text: "x" });
    assert.match(closed.text, /^unknown session "reborn" \(it was closed \(terminal_close\)\); /);
    const never = await h.call("terminal_send", { session: "neverseen", text: "x" });
    assert.match(never.text, /^unknown session "neverseen"; /);
  });
});

describe("a hive database that cannot be opened", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("hive calls fail with the reason and the file untouched; terminals keep working", async () => {
    const db = join(h.home, "hive.db");
    const garbage = "this is not a SQLite database\n".repeat(64);
    writeFileSync(db, garbage);
    const r = await h.call("agent_list", {});
    assert.equal(r.isError, true);
    assert.match(r.text, /hive database is corrupt or not a SQLite database: .*hive\.db/);
    assert.match(r.text, /move it aside/);
    assert.equal(readFileSync(db, "utf8"), garbage);
    const opened = await h.ok("terminal_open", { name: "still-fine", command: "bash" });
    assert.match(String(opened.session), /^th-/);
    const run = await h.ok("terminal_run", { session: "still-fine", command: "echo ok" });
    assert.equal(run.output, "ok");
  });
});
