// The trial's case (issue 30 §6), through the built server and real shells: twenty messages
// queued to three shell agents, the server killed -9 once the shells had run exactly `killAt` of
// them (counted in what the shells wrote, not in what termhive says), a fresh server process
// started on the same home. Each message must run once, in order, within seconds of the restart;
// in the trial the 8 for the agent being typed to stayed queued (still after 90 s) behind its
// "working: took a typed message" while its shell showed the prompt.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { until } from "../until.js";
import { Harness } from "./harness.js";
import { logHas, logLines } from "./fake-agent-log.js";

const FAKE = resolve("test/fixtures/fake-agent.mjs");

// Bounds, for a loaded 2-core machine (load 5–20 from other work) with honest margins:
/** After a restart (from the new server's first answer: its start is the start-up bench's, and
 * took 1.6–5.5 s at load 20), the trial's remaining messages (up to 9 for one agent) all run
 * within this: measured 4.6 s at load 21 (the adoption 1.8 s, then ~0.35 s a message), 7 s at
 * load 20 with a build alongside; in the trial they never did (still queued at 90 s). */
const RESTART_DELIVERS_MS = 10_000;
/** After the new process adopted the panes, each agent's next message runs within this: ~0.1 s
 * measured at load 21; 0–0.33 s (6 runs, load 11) since a message the dead process had entered is
 * retaken at the adoption and the next one typed at once. Before that it waited for the outbox's
 * sweep (SWEEP_MS 1 s), twice when the dead process's turn still held idle: 3 s, 1 run in 8 at
 * CI's load. The dead process's "took a typed message" held it to 5 s after that status was
 * written, 1.6–4.5 s past the adoption. */
const ADOPTED_NEXT_MS = 2000;

describe("hive outbox: kill -9 while it types", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  const sibling = (): Promise<Harness> => h.sibling();

  test("kill -9 after Enter was pressed for a queued message, before the program acted on it: typed once, not again", async () => {
    const first = await sibling();
    const log = join(h.home, "lagged.log");
    // Enter is acted on 1.5 s after it arrives: the window between termhive pressing it and the program taking the text.
    const r = await first.ok("agent_spawn", { name: "lagged", command: `${process.execPath} ${FAKE} ${log} 300`, profile: "claude", env: { FAKE_AGENT_ENTER_LAG_MS: "1500" } });
    assert.equal(r.ready, "ready");
    await logHas(log, "ready");
    assert.equal((await first.ok("hive_wait", { targets: "lagged", for: "idle", timeout_s: 20 })).matched, true);
    const texts = ["lagged message one", "lagged message two", "lagged message three"];
    for (const text of texts) await first.ok("hive_message", { agents: { lagged: text } });
    await logHas(log, `done: ${texts[0]}`, 30_000);
    // The second message shows on the input line; Enter follows within a few hundred ms, and the
    // program acts on it 1.5 s later: the kill lands after the Enter (or, on a slow machine,
    // before it: then the text is on the line unsubmitted, and must be submitted, not retyped).
    await until("the second message on the input line", async () => (/> lagged message two/.test(String((await first.ok("terminal_read", { session: "lagged", mode: "screen" })).output)) ? true : undefined), 30_000, 20);
    await new Promise((done) => setTimeout(done, 700));
    process.kill(first.pid, "SIGKILL");
    await first.close();
    // The next process comes once the program took the text (no longer on its input line): it
    // must know from the queue that Enter was pressed, and not type the text again. (Killed
    // before the Enter, the program never takes it: then the text waits on the line, to be submitted.)
    await logHas(log, `accepted: ${texts[1]}`, 4000).catch(() => undefined);

    const next = await sibling();
    try {
      await next.ok("agent_list", {});
      await logHas(log, `done: ${texts[2]}`, 60_000);
      const accepted = logLines(log).filter((l) => l.startsWith("accepted: ") || l.startsWith("ignored: "));
      assert.deepEqual(accepted, texts.map((t) => `accepted: ${t}`), "each message once");
    } finally {
      await next.close();
    }
  });

  // At 3: the trial's moment (each agent has just taken its first); at 11: mid-queue.
  for (const killAt of [3, 11]) {
    test(`the trial: 20 messages queued to three shell agents, kill -9 once the shells ran ${killAt}: a new process delivers the rest once each, within ${RESTART_DELIVERS_MS / 1000} s of its start`, async () => {
      const base = await Harness.startField();
      try {
        const names = ["ta", "tb", "tc"].map((n) => `${n}${killAt}`);
        const out = Object.fromEntries(names.map((n) => [n, join(base.home, `${n}.out`)]));
        for (const name of names) await base.ok("agent_spawn", { name, command: "bash", profile: "shell" });
        assert.equal((await base.ok("hive_wait", { targets: names, for: "idle", mode: "all", timeout_s: 20 })).matched, true);
        // Busy, so what follows is queued: ten for the first agent, five for each of the others.
        await base.ok("hive_message", { agents: Object.fromEntries(names.map((n) => [n, "sleep 2"])) });
        const plan = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 0, 0, 0, 0].map((a, i) => ({ agent: names[a]!, line: `m${String(i + 1).padStart(2, "0")}` }));
        for (const { agent, line } of plan) {
          assert.equal((await base.ok("hive_message", { agents: { [agent]: `echo ${line} >> '${out[agent]}'` } })).queued, 1, `${line} queued`);
        }
        const received = () => names.flatMap((n) => linesOf(out[n]!));
        // Polled every 2 ms: a shell takes a message in a few hundred ms at best, so the kill lands
        // before a fourth; it is checked, not assumed.
        const seen = await until(`the shells to run ${killAt} messages`, () => (received().length >= killAt ? received().length : undefined), 30_000, 2);
        process.kill(base.pid, "SIGKILL");
        // At 3 each agent has run its first (they start together, the next comes ~0.2 s on): exactly
        // 3. Mid-queue the three run side by side, and two may write within one poll.
        if (killAt === 3) assert.equal(seen, killAt, `killed after exactly ${killAt} were run`);
        else assert.ok(seen >= killAt && seen < killAt + names.length, `killed after ${seen} were run (${killAt} meant)`);
        await base.close();

        const before = Object.fromEntries(names.map((n) => [n, linesOf(out[n]!).length]));
        const restartedAt = Date.now();
        const next = await base.sibling();
        try {
          const connected = Date.now() - restartedAt;
          const deliveredBy = connected + RESTART_DELIVERS_MS;
          await next.ok("agent_list", {}); // adopts the panes and their queues
          const adopted = Date.now() - restartedAt;
          // When each line first showed, for the failure's message.
          const seenAt = new Map<string, number>();
          const all = await until("every message run", () => {
            for (const line of received()) if (!seenAt.has(line)) seenAt.set(line, Date.now() - restartedAt);
            return seenAt.size >= plan.length ? Date.now() - restartedAt : undefined;
          }, RESTART_DELIVERS_MS + 30_000, 20).catch(() => undefined);
          const list = (await next.ok("agent_list", {})).agents as { name: string; status: string; status_detail?: string }[];
          const report = JSON.stringify({ connected, adopted, seenAt: [...seenAt], agents: list.map((a) => [a.name, a.status, a.status_detail ?? (a as { detail?: string }).detail]) });
          assert.ok(all !== undefined && all < deliveredBy, `all ${plan.length} run ${all ?? "never"} ms after the restart, the new server answering at ${connected} (bound ${RESTART_DELIVERS_MS} after that): ${report}`);
          // Exactly once, in order, judged by each shell's own output.
          for (const name of names) assert.deepEqual(linesOf(out[name]!), plan.filter((p) => p.agent === name).map((p) => p.line), `${name} ran each of its messages once, in order`);
          assert.deepEqual((await next.ok("hive_queue", {})).queued, []);
          const idle = await next.ok("hive_wait", { targets: names, for: "idle", mode: "all", timeout_s: 3 });
          assert.equal(idle.matched, true, `every agent idle at its prompt: ${JSON.stringify(idle)}`);
          // No agent held at "took a typed message" by the dead process's status: each one's next
          // message goes as soon as the new process has adopted its pane. Checked last, so it
          // hides nothing above. It failed about 1 run in 8 at load 3: the dead process had read
          // the status line "before" the last command at readline's redraw of the prompt, handled
          // after that quick command had ended, so the record and the line agreed and the
          // command was adopted as running (the unit test run-start-status plays it exactly).
          const held: string[] = [];
          for (const name of names) {
            const first = linesOf(out[name]!)[before[name]!];
            const at = first === undefined ? undefined : seenAt.get(first);
            if (at !== undefined && at - adopted >= ADOPTED_NEXT_MS) held.push(`${name}'s next message ran ${at - adopted} ms after the adoption (bound ${ADOPTED_NEXT_MS})`);
          }
          assert.deepEqual(held, [], `${held.join("; ")}: ${report}`);
        } finally {
          await next.close();
        }
      } finally {
        await base.destroy();
      }
    });
  }

});

function linesOf(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l !== "") : [];
}
