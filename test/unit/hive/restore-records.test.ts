// Issue 25 §1: each agent's launch record (migration v4), the conversation ids kept in it, and
// the profiles' `resume` templates.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Hive, HiveError, ProfileRegistry, SCHEMA_VERSION, checkConversationId, fillResumeTemplate, parseProfilesConfig } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

const launch = (agent: string) => ({
  agent, profile: "claude", command: "claude", cwd: "/work/proj", envNames: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"], team: "crew",
  host: null, rows: 40, cols: 120, window: "@3", paneIndex: 1, layout: "horizontal", sandbox: { write: ["/work/proj"], read: "all", network: "on" },
});

test("a launch record keeps the start's facts and env names (deduplicated), never values; a hook's id replaces the chosen one", () => {
  const { hive, done } = openHive();
  try {
    const r = hive.launches.record({ ...launch("cc"), conversationId: "1c0e5c9e-4b7a-4a53-9a1f-7d3e2b1c0a99" });
    assert.deepEqual(r.envNames, ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"]);
    assert.equal(r.conversationBy, "chosen");
    const found = hive.launches.find("cc")!;
    assert.deepEqual({ ...found, createdAt: 0, updatedAt: 0 }, { ...r, createdAt: 0, updatedAt: 0 });
    assert.deepEqual(found.sandbox, { write: ["/work/proj"], read: "all", network: "on" });
    // SessionStart after /clear reports a new session: the newest is the one to resume.
    assert.equal(hive.launches.noteConversation("cc", "2d1f6d0f-5c8b-4b64-8b20-8e4f3c2d1b00"), true);
    assert.equal(hive.launches.find("cc")!.conversationId, "2d1f6d0f-5c8b-4b64-8b20-8e4f3c2d1b00");
    assert.equal(hive.launches.find("cc")!.conversationBy, "hook");
    assert.equal(hive.launches.noteConversation("cc", "2d1f6d0f-5c8b-4b64-8b20-8e4f3c2d1b00"), false, "the same id again changes nothing");
    // An agent without a launch record (registered from a pane of before) has nothing to keep it in.
    assert.equal(hive.launches.noteConversation("nobody", "abc"), false);
  } finally {
    done();
  }
});

test("an id that is not an id is refused (it goes into a command line)", () => {
  const { hive, done } = openHive();
  try {
    hive.launches.record(launch("cc"));
    for (const bad of ["x; rm -rf ~", "$(id)", "", "-rf", "a b", "a".repeat(201)]) {
      assert.throws(() => hive.launches.noteConversation("cc", bad), HiveError, bad);
      assert.throws(() => checkConversationId(bad), /is not an id/);
    }
    assert.equal(hive.launches.find("cc")!.conversationId, null);
    assert.throws(() => fillResumeTemplate("{command} --resume {id}", { command: "claude", id: "`id`" }), /is not an id/);
    assert.equal(fillResumeTemplate("{command} resume {id}", { command: "codex --model o3", id: "019a-7f" }), "codex --model o3 resume 019a-7f");
  } finally {
    done();
  }
});

test("removing an agent removes its launch record: a removed agent is never restored", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "cc", sessionId: "th-1", profile: "claude" });
    hive.launches.record(launch("cc"));
    hive.agents.remove("cc");
    assert.equal(hive.launches.find("cc"), undefined);
  } finally {
    done();
  }
});

test("a v3 hive.db (notifications, no launch records) is migrated to v4 and keeps its agents", () => {
  const { hive, home, done } = openHive();
  hive.agents.register({ name: "old", sessionId: "th-9", profile: "shell" });
  hive.close();
  const raw = new Database(join(home, "hive.db"));
  raw.exec("DROP TABLE agent_launches; DROP TABLE permission_asks; DROP TABLE hook_prompts;"); // and what later versions added
  raw.pragma("user_version = 3");
  raw.close();
  const again = Hive.open({ home, profiles: new ProfileRegistry() });
  try {
    assert.equal(again.store.schemaVersion, SCHEMA_VERSION);
    assert.ok(SCHEMA_VERSION >= 4);
    assert.equal(again.agents.get("old").sessionId, "th-9");
    assert.equal(again.launches.find("old"), undefined);
    again.launches.record(launch("old"));
    assert.equal(again.launches.find("old")!.cwd, "/work/proj");
  } finally {
    again.close();
    done();
  }
});

test("profiles: claude chooses its session id up front and resumes it; codex resumes its thread; shell cannot; a custom resume template needs {id} and is inherited", () => {
  const builtins = new ProfileRegistry();
  assert.deepEqual(builtins.get("claude").resume, { command: "{command} --resume {id}", newId: "{command} --session-id {id}" });
  assert.deepEqual(builtins.get("codex").resume, { command: "{command} resume {id}" });
  assert.equal(builtins.get("shell").resume, null);
  assert.equal(builtins.get("aider").resume, null);
  assert.throws(() => parseProfilesConfig({ profiles: { bot: { command: "bot", resume: { command: "bot --continue" } } } }, "p.json"), /p\.json: invalid profiles file: profiles\.bot\.resume\.command: a resume template must contain \{id\}/);
  const custom = new ProfileRegistry(parseProfilesConfig({ profiles: {
    bot: { command: "bot", resume: { command: "{command} --load {id}" } },
    botplus: { extends: "bot", command: "bot --plus" },
  } }));
  assert.deepEqual(custom.get("botplus").resume, { command: "{command} --load {id}" });
});
