// One policy for user regexes: every pattern a user gives (tool arguments, stored watchers, a
// profiles file, custom safety rules) runs on the linear engine of util/regex.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { InvalidRegexError, MAX_PATTERN_CHARS, SafeRegex } from "../../../src/util/regex.js";
import { compileWatchPattern } from "../../../src/hive/store/watchers.js";
import { ProfileRegistry, parseProfilesConfig } from "../../../src/hive/programs/profiles.js";
import { compileCustomRule } from "../../../src/safety/custom-rules.js";
import { parseScript } from "../../../src/safety/parse.js";
import { HiveError } from "../../../src/hive/store/errors.js";

/** (a+)+$ against "aaaa…b": exponential for a backtracking engine, linear for RE2. */
const CATASTROPHIC = "(a+)+$";
const HOSTILE_TEXT = "a".repeat(5000) + "b";

test("a catastrophic pattern on hostile text answers at once (no backtracking)", () => {
  const regex = new SafeRegex(CATASTROPHIC);
  const t0 = performance.now();
  assert.equal(regex.test(HOSTILE_TEXT), false);
  // Not a timing target: a backtracking engine would not return within the test's lifetime.
  assert.ok(performance.now() - t0 < 5000);
});

test("lookarounds and backreferences are refused with the construct named", () => {
  for (const [source, construct] of [["(?=x)", "lookahead"], ["(?<!x)y", "negative lookbehind"], ["(a)\\1", "backreference"], ["(?<n>a)\\k<n>", "named backreference"]] as const) {
    assert.throws(() => new SafeRegex(source, "until"), (e: Error) => e instanceof InvalidRegexError && e.message.includes(construct) && e.message.includes("until regex"), source);
  }
});

test("bad syntax, bad flags and over-long patterns are clear errors", () => {
  assert.throws(() => new SafeRegex("(", "filter"), /invalid filter regex "\("/);
  assert.throws(() => new SafeRegex("a", "filter", "x"), /flag "x" is not supported/);
  assert.throws(() => new SafeRegex("a".repeat(MAX_PATTERN_CHARS + 1)), /the limit is 4000/);
});

test("flags: i, m (default), s; terminal line ends (\\r) count as line ends", () => {
  assert.equal(new SafeRegex("^done$").test("x\r\ndone\r\n"), true);
  assert.equal(new SafeRegex("^done$", "pattern", "").test("x\ndone"), false);
  assert.equal(new SafeRegex("DONE", "pattern", "i").test("done"), true);
  assert.equal(new SafeRegex("a.b", "pattern", "s").test("a\nb"), true);
  assert.deepEqual(new SafeRegex("o+").exec("foo"), { index: 1, text: "oo" });
});

test("hive watchers (new and stored) compile on the linear engine", () => {
  const watch = compileWatchPattern(CATASTROPHIC);
  assert.ok(watch instanceof SafeRegex);
  assert.equal(watch.test(HOSTILE_TEXT), false);
  assert.throws(() => compileWatchPattern("(x)\\1"), (e: Error) => e instanceof HiveError && /backreference/.test(e.message));
});

test("a profiles file's patterns are user regexes: linear engine, lookarounds refused at load", () => {
  const registry = new ProfileRegistry(parseProfilesConfig({ profiles: { bot: { ready: CATASTROPHIC, rules: [{ status: "working", pattern: CATASTROPHIC }] } } }));
  const bot = registry.get("bot");
  assert.ok(bot.ready instanceof SafeRegex);
  assert.ok(bot.rules[0]!.pattern instanceof SafeRegex);
  assert.equal(bot.ready!.test(HOSTILE_TEXT), false);
  assert.throws(() => new ProfileRegistry(parseProfilesConfig({ profiles: { bot: { ready: "(?=READY)" } } })),
    (e: Error) => e instanceof HiveError && /profile 'bot' ready/.test(e.message) && /lookahead/.test(e.message));
  // The built-ins stay termhive's own JavaScript regexes.
  assert.ok(registry.get("shell").ready instanceof RegExp);
});

test("custom safety rules match their args on the linear engine", () => {
  const rule = compileCustomRule({ name: "slow", reason: "r", program: "echo", args: CATASTROPHIC });
  // 60 a's then b: a backtracking engine would take ~2^60 steps.
  assert.deepEqual(rule.find(parseScript(`echo ${"a".repeat(60)}b`)), []);
  assert.deepEqual(rule.find(parseScript("echo aaa")).length, 1);
  assert.throws(() => compileCustomRule({ name: "bad", reason: "r", program: "echo", args: "(?<=x)y" }), /lookbehind/);
});
