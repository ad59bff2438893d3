// The question a run stops at: the shell agents' question rule, ending the cursor's line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { questionAtCursor, questionHint } from "../../../src/terminal/waits/question-wait.js";
import type { TerminalSession } from "../../../src/terminal/session/session.js";

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

// Trial 15: "Deploy now? [y/N]"'s hint offered "y" only, the answer that is not the default: a
// model copying the hint deploys. The default (the capital letter, what Enter alone gives) comes
// first and says so; a "(yes/no)" question takes the whole word (ssh refuses "y").
test("a yes/no question's hint offers both answers, its default first", () => {
  const session = { name: "q" } as unknown as TerminalSession;
  assert.match(questionHint(session, "Deploy now? [y/N]"), /"text":"n\\n"\} \(no, the default\) or \{"session":"q","text":"y\\n"\} \(yes\)/);
  assert.match(questionHint(session, "Do you want to continue? [Y/n]"), /"text":"y\\n"\} \(yes, the default\) or \{"session":"q","text":"n\\n"\} \(no\)/);
  assert.match(questionHint(session, "Are you sure you want to continue connecting (yes/no/[fingerprint])?"), /"text":"yes\\n"\} \(yes\) or \{"session":"q","text":"no\\n"\} \(no\)/);
  assert.match(questionHint(session, "Your name?"), /"text":"<answer>\\n"\}, then/);
});
