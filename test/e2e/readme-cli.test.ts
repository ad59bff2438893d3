// The README's promises a fresh clone checks first (trial 15): its Quick start block is the two
// commands it says (install and build, then the test command .ci/run runs), and its CLI list
// names every command the built CLI's --help lists.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { CLI } from "./harness.js";

const readme = readFileSync("README.md", "utf8");

test("Quick start: 'the two commands' are two, and the second is the test command .ci/run runs", () => {
  const block = /the two commands:\n\n```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "the Quick start's block after 'the two commands:'");
  const commands = block[1]!.split("\n").filter((line) => line.trim() !== "").map((line) => line.replace(/\s+#.*$/, ""));
  assert.equal(commands.length, 2, block[1]);
  assert.equal(commands[0], "npm install");
  const ciLines = readFileSync(".ci/run", "utf8").split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
  assert.equal(commands[1], ciLines.at(-1), "README's test command vs the last line of .ci/run");
});

test("the README's CLI list names every command of termhive --help", () => {
  const help = spawnSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0, help.stderr);
  const commands = [...help.stdout.split("Commands:")[1]!.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((c) => c !== "help");
  assert.ok(commands.length > 10, help.stdout);
  const list = /- \*\*CLI\*\*: `termhive ([^`]+)`/.exec(readme);
  assert.ok(list, "the README's CLI list");
  const listed = list[1]!.split("|").map((word) => word.trim());
  assert.deepEqual(commands.filter((c) => !listed.includes(c)), [], `listed: ${listed.join(", ")}`);
  assert.deepEqual(listed.filter((c) => !commands.includes(c)), [], "listed but not a command");
});
