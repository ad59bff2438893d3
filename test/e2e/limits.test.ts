// Limits that keep a home from filling up, through real clients started the field way (bare
// env, another folder): TERMHIVE_MAX_SESSIONS refuses every open past it, naming the idle
// sessions; TERMHIVE_IDLE_CLOSE_S closes shells left at their prompt, with a hive event and an
// audit line, never a busy one or an agent's, once even with two servers watching. Clean-up by
// hand: termhive close --all and termhive reset.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, watch } from "node:fs";
import { join } from "node:path";
import { CLI, Harness } from "./harness.js";
import { assertOneLine, cliIn } from "./cli-field.js";

function auditLines(home: string): Record<string, any>[] {
  const path = join(home, "audit.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** Resolves with the first audit line matching `wanted`, woken by writes to the log (no polling). */
function auditLine(home: string, wanted: (e: Record<string, any>) => boolean, timeoutMs: number): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = auditLines(home).find(wanted);
      if (!found) return false;
      watcher.close();
      clearTimeout(timer);
      resolve(found);
      return true;
    };
    const watcher = watch(home, () => void check());
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`no matching audit line within ${timeoutMs} ms:\n${readFileSync(join(home, "audit.jsonl"), "utf8").slice(-3000)}`));
    }, timeoutMs);
    check();
  });
}

describe("TERMHIVE_MAX_SESSIONS", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField({ TERMHIVE_MAX_SESSIONS: "3" });
  });
  after(async () => h.destroy());

  test("past the limit terminal_open is refused naming the idle sessions; closing one makes room", async () => {
    await h.ok("terminal_open", { name: "old" });
    await h.ok("terminal_open", { name: "newer" });
    await h.ok("terminal_open", { name: "busy" });
    // Returns once the command has printed, i.e. has started (a bare send could still be on its way).
    const started = await h.ok("terminal_run", { session: "busy", command: "echo go-$((1+1)); sleep 60", until: "go-2", timeout_s: 30 });
    assert.equal(started.reason, "until");
    const refused = await h.call("terminal_open", { name: "one-too-many" });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /3 sessions are open, the limit is 3 \(TERMHIVE_MAX_SESSIONS\); nothing was opened/);
    // Longest idle first, with its idle seconds; the busy one is not offered.
    assert.match(refused.text, /close with terminal_close: old \(idle \d+ s\), newer \(idle \d+ s\)\./);
    assert.doesNotMatch(refused.text, /busy \(/);

    // Counted from tmux: a fresh process refuses too, and nothing was opened.
    const fresh = await h.callOnce("terminal_open", { name: "from-elsewhere" });
    assert.equal(fresh.isError, true);
    assert.match(fresh.text, /the limit is 3/);
    const names = (await h.ok("terminal_list")).sessions.map((s: { name: string }) => s.name).sort();
    assert.deepEqual(names, ["busy", "newer", "old"]);

    // The CLI says it in CLI words.
    const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home, TERMHIVE_MAX_SESSIONS: "3" };
    const cli = spawnSync(process.execPath, [CLI, "open", "-n", "cli-one"], { cwd: h.cwd, env, encoding: "utf8", timeout: 60_000 });
    assert.equal(cli.status, 1);
    assert.match(cli.stderr, /^termhive: .*close with termhive close <session>: (old|newer) \(idle \d+ s\), (old|newer) \(idle \d+ s\)\.\n$/);

    await h.ok("terminal_close", { session: "old" });
    const room = await h.ok("terminal_open", { name: "fits" });
    assert.equal(room.name, "fits");
  });

  test("the hive's opens and a throwaway run count too; a layout that would pass the limit opens nothing", async () => {
    // From the test above: busy, newer, fits.
    await h.ok("terminal_close", { session: "newer" });
    const layout = await h.call("hive_layout", { layout: "tiled", count: 2 });
    assert.equal(layout.isError, true);
    assert.match(layout.text, /2 sessions are open, 2 were asked for, the limit is 3 \(TERMHIVE_MAX_SESSIONS\); nothing was opened/);
    const names = async () => (await h.ok("terminal_list")).sessions.map((s: { name: string }) => s.name).sort();
    assert.deepEqual(await names(), ["busy", "fits"]);

    // One more fits (the list below shows it opened).
    await h.ok("agent_spawn", { name: "worker", command: "bash" });
    for (const [tool, args] of [
      ["agent_spawn", { name: "worker-2", command: "bash" }],
      ["hive_split", { session: "worker", direction: "right" }],
      ["terminal_run", { command: "echo throwaway" }],
    ] as const) {
      const refused = await h.call(tool, args);
      assert.equal(refused.isError, true, `${tool}: ${refused.text}`);
      assert.match(refused.text, /3 sessions are open, the limit is 3 \(TERMHIVE_MAX_SESSIONS\)/, tool);
    }
    assert.deepEqual(await names(), ["busy", "fits", "worker"]);
  });

  test("an invalid value is one clear line naming the variable", () => {
    const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home, TERMHIVE_MAX_SESSIONS: "0" };
    const r = spawnSync(process.execPath, [CLI, "ls"], { cwd: h.cwd, env, encoding: "utf8", timeout: 30_000 });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'termhive: TERMHIVE_MAX_SESSIONS="0" is invalid: use a whole number from 1 to 10000\n');
  });
});

describe("TERMHIVE_IDLE_CLOSE_S", () => {
  const LIMIT_S = 3;
  let h: Harness;
  let second: Harness;
  before(async () => {
    h = await Harness.startField({ TERMHIVE_IDLE_CLOSE_S: String(LIMIT_S) });
    // A second server on the same home runs its own closer: closing must still happen once.
    second = new Harness(h.home, h.env);
    second.bare = true;
    second.cwd = h.cwd;
    await second.connect();
  });
  after(async () => {
    await second?.close();
    await h.destroy();
  });

  test("a shell idle at its prompt is closed once, with an event and an audit line; busy and agent sessions stay", async () => {
    // Both set up before the idle one: were they closable, they would be due first.
    await h.ok("agent_spawn", { name: "keeper" });
    await h.ok("terminal_open", { name: "busy" });
    await h.ok("terminal_send", { session: "busy", text: "sleep 120" });
    const idle = await h.ok("terminal_open", { name: "idle" });
    const opened = Date.now();
    await second.ok("terminal_list"); // the second server now knows the session too

    const line = await auditLine(h.home, (e) => e.event === "idle-close", 30_000);
    assert.equal(line.name, "idle");
    assert.equal(line.session, idle.session);
    assert.ok(line.idle_s >= LIMIT_S, JSON.stringify(line));
    assert.ok(Date.now() - opened >= LIMIT_S * 1000 - 200, "not before the limit");
    assert.match(line.reason, /idle at its prompt for \d+ s \(TERMHIVE_IDLE_CLOSE_S=3\)/);

    const events = (await h.ok("hive_events", { kinds: ["lifecycle"] })).events.filter((e: { data: { event?: string } }) => e.data.event === "session_closed");
    assert.equal(events.length, 1, JSON.stringify(events));
    assert.equal(events[0].sessionId, idle.session);
    assert.deepEqual({ name: events[0].data.name, reason: events[0].data.reason }, { name: "idle", reason: "idle" });

    const listed = (await h.ok("terminal_list")).sessions.map((s: { name: string }) => s.name).sort();
    assert.deepEqual(listed, ["busy", "keeper"]);
    // Absence can only be shown by waiting: the second server adopted the session a moment after
    // it was opened, so its own deadline passes within one more limit. Still one close.
    await auditLine(h.home, () => false, LIMIT_S * 1000).catch(() => undefined);
    assert.equal(auditLines(h.home).filter((e) => e.event === "idle-close").length, 1);
  });
});

describe("clean-up by hand: termhive close --all and termhive reset", () => {
  let h: Harness;
  const cli = (...args: string[]) => cliIn(h, {}, args);
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("close --all closes every session and says how many; again, there are none", () => {
    for (const name of ["c1", "c2"]) assert.equal(cli("open", "-n", name).status, 0);
    const before = cli("ls", "--json").json.sessions.length;
    assert.ok(before >= 2);
    const closed = cli("close", "--all");
    assert.equal(closed.status, 0, closed.stderr);
    assert.match(closed.stdout, new RegExp(`^closed ${before} sessions: .*c1.*c2`));
    assert.deepEqual(cli("ls", "--json").json.sessions, []);
    const again = cli("close", "--all", "--json");
    assert.equal(again.status, 0);
    assert.deepEqual(again.json, { closed: 0, names: [] });
  });

  test("reset refuses without a terminal and --yes (exit 2), stops the tmux server with --yes", () => {
    assert.equal(cli("open", "-n", "r1").status, 0);
    const refused = cli("reset");
    assertOneLine(refused, 2, "reset");
    assert.match(refused.stderr, /pass --yes/);
    assert.equal(h.tmux("has-session").status, 0, "still running after a refused reset");
    const done = cli("reset", "--yes");
    assert.equal(done.status, 0, done.stderr);
    assert.match(done.stdout, new RegExp(`stopped the tmux server of ${h.home.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(1 session ended\\)`));
    assert.notEqual(h.tmux("has-session").status, 0, "tmux server gone");
    assert.equal(cli("reset", "--yes").stdout, `no tmux server is running for ${h.home}\n`);
  });

  test("reset on a terminal asks first; anything but yes stops nothing", () => {
    assert.equal(cli("open", "-n", "r2").status, 0);
    // script(1) gives the CLI a real terminal; its stdin is what the person answers.
    const line = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} reset`;
    const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home };
    const no = spawnSync("script", ["-qec", line, "/dev/null"], { cwd: h.cwd, env, input: "n\n", encoding: "utf8", timeout: 30_000 });
    assert.match(no.stdout, /Stop the tmux server of .* and its 1 session\? \[y\/N\]/);
    assert.match(no.stdout, /nothing stopped/);
    assert.equal(h.tmux("has-session").status, 0);
    const yes = spawnSync("script", ["-qec", line, "/dev/null"], { cwd: h.cwd, env, input: "y\n", encoding: "utf8", timeout: 30_000 });
    assert.match(yes.stdout, /stopped the tmux server/, yes.stdout);
    assert.notEqual(h.tmux("has-session").status, 0);
  });
});
