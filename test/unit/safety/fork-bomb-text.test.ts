// The gate's fork-bomb fallback (commands the parser cannot judge) finds what the regex it
// replaces found, match for match, and stays linear on a long word, which made the regex's
// backtracking take ~40 s on a 100,000-character word (issue 20: no text stalls the server).
import { test } from "node:test";
import assert from "node:assert/strict";
import { forkBombInText } from "../../../src/safety/fork-bomb-text.js";
import { checkCommand, loadSafetyConfig } from "../../../src/safety/index.js";

const REGEX = /([\w:.]+)\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&/;

test("finds the regex's match on known fork bombs and near misses", () => {
  for (const text of [
    ":(){ :|:& };:",
    "bomb() { bomb | bomb & }; bomb",
    "x.y(){ x.y|x.y& }",
    "ab(){ b|b& }",
    "ab(){ ab|b& }",
    "ab(){ b|ab& }",
    "f(){ f|f; }",
    "f(){ } f|f&",
    "f() { g|g& }",
    "f(){ f|f&  f|f & }",
    "aa(){ a|a& aa|aa& }",
    "echo hi",
    "",
  ]) {
    assert.equal(forkBombInText(text), REGEX.exec(text)?.[0] ?? null, JSON.stringify(text));
  }
});

test("finds the regex's match on 20,000 random texts shaped like fork bombs, whole or broken", () => {
  let seed = 20;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const names = ["a", "b", "ab", "ba", "aab", ":", ":a", "a.b"];
  const noise = ["a", "b", " ", "\n", "()", "(", ")", "{", "}", "|", "&", ";", "ab"];
  const some = () => Array.from({ length: Math.floor(random() * 4) }, () => pick(noise)).join("");
  const blank = () => pick(["", " ", "  ", "\n"]);
  let found = 0;
  for (let i = 0; i < 20_000; i++) {
    const parts = [some(), pick(names), blank(), "()", blank(), "{", some(), pick(names), blank(), "|", blank(), pick(names), blank(), "&", some()];
    if (random() < 0.3) parts.splice(Math.floor(random() * parts.length), 1);
    if (random() < 0.2) parts.splice(Math.floor(random() * parts.length), 0, some(), pick(names), "()", "{");
    const text = parts.join("");
    const expected = REGEX.exec(text)?.[0] ?? null;
    if (expected !== null) found++;
    assert.equal(forkBombInText(text), expected, JSON.stringify(text));
  }
  assert.ok(found > 1000 && found < 19_000, `${found} of the texts held a fork bomb: both kinds must be tested`);
});

test("a 200,000-character word after rm, and a fork bomb after it, are judged (the regex took ~40 s at 100,000, four times that here)", () => {
  const config = loadSafetyConfig({});
  const word = "a".repeat(200_000);
  assert.deepEqual(checkCommand(`rm ${word}`, config).violations, []);
  const bomb = checkCommand(`echo ${word}; :(){ :|:& };:`, config);
  assert.deepEqual(bomb.violations.map((v) => [v.rule, v.segment]), [["fork-bomb", ":(){ :|:&"]]);
  assert.equal(forkBombInText(`${word}(){ ${word}|${word}& }`), `${word}(){ ${word}|${word}&`);
});
