// Patterns, watchers and questions judge what the program printed, never the echo of what
// termhive typed (issue 31 §2): the line a shell echoes while it reads (OSC 133 B to C), its
// redraws and paste highlighting, and the echo of text typed into a program without marks.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { E2E_BACKEND, Harness } from "./harness.js";
import { until } from "../until.js";

type Question = { digest: string; text: string; choices: string[] };
type Listed = { name: string; status: string; question: Question | null };
type HiveEvent = { id: number; agent: string | null; kind: string; data: Record<string, any> };

const lines = (text: string) => text.split("\n").map((l) => l.trim());

describe("what a pattern sees", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h?.destroy());

  for (const shell of ["bash", "zsh", "fish"]) {
    test(`${shell}: terminal_wait's pattern waits for the output, not the echo of the typed line`, async () => {
      await h.ok("terminal_open", { name: `w-${shell}`, command: shell });
      await h.ok("terminal_send", { session: `w-${shell}`, text: "sleep 1.5; echo GO-NOW" });
      const w = await h.ok("terminal_wait", { session: `w-${shell}`, pattern: "GO-NOW", timeout_s: 20 });
      assert.equal(w.matched, true);
      // Matched on the program's own line: it is in the output the wait returns.
      assert.ok(lines(w.output).includes("GO-NOW"), JSON.stringify(w.output));
    });
  }

  // The pty backend's sessions belong to the process that opened them.
  test("a second server process following the session waits for the output too", { skip: E2E_BACKEND === "pty" }, async () => {
    await h.ok("terminal_open", { name: "shared", command: "bash" });
    const other = new Harness(h.home, h.env);
    other.bare = true;
    other.cwd = h.cwd;
    await other.connect();
    try {
      // The other process adopts the pane and follows its output from here.
      await other.ok("terminal_read", { session: "shared" });
      const waiting = other.ok("terminal_wait", { session: "shared", pattern: "CROSS-GO", timeout_s: 20 });
      await h.ok("terminal_send", { session: "shared", text: "sleep 1.5; echo CROSS-GO" });
      const w = await waiting;
      assert.equal(w.matched, true);
      assert.ok(lines(w.output).includes("CROSS-GO"), JSON.stringify(w.output));
    } finally {
      await other.close();
    }
  });

  test("terminal_run's until in a REPL (no shell marks) waits for the program's output, not the echo", async () => {
    await h.ok("terminal_open", { name: "py", command: "python3 -q" });
    await h.ok("terminal_wait", { session: "py", pattern: ">>> $", timeout_s: 20 });
    const r = await h.ok("terminal_run", { session: "py", command: "import time; time.sleep(1.5); print('MARK' + '-Q', 'UNTIL-Q')", until: "UNTIL-Q", timeout_s: 20 });
    assert.equal(r.reason, "until", JSON.stringify(r));
    assert.ok(lines(r.output).includes("MARK-Q UNTIL-Q"), JSON.stringify(r.output));
  });

});

describe("watchers and questions of a shell agent", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h?.destroy());

  test("terminal_list's running is the command as typed, once (a pasted message redrawn by the shell)", async () => {
    await h.ok("agent_spawn", { name: "runs", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "runs", for: "idle", timeout_s: 20 })).matched, true);
    await h.ok("hive_message", { agents: { runs: "sleep 3; echo slept" } });
    const running = await until("the command to be listed as running", async () => {
      const s = (await h.ok("terminal_list", {})).sessions.find((x: { name: string }) => x.name === "runs");
      return s?.running ?? undefined;
    });
    assert.equal(running, "sleep 3; echo slept");
  });

  test("hive_wait's pattern waits for the program's line, not the typed one", async () => {
    await h.ok("agent_spawn", { name: "hw", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "hw", for: "idle", timeout_s: 20 })).matched, true);
    const waiting = h.ok("hive_wait", { targets: "hw", for: "pattern", pattern: "WAIT-GO", timeout_s: 20 });
    await h.ok("hive_message", { agents: { hw: "sleep 1.5; echo WAIT-GO" } });
    assert.equal((await waiting).matched, true);
    // Matched on the printed line: it is there the moment the wait returns.
    const read = await h.ok("terminal_read", { session: "hw", mode: "screen" });
    assert.ok(lines(read.output).includes("WAIT-GO"), JSON.stringify(read.output));
  });

  test("a silent command's hidden command line does not make its prompt look idle", async () => {
    await h.ok("agent_spawn", { name: "quiet", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "quiet", for: "idle", timeout_s: 20 })).matched, true);
    // Longer than a typed message's working is held against the screen (5 s): the screen decides.
    await h.ok("hive_message", { agents: { quiet: "sleep 7; echo SLEPT-OK" } });
    assert.equal((await h.ok("hive_wait", { targets: "quiet", for: "idle", timeout_s: 20 })).matched, true);
    const read = await h.ok("terminal_read", { session: "quiet", mode: "screen" });
    assert.ok(lines(read.output).includes("SLEPT-OK"), JSON.stringify(read.output));
  });

  test("hive_watch fires on the program's line only, and the line is clean", async () => {
    await h.ok("agent_spawn", { name: "sh1", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "sh1", for: "idle", timeout_s: 20 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    await h.ok("hive_watch", { targets: "sh1", pattern: "FATAL" });
    // The typed line holds the word; only the second command prints it.
    await h.ok("hive_message", { agents: { sh1: "echo quiet # FATAL typed, not printed" } });
    assert.equal((await h.ok("terminal_wait", { session: "sh1", pattern: "^quiet", timeout_s: 20 })).matched, true);
    await h.ok("hive_message", { agents: { sh1: "printf 'one\\rFATAL-%s\\n' $((1+1))" } });
    const hits = await until("the printed FATAL line's watch event", async () => {
      const events = (await h.ok("hive_events", { since: cursor, kinds: ["watch"], limit: 1000 })).events as HiveEvent[];
      return events.some((e) => String(e.data.line).includes("FATAL-2")) ? events : undefined;
    });
    assert.deepEqual(hits.map((e) => e.data.line), ["FATAL-2"], JSON.stringify(hits.map((e) => e.data)));
    // A match that spans a backspace is carried as drawn.
    await h.ok("terminal_send", { session: "sh1", text: "printf 'BS-%s\\bZ\\n' 1" });
    const w = await h.ok("terminal_wait", { session: "sh1", pattern: "BS-\\d[\\s\\S]Z", timeout_s: 20 });
    assert.equal(w.match, "BS-Z", JSON.stringify(w));
  });

  test("a shell's [y/N] question is the one the program printed; answered, it is gone", async () => {
    await h.ok("agent_spawn", { name: "sh2", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "sh2", for: "idle", timeout_s: 20 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    // The typed line holds the question's words a second before the program asks them.
    await h.ok("hive_message", { agents: { sh2: "sleep 1.5; read -p 'Continue? [y/N] ' a; echo got-$a" } });
    assert.equal((await h.ok("hive_wait", { targets: "sh2", for: "waiting_for_input", timeout_s: 20 })).matched, true);
    const listed = (await h.ok("agent_list", {})).agents.find((a: Listed) => a.name === "sh2") as Listed;
    assert.equal(listed.question?.text, "Continue? [y/N]", JSON.stringify(listed));
    const asked = (await h.ok("hive_events", { since: cursor, targets: "sh2", kinds: ["status"], limit: 1000 })).events as HiveEvent[];
    const questions = asked.filter((e) => e.data.status === "waiting_for_input").map((e) => e.data.question);
    assert.deepEqual([...new Set(questions)], [listed.question!.digest], JSON.stringify(asked.map((e) => e.data)));

    const answered = await h.call("hive_answer", { agent: "sh2", answer: "y", question: listed.question!.digest });
    assert.equal(answered.isError, false, answered.text);
    assert.equal(answered.data.gone, true, answered.text);
    assert.equal(answered.data.now.question, null, answered.text);
    assert.doesNotMatch(answered.text, /another one is up/);
    // The answer's echo is not output; the line the program printed after it is.
    assert.equal((await h.ok("terminal_wait", { session: "sh2", pattern: "^got-y$", timeout_s: 20 })).matched, true);
    const sent = await h.ok("hive_message", { agents: { sh2: "echo after-answer" } });
    assert.equal(sent.delivered, 1, JSON.stringify(sent));
  });
});
