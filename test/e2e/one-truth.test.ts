// One truth for every process: what a session is doing (its running command, last exit code,
// who is typing into it, its name) is the same in every termhive process on one
// TERMHIVE_HOME, and after a restart or a kill -9 of the process that saw it happen.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

function entry(list: Record<string, any>, name: string): Record<string, any> {
  const found = list.sessions.find((s: { name: string }) => s.name === name);
  assert.ok(found, `no ${name} in ${JSON.stringify(list)}`);
  return found;
}

describe("one truth across processes", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("running command and last exit code are seen by a second process (list, busy refusal, close)", async () => {
    await h.ok("terminal_open", { name: "busy1", command: "bash" });
    const failed = await h.ok("terminal_run", { session: "busy1", command: "(exit 3)" });
    assert.equal(failed.exit_code, 3);

    const idle = entry((await h.callOnce("terminal_list")).data, "busy1");
    assert.equal(idle.running, null);
    assert.equal(idle.last_exit_code, 3);

    const started = await h.ok("terminal_run", { session: "busy1", command: "sleep 30", timeout_s: 1 });
    assert.equal(started.running, true);

    const seen = entry((await h.callOnce("terminal_list")).data, "busy1");
    assert.equal(seen.running, "sleep 30");
    assert.equal(seen.last_exit_code, 3);

    const refused = await h.callOnce("terminal_run", { session: "busy1", command: "echo nope" });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /busy: `sleep 30` has been running for \d+ s/);

    const closeRefused = await h.callOnce("terminal_close", { session: "busy1" });
    assert.equal(closeRefused.isError, true, closeRefused.text);
    assert.match(closeRefused.text, /running `sleep 30`/);
    assert.ok(entry(await h.ok("terminal_list"), "busy1").alive, "the refused close must not kill the session");

    await h.ok("terminal_send", { session: "busy1", keys: ["C-c"] });
    const done = await h.ok("terminal_wait", { session: "busy1", for: "completion", timeout_s: 10 });
    assert.equal(done.exit_code, 130);
    const after = entry((await h.callOnce("terminal_list")).data, "busy1");
    assert.equal(after.running, null);
    assert.equal(after.last_exit_code, 130);
  });

  test("a command that ends while no termhive process is connected: the next one learns its end and exit code", async () => {
    const { pane } = await h.ok("terminal_open", { name: "alone", command: "bash" });
    const r = await h.ok("terminal_run", { session: "alone", command: "sleep 1; (exit 7)", timeout_s: 0.3 });
    assert.equal(r.running, true);
    await h.close(); // no termhive process is connected while it ends
    try {
      // The shell's next prompt, seen by tmux alone: the command ended with nobody listening.
      const deadline = Date.now() + 10_000;
      while (!/\(exit 7\)\n(.*\n)*[^\n]*[#$]\s*$/.test(h.tmux("capture-pane", "-p", "-t", pane).stdout.trimEnd())) {
        assert.ok(Date.now() < deadline, "the command did not end");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await endsAlone(h);
    } finally {
      await h.connect();
    }
  });

  async function endsAlone(h: Harness): Promise<void> {
    const later = entry((await h.callOnce("terminal_list")).data, "alone");
    assert.equal(later.running, null);
    assert.equal(later.last_exit_code, 7);
    const run = await h.callOnce("terminal_run", { session: "alone", command: "echo free" });
    assert.equal(run.isError, false, run.text);
    assert.equal(run.data.output, "free");
  }

  test("two processes running in one session at once: one runs, the other is refused naming what runs", async () => {
    await h.ok("terminal_open", { name: "shared-run", command: "bash" });
    const other = new Harness(h.home, h.env);
    await other.connect();
    try {
      // Both processes know the session before the race: adopting it in the middle of a round
      // (under load, longer than the first run took) made the second run start after the first
      // had ended, and both ran — rightly.
      await other.ok("terminal_read", { session: "shared-run" });
      for (let round = 0; round < 5; round++) {
        const [a, b] = await Promise.all([
          h.call("terminal_run", { session: "shared-run", command: `sleep 1; echo mine-a-${round}` }),
          other.call("terminal_run", { session: "shared-run", command: `sleep 1; echo mine-b-${round}` }),
        ]);
        const ok = [a, b].filter((r) => !r.isError);
        const refused = [a, b].filter((r) => r.isError);
        assert.equal(ok.length, 1, `exactly one runs: ${a.text} | ${b.text}`);
        assert.equal(refused.length, 1);
        const winner = ok[0] === a ? "a" : "b";
        assert.equal(ok[0]!.data.output, `mine-${winner}-${round}`);
        assert.equal(ok[0]!.data.exit_code, 0);
        assert.match(refused[0]!.text, new RegExp(`busy: \`sleep 1; echo mine-${winner}-${round}\``));
      }
    } finally {
      await other.close();
    }
  });

  test("kill -9 of the process running a command: no session stays busy with nothing running", async () => {
    await h.ok("terminal_open", { name: "orphan", command: "bash" });
    const killer = new Harness(h.home, h.env);
    await killer.connect();
    const pending = killer.call("terminal_run", { session: "orphan", command: "sleep 1; echo done-orphan" }).catch(() => undefined);
    await h.ok("terminal_wait", { session: "orphan", pattern: "sleep 1", timeout_s: 10 });
    process.kill(killer.pid, "SIGKILL");
    await pending;
    await killer.close();
    await h.ok("terminal_wait", { session: "orphan", for: "completion", timeout_s: 10 });
    const r = await h.callOnce("terminal_run", { session: "orphan", command: "echo free-again" });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.data.output, "free-again");
    const mine = await h.ok("terminal_run", { session: "orphan", command: "echo mine-too" });
    assert.equal(mine.output, "mine-too");
  });

  test("two processes opening the same name at once: exactly one succeeds, nothing left behind", async () => {
    const other = new Harness(h.home, h.env);
    await other.connect();
    try {
      for (let round = 0; round < 4; round++) {
        const name = `dup-${round}`;
        const [a, b] = await Promise.all([
          h.call("terminal_open", { name, command: "bash" }),
          other.call("terminal_open", { name, command: "bash" }),
        ]);
        const ok = [a, b].filter((r) => !r.isError);
        assert.equal(ok.length, 1, `exactly one opens ${name}: ${a.text} | ${b.text}`);
        assert.match([a, b].find((r) => r.isError)!.text, /already exists/);
        const list = await h.ok("terminal_list");
        assert.equal(list.sessions.filter((s: { name: string }) => s.name === name).length, 1);
        const panes = h.tmux("list-panes", "-s", "-t", "termhive:", "-F", "#{window_name}").stdout.split("\n");
        assert.equal(panes.filter((w) => w === name).length, 1, panes.join(","));
      }
    } finally {
      await other.close();
    }
  });

  test("a name freed by close can be opened again from another process", async () => {
    await h.ok("terminal_open", { name: "reuse", command: "bash" });
    await h.ok("terminal_close", { session: "reuse" });
    const again = await h.callOnce("terminal_open", { name: "reuse", command: "bash" });
    assert.equal(again.isError, false, again.text);
  });
});

describe("one truth across a restart", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  test("kill -9 while 10 loops run: a new process sees each end and exit code, and no line twice", async () => {
    const names = Array.from({ length: 10 }, (_, i) => `loop${i}`);
    await Promise.all(names.map((name) => h.ok("terminal_open", { name, command: "bash" })));
    await Promise.all(
      names.map((name, i) =>
        h.ok("terminal_run", { session: name, command: `for i in $(seq 1 30); do echo line-$i; sleep 0.1; done; (exit ${i})`, timeout_s: 0.2 }),
      ),
    );
    process.kill(h.pid, "SIGKILL");
    await h.close();
    await h.connect();
    const results = await Promise.all(names.map((name) => h.ok("terminal_wait", { session: name, for: "completion", timeout_s: 20 })));
    for (const [i, w] of results.entries()) {
      assert.equal(w.matched, true, JSON.stringify(w));
      assert.equal(w.exit_code, i, `${names[i]}: ${JSON.stringify(w)}`);
    }
    for (const name of names) {
      const all = await h.ok("terminal_read", { session: name, mode: "all", max_tokens: 20000 });
      const lines = (all.output as string).split("\n").filter((l) => /^line-\d+$/.test(l));
      assert.deepEqual(lines, Array.from({ length: 30 }, (_, k) => `line-${k + 1}`), `${name}:\n${all.output}`);
    }
  });

  test("a line range read in one process reads the same lines in another", async () => {
    await h.ok("terminal_open", { name: "lines", command: "bash", cols: 80 });
    // A line longer than the pane (tmux wraps it on screen) and 40 short ones.
    await h.ok("terminal_run", { session: "lines", command: "printf 'w%.0s' $(seq 1 200); echo; for i in $(seq 1 40); do echo row-$i; done" });
    const other = new Harness(h.home, h.env);
    await other.connect();
    try {
      await other.ok("terminal_list"); // adopts the session now, then follows it live
      await h.ok("terminal_run", { session: "lines", command: "echo tail-1; echo tail-2" });
      await other.ok("terminal_wait", { session: "lines", pattern: "tail-2\\n", timeout_s: 10 });
      const total = (await h.ok("terminal_read", { session: "lines", mode: "lines", from_line: 1, to_line: 1 })).line_count;
      const totalOther = (await other.ok("terminal_read", { session: "lines", mode: "lines", from_line: 1, to_line: 1 })).line_count;
      assert.equal(totalOther, total);
      for (const [from, to] of [[2, 6], [10, 14], [total - 4, total]] as const) {
        const mine = await h.ok("terminal_read", { session: "lines", mode: "lines", from_line: from, to_line: to });
        const theirs = await other.ok("terminal_read", { session: "lines", mode: "lines", from_line: from, to_line: to });
        const once = await h.callOnce("terminal_read", { session: "lines", mode: "lines", from_line: from, to_line: to });
        assert.equal(theirs.output, mine.output, `lines ${from}-${to}`);
        assert.equal(once.data.output, mine.output, `lines ${from}-${to} (fresh process)`);
      }
    } finally {
      await other.close();
    }
  });
});
