// The CLI as its own door, started as a person or script starts it: a bare env (HOME and PATH,
// no LANG), from a folder that is not the repo, a fresh process per call. Usage errors are one
// line and exit 2, tool errors one line and exit 1, never a stack; hints name CLI commands
// (termhive wait …, --confirm), and the hint's command works when typed; the send --help
// examples work; close --all and reset clean up.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { CLI, Harness } from "./harness.js";
import { serve, type Served } from "./serve-process.js";

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

function cliIn(h: Harness, extraEnv: Record<string, string>, args: string[], timeout = 60_000): Ran {
  const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home, ...extraEnv };
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: h.cwd, env, encoding: "utf8", timeout });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** Runs a line as a person types it (shell quoting), `termhive` being the built CLI. */
function shellLine(h: Harness, line: string): Ran {
  const env = { HOME: h.env.HOME!, PATH: process.env.PATH!, TERMHIVE_HOME: h.home };
  const r = spawnSync("bash", ["-c", `termhive() { ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"; }\n${line}`], { cwd: h.cwd, env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json: undefined };
}

function assertOneLine(r: Ran, status: number, what: string): void {
  assert.equal(r.status, status, `${what}: exit ${r.status}\n${r.stderr}${r.stdout}`);
  assert.match(r.stderr, /^termhive: [^\n]+\n$/, `${what}: one line on stderr, got ${JSON.stringify(r.stderr)}`);
  assert.doesNotMatch(r.stderr, /\bat .*\.js:\d+/, `${what}: no stack`);
}

describe("the CLI door: bare env, another folder, a fresh process per call", () => {
  let h: Harness;
  const cli = (...args: string[]) => cliIn(h, {}, args);
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("usage errors are one line on stderr and exit 2", () => {
    const cases: [string[], RegExp][] = [
      [["read", "-m", "bogus", "x"], /'bogus' is invalid.*auto, new, screen/],
      [["run", "-t", "abc", "x", "true"], /'abc' is invalid/],
      [["wait", "x", "--for", "ever"], /'ever' is invalid/],
      [["open", "--rows", "many"], /'many' is invalid/],
      [["bogus"], /unknown command 'bogus'/],
      [["sen", "x"], /unknown command 'sen' \(Did you mean send\?\)/],
      [["run"], /missing required argument 'session'/],
      [["read", "--no-such-flag", "x"], /unknown option '--no-such-flag'/],
      [["close"], /missing required argument 'session' \(or --all\)/],
      [["close", "x", "--all"], /not both/],
    ];
    for (const [args, message] of cases) {
      const r = cli(...args);
      assertOneLine(r, 2, args.join(" "));
      assert.match(r.stderr, message, args.join(" "));
      assert.equal(r.stdout, "", args.join(" "));
    }
  });

  test("tool errors are one line and exit 1, in CLI words", () => {
    const r = cli("read", "ghost");
    assertOneLine(r, 1, "read ghost");
    assert.match(r.stderr, /unknown session "ghost"/);
    assert.match(r.stderr, /termhive open/);
    assert.doesNotMatch(r.stderr, /terminal_/);
    const json = cli("run", "ghost", "--json", "true");
    assert.equal(json.status, 1);
    assert.equal(json.json.code, "not_found");
    assert.doesNotMatch(json.json.error, /terminal_/);
  });

  test("an unexpected error is one line; TERMHIVE_DEBUG=1 adds the stack", () => {
    const plain = cli("serve", "--port", "0", "--auth", "maybe");
    assertOneLine(plain, 1, "serve --auth maybe");
    assert.match(plain.stderr, /--auth must be on or off/);
    const debug = cliIn(h, { TERMHIVE_DEBUG: "1" }, ["serve", "--port", "0", "--auth", "maybe"]);
    assert.equal(debug.status, 1);
    assert.match(debug.stderr, /^termhive: --auth must be on or off[^\n]*\n.*\n\s+at /s);
  });

  test("hints name CLI commands, and the commands they name work", () => {
    assert.equal(cli("open", "-n", "hint").status, 0);
    const slow = cli("run", "-t", "1", "hint", "sleep 2; echo slept-$((40+2))");
    assert.equal(slow.status, 124, slow.stderr + slow.stdout);
    assert.match(slow.stdout, /Wait more with termhive wait hint, read with termhive read hint, or interrupt with termhive send hint -k C-c\./);
    assert.doesNotMatch(slow.stdout, /terminal_|"session"/);
    // A waited-for pattern (the command started in another process).
    assert.equal(cli("wait", "hint", "--pattern", "slept-4[2]", "-t", "20").status, 0);
    const slowJson = cli("run", "-t", "1", "--json", "hint", "sleep 2; echo slept-again");
    assert.match(slowJson.json?.hint, /termhive wait hint/, slowJson.stdout);
    const waited = cli("wait", "hint", "--pattern", "slept-ag[a]in", "-t", "20", "--json");
    assert.equal(waited.status, 0, waited.stderr + waited.stdout);
    assert.equal(waited.json.matched, true);
    assert.equal(waited.json.match, "slept-again");

    const refused = cli("run", "hint", "rm -rf /");
    assertOneLine(refused, 1, "refused");
    assert.match(refused.stderr, /resend with --confirm\./);
    assert.doesNotMatch(refused.stderr, /confirm: true/);

    // The fold marker names a `termhive read` that returns exactly the hidden lines.
    const long = cli("run", "--max-tokens", "100", "hint", "seq 1 3000");
    assert.equal(long.status, 0, long.stderr);
    const marker = /… (\d+) lines hidden: (termhive read hint -m lines --from (\d+) --to (\d+))/.exec(long.stdout);
    assert.ok(marker, long.stdout);
    assert.doesNotMatch(long.stdout, /terminal_read/);
    const hidden = shellLine(h, `${marker[2]} --max-tokens 200000 --json`);
    assert.equal(hidden.status, 0, hidden.stderr);
    const lines = JSON.parse(hidden.stdout).output.split("\n");
    assert.equal(lines.length, Number(marker[1]));
    const [first] = lines;
    assert.match(first, /^\d+$/);
    assert.deepEqual(lines, Array.from({ length: lines.length }, (_, i) => String(Number(first) + i)));
  });

  test("termhive wait: idle, exit and a timeout (exit status 124)", () => {
    assert.equal(cli("open", "-n", "w").status, 0);
    const idle = cli("wait", "w", "--for", "idle", "-t", "20", "--json");
    assert.equal(idle.status, 0, idle.stderr + idle.stdout);
    assert.equal(idle.json.reason, "idle");
    const none = cli("wait", "w", "--pattern", "never-printed-[x]", "-t", "1");
    assert.equal(none.status, 124);
    assert.match(none.stdout, /timeout after \d+ ms: not matched/);
    assert.equal(cli("send", "w", "exit 3").status, 0);
    const exited = cli("wait", "w", "--for", "exit", "-t", "20", "--json");
    assert.equal(exited.status, 0, exited.stderr + exited.stdout);
    assert.equal(exited.json.exit_code, 3, exited.stdout);
  });

  test("every `send --help` example works as typed", () => {
    const help = cli("send", "--help");
    assert.equal(help.status, 0);
    const examples = help.stdout
      .split("\n")
      .map((line) => /^\s+(termhive send \S+.*?)(?:\s{2,}.*)?$/.exec(line)?.[1])
      .filter((line): line is string => line !== undefined);
    assert.ok(examples.length >= 3, help.stdout);
    assert.equal(cli("open", "-n", "dev").status, 0);
    assert.equal(cli("open", "-n", "vim", "--", "vim", "-u", "NONE", "-i", "NONE").status, 0);
    assert.equal(cli("send", "vim", "--no-enter", "i").status, 0); // into insert mode, as a person would be
    for (const line of examples) {
      const r = shellLine(h, line);
      assert.equal(r.status, 0, `${line}: ${r.stderr}${r.stdout}`);
    }
    const vim = cli("wait", "vim", "--for", "exit", "-t", "20", "--json");
    assert.equal(vim.json?.matched, true, `vim quit by the examples: ${vim.stdout}${vim.stderr}`);
    const dev = cli("read", "dev", "-m", "all", "--json");
    assert.match(dev.json.output, /^hello$/m);
  });

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

describe("termhive wait against a running server (the command's state lives there)", () => {
  let s: Served;
  before(async () => {
    s = await serve();
  });
  after(async () => s?.stop());

  test("a run that timed out is waited for to completion with the hint's command", () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env: s.env, cwd: join(s.home, ".."), encoding: "utf8", timeout: 60_000 });
    assert.equal(run("open", "-n", "sw").status, 0);
    const slow = run("run", "-t", "1", "sw", "sleep 2; echo done-$((6*7)); false");
    assert.equal(slow.status, 124);
    const cmd = /Wait more with (termhive wait sw)[,.]/.exec(slow.stdout);
    assert.ok(cmd, slow.stdout);
    const waited = run(...cmd[1]!.split(" ").slice(1), "--json");
    assert.equal(waited.status, 0, waited.stderr + waited.stdout);
    const r = JSON.parse(waited.stdout);
    assert.equal(r.reason, "completion");
    assert.equal(r.exit_code, 1);
    assert.match(r.output, /done-42/);
  });
});
