// The in-pane commands (termhive msg / inbox / status) are the CLI forms of hive_mail /
// hive_inbox / hive_status, run on the hive store alone (src/cli/pane-verbs.ts, pane-hive.ts).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { Hive } from "../../../src/hive/index.js";
import { VERBS } from "../../../src/verbs/index.js";
import { PANE_COMMANDS } from "../../../src/cli/pane-commands.js";
import { PANE_VERBS, registerPaneVerbs } from "../../../src/cli/pane-verbs.js";
import { registerSessionVerbs } from "../../../src/cli/session-verbs.js";
import { PaneHive } from "../../../src/cli/pane-hive.js";

const home = mkdtempSync(join(tmpdir(), "termhive-pane-verbs-"));
after(() => rmSync(home, { recursive: true, force: true }));

const commandsOf = (register: (p: Command) => void) => {
  const program = new Command();
  register(program);
  return program.commands.map((c) => c.name());
};

test("cli.ts's list of in-pane commands is the commands of the verbs whose CLI form runs in a pane", () => {
  const inPane = VERBS.filter((v) => v.cli?.inPane);
  assert.deepEqual(inPane.map((v) => v.name).sort(), ["hive_inbox", "hive_mail", "hive_status"]);
  assert.deepEqual(PANE_VERBS.map((v) => v.name).sort(), inPane.map((v) => v.name).sort());
  assert.deepEqual([...PANE_COMMANDS].sort(), inPane.map((v) => v.cli!.command).sort());
});

test("each in-pane command is registered by the pane door only, with the verb's options and --json", () => {
  assert.deepEqual(commandsOf(registerPaneVerbs), ["msg", "inbox", "status"]);
  const session = commandsOf(registerSessionVerbs);
  for (const name of PANE_COMMANDS) assert.ok(!session.includes(name), `${name} is registered by the engine's door too`);
  const program = new Command();
  registerPaneVerbs(program);
  const flags = (name: string) => program.commands.find((c) => c.name() === name)!.options.map((o) => o.long);
  assert.deepEqual(flags("msg"), ["--from", "--json"]);
  assert.deepEqual(flags("inbox"), ["--agent", "--all", "--peek", "--json"]);
  assert.deepEqual(flags("status"), ["--agent", "--json"]);
});

test("the pane's hive: its own agent from TERMHIVE_AGENT (when the hive knows it), else from TERMHIVE_SESSION", () => {
  const hive = Hive.open({ home });
  hive.agents.register({ name: "own", sessionId: "s-own" });
  hive.close();
  const pane = new PaneHive(home);
  try {
    assert.equal(pane.ownAgent({ TERMHIVE_AGENT: "own" }), "own");
    assert.equal(pane.ownAgent({ TERMHIVE_AGENT: "stranger", TERMHIVE_SESSION: "s-own" }), "own");
    assert.equal(pane.ownAgent({ TERMHIVE_SESSION: "s-other" }), null);
    assert.equal(pane.ownAgent({}), null);
  } finally {
    pane.close();
  }
});

test("the pane's hive refuses to type a message into a pane (only a server holds it), before leaving anything", async () => {
  const pane = new PaneHive(home);
  try {
    await assert.rejects(pane.mail({ to: "own", text: "typed?", from: "me", type_into_pane: true }), /needs the termhive server that follows it/);
    assert.deepEqual((await pane.inbox({ agent: "own", all: true, peek: true })).messages, []);
    const left = await pane.mail({ to: "own", text: "kept", from: "me" });
    assert.equal(left.message.text, "kept");
    assert.deepEqual((await pane.inbox({ agent: "own" })).messages.map((m) => m.text), ["kept"]);
    assert.equal((await pane.inbox({ agent: "own" })).unread_left, 0);
  } finally {
    pane.close();
  }
});

test("the pane's status answer is the store's view of the agent (the fields hive_status gives that need no pane)", async () => {
  const pane = new PaneHive(home);
  try {
    const { agent } = await pane.setStatus({ agent: "own", status: "waiting", detail: "a question" });
    assert.deepEqual({ name: agent.name, session: agent.session, status: agent.status, detail: agent.detail, source: agent.source }, {
      name: "own", session: "s-own", status: "waiting_for_input", detail: "a question", source: "self",
    });
    await assert.rejects(pane.setStatus({ agent: "ghost", status: "bogus" }), /unknown status "bogus"/); // the status is checked first
    await assert.rejects(pane.setStatus({ agent: "ghost", status: "idle" }), /unknown agent 'ghost'/);
  } finally {
    pane.close();
  }
});
