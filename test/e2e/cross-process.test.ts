// Several termhive processes on one TERMHIVE_HOME (one tmux server, a control-mode client
// each), started the field way (bare env, another folder): runs give exact results in
// sessions both processes follow (issue 20 §5), and a wait answers at once in a process that
// did not see the command end (issue 21 §2).
import { after, afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, watch } from "node:fs";
import { dirname, join } from "node:path";
import { Harness } from "./harness.js";
import { cliIn } from "./cli-field.js";
import { until } from "../until.js";

/** A second server process on the same home, env and folder as `h`. */
async function second(h: Harness): Promise<Harness> {
  const other = new Harness(h.home, h.env);
  other.bare = h.bare;
  other.cwd = h.cwd;
  await other.connect();
  return other;
}

describe("two server processes running commands at once (issue 20 §5)", () => {
  let a: Harness;
  let b: Harness;
  after(async () => {
    await b?.close();
    await a?.destroy();
  });

  test("every run's result is its own: output, exit code and reason, while the other process follows the same panes", async () => {
    a = await Harness.startField();
    b = await second(a);
    const servers = [a, b];
    // Each process runs in sessions of its own and both follow all of them (b adopts a's by
    // listing, a adopts b's). A session in each process redraws coloured lines without pause:
    // it keeps both processes' screen models busy, as 60 sessions at work do, which is when a
    // shell's next prompt could be taken for the prompt of a program the command started.
    const own = servers.map((_, p) => Array.from({ length: 4 }, (_, i) => `p${p}w${i}`));
    for (const [p, s] of servers.entries()) {
      for (const name of own[p]!) await s.ok("terminal_open", { name, command: "bash" });
      await s.ok("terminal_open", { name: `noise${p}`, command: "bash" });
      await s.ok("terminal_send", { session: `noise${p}`, text: "while :; do for i in $(seq 1 40); do printf '\\e[1;3%dm%05d busy\\e[0m\\n' $((i % 8)) $i; done; done", enter: true });
    }
    for (const s of servers) await s.ok("terminal_list");

    const wrong: string[] = [];
    let runs = 0;
    const RUNS_PER_SESSION = 40;
    await Promise.all(
      servers.flatMap((s, p) =>
        own[p]!.map(async (name) => {
          for (let n = 0; n < RUNS_PER_SESSION; n++) {
            // A quiet moment, then output: the run is judged while the command still runs.
            const k = (n % 9) + 1;
            const r = await s.call("terminal_run", { session: name, command: `sleep 0.0${k}; seq 1 ${k * 100} | tail -n 1`, timeout_s: 60 });
            runs++;
            const d = r.data;
            if (r.isError || d.output !== String(k * 100) || d.exit_code !== 0 || d.reason !== "osc133") {
              wrong.push(`${name} #${n}: ${r.isError ? r.text : `${JSON.stringify(d.output)} exit ${d.exit_code} reason ${d.reason}`}`);
            }
          }
        }),
      ),
    );
    for (const [p, s] of servers.entries()) await s.ok("terminal_send", { session: `noise${p}`, keys: ["C-c"] });
    assert.equal(runs, 2 * 4 * RUNS_PER_SESSION);
    assert.deepEqual(wrong, [], `${wrong.length} of ${runs} runs gave a wrong result`);
  });
});

describe("a wait in another process sees a command that already ended (issue 21 §2)", () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0).reverse()) await h.destroy();
  });

  test("termhive wait in a fresh process, after a run another process started has ended, answers at once with its exit code and output", async () => {
    const h = await Harness.startField();
    harnesses.push(h);
    await h.ok("terminal_open", { name: "done", command: "bash" });
    const ran = await h.ok("terminal_run", { session: "done", command: "echo finished-$((6*7)); false" });
    assert.equal(ran.exit_code, 1);
    const started = Date.now();
    const waited = cliIn(h, {}, ["wait", "done", "-t", "20", "--json"]);
    assert.equal(waited.status, 0, waited.stderr + waited.stdout);
    assert.equal(waited.json.reason, "completion");
    assert.equal(waited.json.exit_code, 1);
    assert.match(waited.json.output, /^finished-42$/m);
    assert.ok(Date.now() - started < 15_000, `answered after ${Date.now() - started} ms (the timeout is 20 s)`);
  });

  test("terminal_wait in a second server, started after the command ended, answers at once", async () => {
    const h = await Harness.startField();
    harnesses.push(h);
    await h.ok("terminal_open", { name: "ended", command: "bash" });
    const ran = await h.ok("terminal_run", { session: "ended", command: "echo over-$((2*21)); (exit 7)" });
    assert.equal(ran.exit_code, 7);
    const other = await second(h);
    try {
      const waited = await other.ok("terminal_wait", { session: "ended", for: "completion", timeout_s: 20 });
      assert.equal(waited.matched, true, JSON.stringify(waited));
      assert.equal(waited.exit_code, 7);
      assert.match(waited.output, /^over-42$/m);
      assert.ok(waited.duration_ms < 15_000, `answered after ${waited.duration_ms} ms`);
    } finally {
      await other.close();
    }
  });

  test("kill -9 of the server while a command runs; it ends while none runs; the restarted server's wait answers at once", async () => {
    const h = await Harness.startField();
    harnesses.push(h);
    await h.ok("terminal_open", { name: "k", command: "bash" });
    // The marker file tells when the command has ended (no termhive process is there to see it).
    const marker = `${h.home}/ended`;
    const slow = await h.ok("terminal_run", { session: "k", command: `sleep 1; echo late-$((40+2)); touch '${marker}'; (exit 5)`, timeout_s: 0.2 });
    assert.equal(slow.reason, "timeout");
    process.kill(h.pid, "SIGKILL");
    await h.close();
    await waitForFile(marker, 20_000);
    await h.connect();
    const waited = await h.ok("terminal_wait", { session: "k", for: "completion", timeout_s: 20 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    assert.equal(waited.exit_code, 5);
    assert.match(waited.output, /^late-42$/m);
    assert.ok(waited.duration_ms < 15_000, `answered after ${waited.duration_ms} ms`);
  });
});

async function waitForFile(path: string, timeoutMs: number): Promise<void> {
  if (existsSync(path)) return;
  await new Promise<void>((resolve, reject) => {
    const watcher = watch(dirname(path), () => {
      if (!existsSync(path)) return;
      clearTimeout(timer);
      watcher.close();
      resolve();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`${path} did not appear within ${timeoutMs} ms`));
    }, timeoutMs);
    if (existsSync(path)) {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
  });
}

describe("two server processes typing into one session", () => {
  let a: Harness;
  let b: Harness;
  after(async () => {
    await b?.close();
    await a?.destroy();
  });

  // The user trial (#9): a run from another process Ctrl-C'd a long line a terminal_send was
  // still typing and typed its own into the middle of it. The typing turn is the pane's now:
  // the run waits for the send's last key, and each line runs whole.
  test("a run from another process waits until a long send has typed its last key; both lines run whole", async () => {
    a = await Harness.startField();
    b = await second(a);
    await a.ok("terminal_open", { name: "shared", command: "bash" });
    await b.ok("terminal_read", { session: "shared" });
    const counted = join(a.home, "counted.txt");
    const long = `echo ${"a".repeat(60_000)} | wc -c > '${counted}'`;
    const sending = a.ok("terminal_send", { session: "shared", text: long });
    await until("the send to be typing", async () => ((await b.ok("terminal_read", { session: "shared", mode: "screen" })).output.includes("a".repeat(60)) ? true : undefined), 20_000, 20);
    const run = await b.ok("terminal_run", { session: "shared", command: "echo B-RAN", timeout_s: 60 });
    assert.equal((await sending).sent_bytes > 60_000, true);
    assert.equal(run.output, "B-RAN", JSON.stringify(run));
    assert.equal(run.exit_code, 0, JSON.stringify(run));
    // The send's line ran whole, before the run's: wc counted every character of it.
    assert.equal(readFileSync(counted, "utf8").trim(), "60001");
  });
});
