// The rules behind issue 20 §3 as pure functions: what text becomes when typed, and what named
// keys do to the line termhive typed since its last Enter.
import { test } from "node:test";
import assert from "node:assert/strict";
import { literalText } from "../../../src/terminal/model/literal-text.js";
import { planKeys } from "../../../src/terminal/model/key-plan.js";
import { EMPTY_LINE, PENDING_MAX_CHARS, withText } from "../../../src/terminal/model/pending-line.js";

test("control characters become their pictures; tab and line breaks stay, every line break is \\n", () => {
  assert.deepEqual(literalText("a\x1b[201~b\x00c\x7fd\x16e"), { text: "a\u241b[201~b\u2400c\u2421d\u2416e", replaced: 4 });
  assert.deepEqual(literalText("x\u009b2J"), { text: "x\u241b[2J", replaced: 1 });
  assert.deepEqual(literalText("a\tb\r\nc\rd\n"), { text: "a\tb\nc\nd\n", replaced: 0 });
  // Idempotent: typing.ts applies it again on what the gate judged.
  const once = literalText("\x1b]52;c;aGk=\x07").text;
  assert.equal(literalText(once).text, once);
});

test("keys: Enter submits the line typed so far; Backspace and C-c edit it exactly; C-u, cursor moves and yanks mark it edited", () => {
  const typed = withText(EMPTY_LINE, "rm -rf x");
  const plan = planKeys(typed, ["Backspace", "Space", "Enter", "C-u", "C-y", "Enter"]);
  assert.deepEqual(plan.steps.map((s) => s.submits), [false, false, true, false, false, true]);
  assert.deepEqual(plan.steps[2]!.line, { text: "rm -rf  ", edited: false, overflow: false });
  assert.equal(plan.steps[5]!.line.edited, true);
  assert.deepEqual(plan.after, EMPTY_LINE);
  assert.deepEqual(planKeys(typed, ["C-c"]).after, EMPTY_LINE);
  assert.deepEqual(planKeys(typed, ["Left", "C-o"]).steps[1], { submits: true, line: { ...typed, edited: true } });
  assert.equal(withText(EMPTY_LINE, "x".repeat(PENDING_MAX_CHARS + 1)).overflow, true);
});
