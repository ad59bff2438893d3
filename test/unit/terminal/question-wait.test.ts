// The question a run stops at: the shell agents' question rule, ending the cursor's line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { questionAtCursor } from "../../../src/terminal/waits/question-wait.js";

test("a question that ends the cursor's line is one; a line that goes on past it is not", () => {
  assert.equal(questionAtCursor("Continue? [y/N] "), "Continue? [y/N]");
  assert.equal(questionAtCursor("Do you want to continue? [Y/n] "), "Do you want to continue? [Y/n]");
  assert.equal(questionAtCursor("[sudo] password for root: "), "[sudo] password for root:");
  assert.equal(questionAtCursor("Are you sure you want to continue connecting (yes/no/[fingerprint])? "), "Are you sure you want to continue connecting (yes/no/[fingerprint])?");
  assert.equal(questionAtCursor("Continue? [y/N] y"), undefined);
  assert.equal(questionAtCursor("step 1 of 2 ... "), undefined);
  // A plain question at the cursor (bash's read -p "Continue? "), but not a bare "?" or a "Progress:" pause.
  assert.equal(questionAtCursor("Continue? "), "Continue?");
  assert.equal(questionAtCursor("Overwrite notes.txt?"), "Overwrite notes.txt?");
  assert.equal(questionAtCursor("?? "), undefined);
  assert.equal(questionAtCursor("Progress: "), undefined);
  assert.equal(questionAtCursor(""), undefined);
});
