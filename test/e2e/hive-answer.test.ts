// Issue 25 §2: hive_answer, through the built server, against the fake assistant TUI
// (test/fixtures/fake-agent.mjs), whose log says which choice it actually took. The digest the
// answer names comes from agent_list and hive_events, as a caller would take it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { CLI, Harness } from "./harness.js";
import { type HiveEvent, logHas, logLines } from "./fake-agent-log.js";

const FAKE = resolve("test/fixtures/fake-agent.mjs");

type Question = { digest: string; text: string; choices: string[] };
type Listed = { name: string; status: string; question: Question | null };

describe("hive_answer", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h?.destroy());

  const spawnFake = async (name: string) => {
    const log = join(h.home, `${name}.log`);
    assert.equal((await h.ok("agent_spawn", { name, command: `${process.execPath} ${FAKE} ${log} 1000`, profile: "claude" })).ready, "ready");
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: name, for: "idle", timeout_s: 20 })).matched, true);
    return log;
  };

  /** Opens one of the fake's menus and returns the question agent_list shows for it. */
  const openMenu = async (name: string, log: string, text: string): Promise<Question> => {
    assert.equal((await h.ok("hive_message", { agents: { [name]: text } })).delivered, 1);
    await logHas(log, `menu: ${text}`);
    assert.equal((await h.ok("hive_wait", { targets: name, for: "waiting_for_input", timeout_s: 20 })).matched, true);
    const listed = (await h.ok("agent_list", {})).agents.find((a: Listed) => a.name === name) as Listed;
    assert.equal(listed.status, "waiting_for_input");
    assert.ok(listed.question, `agent_list shows no question: ${JSON.stringify(listed)}`);
    return listed.question;
  };

  const chosen = (log: string) => logLines(log).filter((l) => l.startsWith("chose: "));

  test("a numbered menu answered by label, then by number; the digest is in agent_list and hive_events", async () => {
    const log = await spawnFake("db");
    const since = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor as number;
    const q = await openMenu("db", log, "choose: a database");
    assert.equal(q.text, "Which database should the service use?");
    assert.deepEqual(q.choices, ["1. Postgres", "2. SQLite", "3. None of these"]);
    assert.match(q.digest, /^[0-9a-f]{12}$/);
    const events = (await h.ok("hive_events", { since, targets: "db", kinds: ["status"], limit: 1000 })).events as HiveEvent[];
    assert.ok(events.some((e) => e.data.status === "waiting_for_input" && e.data.question === q.digest), JSON.stringify(events.map((e) => e.data)));

    const r = await h.ok("hive_answer", { agent: "db", answer: "sqlite", question: q.digest });
    await logHas(log, "chose: SQLite");
    assert.equal(r.gone, true, JSON.stringify(r));
    assert.equal(r.choice, "2. SQLite");
    assert.equal(r.question, q.digest);

    assert.equal((await h.ok("hive_wait", { targets: "db", for: "idle", timeout_s: 20 })).matched, true);
    const again = await openMenu("db", log, "choose: again");
    const byNumber = await h.call("hive_answer", { agent: "db", answer: "3", question: again.digest });
    assert.equal(byNumber.isError, false, byNumber.text);
    await logHas(log, "chose: None of these");
    assert.match(byNumber.text, /chose "3\. None of these"; the question is gone/);
    assert.deepEqual(chosen(log), ["chose: SQLite", "chose: None of these"]);
  });

  test("an unnumbered menu is walked with the arrows from its cursor", async () => {
    const log = await spawnFake("theme");
    const q = await openMenu("theme", log, "pick: a colour");
    assert.deepEqual(q.choices, ["Red", "Green", "Blue"]);
    const r = await h.ok("hive_answer", { agent: "theme", answer: "Blue", question: q.digest });
    await logHas(log, "chose: Blue");
    assert.deepEqual(r.typed, { keys: ["Down", "Down", "Enter"] });
    assert.equal(r.gone, true);
  });

  test("a stale digest is refused with nothing typed; a choice that is not on the menu too", async () => {
    const log = await spawnFake("lister");
    const first = await openMenu("lister", log, "choose: first");
    await h.ok("hive_answer", { agent: "lister", answer: "1", question: first.digest });
    await logHas(log, "chose: Postgres");
    assert.equal((await h.ok("hive_wait", { targets: "lister", for: "idle", timeout_s: 20 })).matched, true);
    const second = await openMenu("lister", log, "order: the list");
    assert.notEqual(second.digest, first.digest);

    const stale = await h.call("hive_answer", { agent: "lister", answer: "1", question: first.digest });
    assert.equal(stale.isError, true, stale.text);
    assert.match(stale.text, new RegExp(`no longer the one you saw .*it now asks ${second.digest}: Which order should the list have\\? 1\\. Newest first / 2\\. Oldest first.*Nothing was typed`));
    const unknown = await h.call("hive_answer", { agent: "lister", answer: "Sideways", question: second.digest });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /"Sideways" is none of the choices: 1\. Newest first \/ 2\. Oldest first/);

    // The fake takes keys in order: had the refused "1" been typed, Newest first would come first.
    await h.ok("hive_answer", { agent: "lister", answer: "2", question: second.digest });
    await logHas(log, "chose: Oldest first");
    assert.deepEqual(chosen(log), ["chose: Postgres", "chose: Oldest first"]);

    const none = await h.call("hive_answer", { agent: "lister", answer: "1" });
    assert.equal(none.isError, true);
    assert.match(none.text, /lister shows no question now/);
  });

  test("termhive answer: the CLI, in a process of its own on the same home", async () => {
    const log = await spawnFake("clia");
    const q = await openMenu("clia", log, "choose: from the shell");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h.env.HOME!, TERMHIVE_HOME: h.home };
    const stale = spawnSync(process.execPath, [CLI, "answer", "clia", "Postgres", "--question", "0123456789ab"], { env, encoding: "utf8", timeout: 60_000 });
    assert.equal(stale.status, 1, stale.stderr);
    assert.match(stale.stderr, /no longer the one you saw/);
    const r = spawnSync(process.execPath, [CLI, "answer", "clia", "Postgres", "--question", q.digest, "--json"], { env, encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    await logHas(log, "chose: Postgres");
    assert.equal(JSON.parse(r.stdout).gone, true);
    assert.deepEqual(chosen(log), ["chose: Postgres"]);
  });

  // Issue 30 §5: an answer is one literal line. Typed raw, "x\rtouch F" answered the prompt,
  // then ran `touch F` at the shell the prompt returned to.
  test("an answer with a line break or an escape is refused with nothing typed; a plain one answers", async () => {
    await h.ok("agent_spawn", { name: "asked", command: "bash", profile: "shell" });
    const victims = ["cr", "lf", "paste"].map((n) => join(h.home, `answered-${n}`));
    await h.ok("terminal_send", { session: "asked", text: "read -p 'Continue? [y/N] ' a; echo \"got:$a\"" });
    assert.equal((await h.ok("hive_wait", { targets: "asked", for: "waiting_for_input", timeout_s: 20 })).matched, true);
    for (const [i, answer] of [`x\rtouch ${victims[0]}`, `x\ntouch ${victims[1]}`, `x\u001b[201~\rtouch ${victims[2]}`].entries()) {
      const r = await h.call("hive_answer", { agent: "asked", answer });
      assert.equal(r.isError, true, `answer ${i} was taken: ${r.text}`);
      assert.match(r.text, /one line of text.*control character.*Nothing was typed/);
    }
    const r = await h.ok("hive_answer", { agent: "asked", answer: "yes please" });
    assert.equal(r.gone, true, JSON.stringify(r));
    assert.equal((await h.ok("terminal_wait", { session: "asked", pattern: "got:yes please", timeout_s: 10 })).matched, true);
    await h.ok("terminal_run", { session: "asked", command: "true" });
    for (const f of victims) assert.equal(existsSync(f), false, `${f} was made: an answer ran a command`);
  });
});
