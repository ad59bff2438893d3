import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_RULES, checkCommand, checkCommandAsync, loadSafetyConfig, SafetyConfigError } from "../../../src/safety/index.js";
import { tempFolder } from "../../temp-folder.js";

const dir = tempFolder("termhive-safety-");
function rulesFile(content: unknown): string {
  const path = join(dir, `rules-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

test("defaults: enabled with every built-in rule", () => {
  const config = loadSafetyConfig({});
  assert.equal(config.enabled, true);
  assert.deepEqual(config.rules.map((r) => r.name), BUILTIN_RULES.map((r) => r.name));
});

test("TERMHIVE_SAFETY=off lets everything through", () => {
  const config = loadSafetyConfig({ TERMHIVE_SAFETY: "off" });
  assert.equal(config.enabled, false);
  assert.deepEqual(checkCommand("rm -rf /", config), { allowed: true, violations: [] });
});

test("TERMHIVE_SAFETY with a value other than on/off is an error", () => {
  assert.throws(() => loadSafetyConfig({ TERMHIVE_SAFETY: "maybe" }), (e: Error) => e instanceof SafetyConfigError && /"on" or "off".*maybe/.test(e.message));
});

test("TERMHIVE_SAFETY_DISABLE turns named rules off and only those", () => {
  const config = loadSafetyConfig({ TERMHIVE_SAFETY_DISABLE: "git-reset-hard, terraform-destroy" });
  assert.equal(checkCommand("git reset --hard", config).allowed, true);
  assert.equal(checkCommand("terraform destroy", config).allowed, true);
  assert.equal(checkCommand("rm -rf /", config).allowed, false);
});

test("TERMHIVE_SAFETY_DISABLE with an unknown name lists the known ones", () => {
  assert.throws(() => loadSafetyConfig({ TERMHIVE_SAFETY_DISABLE: "rm-everything" }),
    (e: Error) => /unknown rule\(s\) "rm-everything".*recursive-delete/.test(e.message));
});

test("custom rules match the parsed command, through wrappers and bash -c, not raw text", () => {
  const path = rulesFile({ rules: [
    { name: "npm-publish", reason: "publishing cannot be undone", program: "npm", args: "^publish\\b", unlessArgs: "--dry-run" },
    { name: "docker-prune", reason: "removes unused images", program: ["docker", "podman"], args: "\\bSYSTEM PRUNE\\b", ignoreCase: true },
  ] });
  const config = loadSafetyConfig({ TERMHIVE_SAFETY_RULES: path });
  assert.deepEqual(checkCommand("npm publish --access public", config).violations.map((v) => v.rule), ["npm-publish"]);
  assert.deepEqual(checkCommand("sudo bash -c 'npm publish'", config).violations.map((v) => v.rule), ["npm-publish"]);
  assert.equal(checkCommand("npm publish --dry-run", config).allowed, true);
  assert.equal(checkCommand("echo npm publish", config).allowed, true);
  assert.equal(checkCommand("npm install", config).allowed, true);
  assert.deepEqual(checkCommand("podman system prune -af", config).violations.map((v) => v.rule), ["docker-prune"]);
  const disabled = loadSafetyConfig({ TERMHIVE_SAFETY_RULES: path, TERMHIVE_SAFETY_DISABLE: "npm-publish" });
  assert.equal(checkCommand("npm publish", disabled).allowed, true);
});

test("a custom rule without args matches any use of the program", () => {
  const config = loadSafetyConfig({ TERMHIVE_SAFETY_RULES: rulesFile({ rules: [{ name: "no-nc", reason: "opens raw sockets", program: "nc" }] }) });
  assert.equal(checkCommand("nc -l 8080", config).allowed, false);
});

test("bad rules files are refused with the file and the field named", () => {
  const cases: [unknown, RegExp][] = [
    ["{not json", /not valid JSON/],
    [{ rule: [] }, /rules: .*expected array|Unrecognized key|rule/],
    [{ rules: [{ name: "Bad Name", reason: "x", program: "ls" }] }, /rules\[0\]\.name: must be lowercase/],
    [{ rules: [{ name: "x", program: "ls" }] }, /rules\[0\]\.reason/],
    [{ rules: [{ name: "x", reason: "y", program: "ls", args: "(" }] }, /rules\[0\]\.args: is not a valid regular expression/],
    [{ rules: [{ name: "x", reason: "y", program: "ls", extra: 1 }] }, /rules\[0\]/],
    [{ rules: [{ name: "recursive-delete", reason: "y", program: "ls" }] }, /already a built-in rule/],
    [{ rules: [{ name: "a", reason: "y", program: "ls" }, { name: "a", reason: "y", program: "ls" }] }, /"a" appears twice/],
  ];
  for (const [content, pattern] of cases) {
    const path = rulesFile(content);
    assert.throws(() => loadSafetyConfig({ TERMHIVE_SAFETY_RULES: path }), (e: Error) => {
      assert.ok(e instanceof SafetyConfigError, String(e));
      assert.ok(e.message.includes(path), e.message);
      assert.match(e.message, pattern);
      return true;
    });
  }
  assert.throws(() => loadSafetyConfig({ TERMHIVE_SAFETY_RULES: join(dir, "missing.json") }), /cannot read the file/);
});

test("the gate's async check gives checkCommand's answers, custom rules over long arguments included", async () => {
  const config = loadSafetyConfig({ TERMHIVE_SAFETY_RULES: rulesFile({ rules: [
    { name: "npm-publish", reason: "publishing cannot be undone", program: "npm", args: "^publish\\b", unlessArgs: "--dry-run" },
    { name: "costly", reason: "a costly pattern", program: "echo", args: "(.*a ){20}b", unlessArgs: "(.*z){20}y" },
  ] }) });
  const long = "a ".repeat(20_000);
  for (const command of ["npm publish", "npm publish --dry-run", "npm install", `echo ${long}b`, `echo ${long}`, `echo ${long}b ${"z".repeat(30)}y`, `rm -rf / ; echo ${long}b`, "sudo bash -c 'npm publish'", "echo 'unclosed"]) {
    assert.deepEqual(await checkCommandAsync(command, config), checkCommand(command, config), command.slice(0, 60));
  }
  assert.deepEqual((await checkCommandAsync(`echo ${long}b`, config)).violations.map((v) => v.rule), ["costly"]);
});
