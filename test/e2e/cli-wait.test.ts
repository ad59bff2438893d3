// termhive wait, the verb CLI hints name: started the field way (bare env, another folder, a
// fresh process per call), without a server (the command was started by another process) and
// with one (the server holds the command's state).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { CLI, Harness } from "./harness.js";
import { cliIn } from "./cli-field.js";
import { serve, type Served } from "./serve-process.js";

describe("termhive wait without a server", () => {
  let h: Harness;
  const cli = (...args: string[]) => cliIn(h, {}, args);
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("termhive wait: completion of a command another process started, idle, exit and a timeout (exit status 124)", () => {
    assert.equal(cli("open", "-n", "w").status, 0);
    assert.equal(cli("run", "w", "echo earlier-$((3*3))").status, 0);
    // The hint's own flow without a server: the run's process is gone when wait starts.
    assert.equal(cli("run", "-t", "1", "w", "sleep 4; echo woke-$((2*21))").status, 124);
    const completed = cli("wait", "w", "-t", "30", "--json");
    assert.equal(completed.status, 0, completed.stderr + completed.stdout);
    assert.equal(completed.json.reason, "completion");
    // What came after the input, not the pane's whole adopted history (trial 15: pages of old output).
    assert.equal(completed.json.output, "woke-42", completed.stdout);
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

  test("termhive send, then termhive wait --pattern: the echo of the sent line is not the match, what the command prints is", () => {
    assert.equal(cli("open", "-n", "p").status, 0);
    assert.equal(cli("run", "p", "echo earlier-$((4*4))").status, 0);
    const gate = join(h.home, "cli-gate.fifo");
    assert.equal(spawnSync("mkfifo", [gate]).status, 0);
    // The command prints its mark only once the test opens the FIFO: until then only the echo of the sent line holds it.
    assert.equal(cli("send", "p", `cat '${gate}' >/dev/null; echo CLI-MARK-$((6*7))-DONE`).status, 0);
    const early = cli("wait", "p", "--pattern", "CLI-MARK-\\S*", "-t", "2", "--json");
    assert.equal(early.status, 124, `matched the sent line's echo: ${early.stdout}`);
    spawnSync("sh", ["-c", `: > '${gate}'`]);
    const printed = cli("wait", "p", "--pattern", "CLI-MARK-\\S*", "-t", "20", "--json");
    assert.equal(printed.status, 0, printed.stderr + printed.stdout);
    assert.equal(printed.json.match, "CLI-MARK-42-DONE", printed.stdout);
    // From the command's output on (the shell's next prompt may follow), not the adopted history before it.
    assert.equal(printed.json.output.split("\n")[0], "CLI-MARK-42-DONE", printed.stdout);
    assert.doesNotMatch(printed.json.output, /earlier-16/, printed.stdout);
  });
  // No shell integration (sh): no command records to cut the output at, only the typed line.
  test("termhive send, then termhive wait in a shell without integration: only what came after the sent line", () => {
    assert.equal(cli("open", "-n", "plain", "sh").status, 0);
    assert.equal(cli("send", "plain", "echo old-$((5*5))").status, 0);
    assert.equal(cli("wait", "plain", "--pattern", "old-25", "-t", "20").status, 0);
    // It exits after printing: the wait's end comes after the output, whenever the wait starts.
    assert.equal(cli("send", "plain", "echo new-$((6*6)); exit").status, 0);
    const waited = cli("wait", "plain", "--for", "exit", "-t", "20", "--json");
    assert.equal(waited.status, 0, waited.stderr + waited.stdout);
    assert.match(waited.json.output, /^new-36$/m, waited.stdout);
    assert.doesNotMatch(waited.json.output, /old-25|echo new/, waited.stdout);
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
