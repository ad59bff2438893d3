// The CLI as its own door, started as a person or script starts it: a bare env (HOME and PATH,
// no LANG), from a folder that is not the repo, a fresh process per call. Usage errors are one
// line and exit 2, tool errors one line and exit 1, never a stack; hints name CLI commands
// (termhive wait …, --confirm), and the hint's command works when typed; the send --help
// examples work. (termhive wait: cli-wait.test.ts; close --all and reset: limits.test.ts.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";
import { assertOneLine, cliAsync, cliIn, shellLine } from "./cli-field.js";

describe("the CLI door: bare env, another folder, a fresh process per call", () => {
  let h: Harness;
  const cli = (...args: string[]) => cliIn(h, {}, args);
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("usage errors are one line on stderr and exit 2", async () => {
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
      [["serve", "--port", "99999"], /'99999' is invalid.*not a port/],
      [["dashboard", "--port", "web", "--no-open"], /'web' is invalid.*not a port/],
    ];
    const results = await Promise.all(cases.map(([args]) => cliAsync(h, args)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = results[i]!;
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
    const agent = cli("msg", "ghost", "hello");
    assertOneLine(agent, 1, "msg ghost");
    assert.match(agent.stderr, /unknown agent 'ghost'/);
    const status = cli("status", "bogus", "--agent", "x");
    assertOneLine(status, 2, "status bogus"); // a bad argument: usage
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
});
