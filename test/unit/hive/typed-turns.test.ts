// When a typed message's turn is over by the shell's own marks (src/hive/live/typed-turns.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ADOPTED_VIEW_LAG_MS, TypedTurns } from "../../../src/hive/live/typed-turns.js";
import type { TerminalSession } from "../../../src/terminal/session/session.js";

type Command = { startedAt: number; endedAt: number | null };
const shell = (phase: string, commands: Command[] = []) => ({ id: "s1", integrated: true, phase, commands }) as unknown as TerminalSession;

test("a status the dead process typed before the adoption is over at the shell's prompt, even once this process has typed there without a command since", () => {
  const turns = new TypedTurns();
  const typedByDead = { statusSource: "typed" as const, updatedAt: 1000 };
  turns.adopted("s1", 1000 + ADOPTED_VIEW_LAG_MS + 500);
  assert.equal(turns.ended(shell("prompt"), typedByDead), true);
  // A retaken message found taken already (Enter pressed by the dead process), or one that did not show: nothing ran.
  turns.typingInto("s1", 3000);
  assert.equal(turns.ended(shell("prompt"), typedByDead), true, "this process's typing does not undo what the adoption saw");
  assert.equal(turns.ended(shell("running"), typedByDead), false, "a command running now is not over");
});

test("a status this process typed is over once a command started since has ended", () => {
  const turns = new TypedTurns();
  turns.adopted("s1", 1000);
  turns.typingInto("s1", 2000);
  const typedHere = { statusSource: "typed" as const, updatedAt: 2010 };
  assert.equal(turns.ended(shell("prompt", [{ startedAt: 1500, endedAt: 1600 }]), typedHere), false, "a command from before the typing");
  assert.equal(turns.ended(shell("prompt", [{ startedAt: 2005, endedAt: null }]), typedHere), false, "still running");
  assert.equal(turns.ended(shell("prompt", [{ startedAt: 2005, endedAt: 2008 }]), typedHere), true);
  assert.equal(turns.ended(shell("prompt", [{ startedAt: 2005, endedAt: 2008 }]), { statusSource: "profile", updatedAt: 2010 }), false, "not a typed status");
});
