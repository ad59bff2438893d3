// What a fresh-clone user trial found on main (session 12): credentials in hive events and the
// audit log, hive_wait on an exited pane, agent_restore's HOME, the running command of a long
// typed message, and what a waiting notice says. Through the built server, bare env, a cwd
// that is not the repo; real bash in real tmux.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2E_BACKEND, Harness } from "./harness.js";
import { until } from "../until.js";
import { Receiver } from "../unit/hive/notify/receiver.js";

type HiveEvent = { id: number; agent: string | null; kind: string; data: Record<string, any> };

// Built at run time so this file holds no credential-shaped literal.
const TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789";

describe("what a user trial found", () => {
  let h: Harness;
  let receiver: Receiver;
  before(async () => {
    receiver = await Receiver.start([200]);
    h = await Harness.startField({ TERMHIVE_NOTIFY_URL: `${receiver.url}/hook/trial` });
    // Every change counts (no debounce); read when the process opens the hive.
    writeFileSync(join(h.home, "notify.json"), JSON.stringify({ debounce_s: 0 }));
  });
  after(async () => {
    await h?.destroy();
    await receiver?.close();
  });

  const spawnShell = async (name: string, env?: Record<string, string>) => {
    await h.ok("agent_spawn", { name, command: "bash", profile: "shell", ...(env ? { env } : {}) });
    assert.equal((await h.ok("hive_wait", { targets: name, for: "idle", timeout_s: 20 })).matched, true);
  };

  test("a watcher's hit on a line with a credential: hive_events and the audit log carry it masked", async () => {
    await spawnShell("nora");
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor as number;
    await h.ok("hive_watch", { targets: "nora", pattern: "FATAL", label: "fatal" });
    await h.ok("hive_message", { agents: { nora: `echo "FATAL: disk on fire token=${TOKEN}"` } });
    const hit = await until("the watcher to fire", async () => {
      const events = (await h.ok("hive_events", { since: cursor, kinds: ["watch"], limit: 100 })).events as HiveEvent[];
      return events.find((e) => e.data.line !== undefined);
    });
    assert.match(hit.data.line, /FATAL: disk on fire token=\[REDACTED:github-token\]/, JSON.stringify(hit.data));
    const all = JSON.stringify((await h.ok("hive_events", { since: 0, limit: 1000 })).events);
    assert.ok(!all.includes(TOKEN), "an event carries the token unmasked");
    const audit = readFileSync(join(h.home, "audit.jsonl"), "utf8");
    assert.ok(audit.includes("[REDACTED:github-token]"), "the audit log's input line is there, masked");
    assert.ok(!audit.includes(TOKEN), "the audit log carries the token unmasked");
  });

  test("hive_wait on an agent whose program exited fails at once, naming the exit, in this process and another", async () => {
    await h.ok("terminal_open", { name: "dead" });
    await h.ok("agent_register", { name: "deadag", session: "dead" });
    await h.call("terminal_run", { session: "dead", command: "exit 1" });
    // Judged by its answer, not its time: a wait that ran to timeout_s says "timeout", not this.
    const r = await h.call("hive_wait", { targets: "deadag", for: "idle", timeout_s: 15 });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /cannot be met any more.*exit/, r.text);

    // Another process, waiting when the exit comes.
    await spawnShell("lateag");
    if (E2E_BACKEND === "pty") return; // pty sessions belong to the process that opened them
    const other = await h.sibling();
    try {
      // The sibling follows the pane; its wait is judged against the exit whenever it comes.
      assert.ok((await other.ok("agent_list", {})).agents.some((a: { name: string }) => a.name === "lateag"));
      const waiting = other.call("hive_wait", { targets: "lateag", for: "waiting_for_input", timeout_s: 30 });
      await h.ok("hive_send", { targets: "lateag", text: "exit 3" });
      const w = await waiting;
      assert.equal(w.isError, true, w.text);
      assert.match(w.text, /cannot be met any more.*exit/, w.text);
    } finally {
      await other.close();
    }
  });

  test("the waiting notice of a shell question says the question, not the screen above it", async () => {
    await spawnShell("deployer");
    await h.ok("hive_message", { agents: { deployer: "echo earlier-output-xyz" } });
    assert.equal((await h.ok("hive_wait", { targets: "deployer", for: "idle", timeout_s: 20 })).matched, true);
    const before = receiver.received.length;
    await h.ok("hive_message", { agents: { deployer: "read -p 'Deploy to prod? [y/N] ' a" } });
    assert.equal((await h.ok("hive_wait", { targets: "deployer", for: "waiting_for_input", timeout_s: 20 })).matched, true);
    const notice = await until("the waiting notice", async () =>
      receiver.received.slice(before).map((r) => JSON.parse(r.body) as { text: string }).find((b) => /deployer is waiting/.test(b.text)));
    assert.match(notice.text, /Deploy to prod\? \[y\/N\]/, notice.text);
    assert.ok(!notice.text.includes("earlier-output-xyz"), notice.text);
    assert.ok(!notice.text.includes("read -p"), notice.text);
    await h.ok("hive_answer", { agent: "deployer", answer: "n" });
  });

  test("a long typed message's running command is the command, once, from hive_message and terminal_send", async () => {
    // A short prompt (cwd /tmp), as the trial had: bash's echo of the pasted line, redrawn,
    // read back as "echo BOOM-1; read -p 'Secho BOOM-1; read -p 'Ship it? …".
    await h.ok("agent_spawn", { name: "wanda", command: "bash", profile: "shell", cwd: "/tmp" });
    assert.equal((await h.ok("hive_wait", { targets: "wanda", for: "idle", timeout_s: 20 })).matched, true);
    const command = "echo BOOM-1; read -p 'Ship it? [y/N] ' a; echo shipped-$a";
    await h.ok("hive_message", { agents: { wanda: command } });
    assert.equal((await h.ok("hive_wait", { targets: "wanda", for: "waiting_for_input", timeout_s: 20 })).matched, true);
    const listed = (await h.ok("terminal_list", {})).sessions.find((s: { name: string }) => s.name === "wanda");
    assert.equal(listed.running, command);
    await h.ok("hive_answer", { agent: "wanda", answer: "y" });
    assert.equal((await h.ok("hive_wait", { targets: "wanda", for: "idle", timeout_s: 20 })).matched, true);

    await h.ok("terminal_open", { name: "gar", cwd: "/tmp" });
    const typed = command.replace("BOOM-1", "X-1");
    await h.ok("terminal_send", { session: "gar", text: typed });
    const running = await until("the command to be listed as running", async () =>
      (await h.ok("terminal_list", {})).sessions.find((s: { name: string }) => s.name === "gar")?.running ?? undefined);
    assert.equal(running, typed);
  });

  test("agent_restore without env starts the agent in the HOME it was spawned with", { skip: E2E_BACKEND === "pty" }, async () => {
    const home = join(h.home, "agent home");
    mkdirSync(home);
    await spawnShell("homer", { HOME: home });
    assert.equal(h.tmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", { name: "homer" });
    assert.equal(r.restored[0].ok, true, JSON.stringify(r));
    assert.ok(!(r.restored[0].env_missing ?? []).includes("HOME"), JSON.stringify(r));
    const run = await h.ok("terminal_run", { session: "homer", command: 'echo "H=$HOME"' });
    assert.ok(run.output.includes(`H=${home}`), run.output);
  });
});
