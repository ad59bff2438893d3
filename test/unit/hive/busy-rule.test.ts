// The busy rule (hive/rules/busy-rule.ts), table-driven: one row per situation the cascade or the
// outbox meets, with the verdict both must reach.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isBusyStatus, mayTypeNow, type AgentFacts, type TypingSituation } from "../../../src/hive/index.js";

const agent = (status: string, turn: Partial<Omit<AgentFacts, "status">> = {}): AgentFacts => ({ status, typing: false, holdsIdle: false, ...turn });

const TABLE: [string, TypingSituation, boolean][] = [
  // A new cascade text (hive_message when: "idle").
  ["message: idle agent", { for: "message", agents: [agent("idle")] }, true],
  ["message: an error status does not hold a message back", { for: "message", agents: [agent("error")] }, true],
  ["message: working agent", { for: "message", agents: [agent("working")] }, false],
  ["message: starting agent", { for: "message", agents: [agent("starting")] }, false],
  ["message: agent waiting for input (the text would be taken as its answer)", { for: "message", agents: [agent("waiting_for_input")] }, false],
  ["message: idle, but the turn of an earlier message still holds", { for: "message", agents: [agent("idle", { holdsIdle: true })] }, false],
  ["message: one of two agents in the pane is busy", { for: "message", agents: [agent("idle"), agent("working")] }, false],
  ["message: texts queued before go first", { for: "message", agents: [agent("idle")], queuedBefore: true }, false],
  ["message: a shell at its prompt (OSC 133) reads the line whatever the screen guess", { for: "message", agents: [agent("working", { holdsIdle: true })], atPrompt: true }, true],
  ["message: at its prompt, but a message is being typed to it right now", { for: "message", agents: [agent("idle", { typing: true, holdsIdle: true })], atPrompt: true }, false],
  ["message: at its prompt, queued texts still go first", { for: "message", agents: [agent("idle")], atPrompt: true, queuedBefore: true }, false],
  ["message: a stale typing row (no longer holding) does not block", { for: "message", agents: [agent("idle", { typing: true, holdsIdle: false })] }, true],
  ["message: idle in the store (a hook's), but a dialog is on screen", { for: "message", agents: [agent("idle", { dialogOnScreen: true })] }, false],
  // The oldest queued text (outbox dispatcher).
  ["queued: every agent idle", { for: "queued", agents: [agent("idle"), agent("idle")] }, true],
  ["queued: an error status is not idle", { for: "queued", agents: [agent("error")] }, false],
  ["queued: one agent still working", { for: "queued", agents: [agent("idle"), agent("working")] }, false],
  ["queued: idle while an earlier turn holds", { for: "queued", agents: [agent("idle", { holdsIdle: true })] }, false],
  ["queued: no live agent left in the pane", { for: "queued", agents: [] }, false],
  ["queued: idle, and the screen shows the input box, still", { for: "queued", agents: [agent("idle", { dialogOnScreen: false, inputSettled: true })] }, true],
  ["queued: idle in the store, but the screen still redraws (a dialog just closed)", { for: "queued", agents: [agent("idle", { inputSettled: false })] }, false],
  // The dialog alone holds the text back: whether the input settled is not known here.
  ["queued: idle in the store (a hook's), but a dialog is on screen", { for: "queued", agents: [agent("idle", { dialogOnScreen: true })] }, false],
];

for (const [name, situation, verdict] of TABLE) {
  test(`busy rule — ${name}: ${verdict ? "type now" : "wait"}`, () => {
    assert.equal(mayTypeNow(situation), verdict);
  });
}

test("busy statuses: starting, working, waiting_for_input; not idle, error or exited", () => {
  assert.deepEqual(["starting", "working", "waiting_for_input", "idle", "error", "exited"].map(isBusyStatus), [true, true, true, false, false, false]);
});
