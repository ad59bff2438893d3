import { test } from "node:test";
import assert from "node:assert/strict";
import { candidateCommands } from "../../../src/output/reducers/command.js";
import { selectReducer } from "../../../src/output/reducers/index.js";

test("normalises prefixes, runners and program paths", () => {
  assert.deepEqual(candidateCommands("CI=1 sudo time python3 -m pytest -x"), ["pytest -x"]);
  assert.deepEqual(candidateCommands("./node_modules/.bin/tsc -p ."), ["tsc -p ."]);
  assert.deepEqual(candidateCommands("npx eslint src"), ["eslint src"]);
});

test("last step first, then pipeline stages from last to first", () => {
  assert.deepEqual(candidateCommands("cd app && git log --stat | head -50"), ["head -50", "git log --stat", "cd app"]);
});

const pick = (command: string): string | undefined => selectReducer(command, [])?.name;

test("selects reducers by command text", () => {
  const expected: Record<string, string | undefined> = {
    "git status": "git-status",
    "git -C repo log --stat": "git-log",
    "git diff HEAD~1": "git-diff",
    "git diff --stat": undefined,
    "rg -n TODO": "grep",
    "grep -rn foo .": "grep",
    "pytest -q": "pytest",
    "npx jest": "jest",
    "vitest run": "jest",
    "node --test test/": "node-test",
    "go test ./...": "go-test",
    "cargo build --release": "cargo",
    "cargo test": "cargo",
    "npx tsc --noEmit": "tsc",
    "eslint .": "eslint",
    "npm install": "package-install",
    "pnpm add zod": "package-install",
    "yarn": "package-install",
    "pip install -r requirements.txt": "pip-install",
    "make -j4": "compiler",
    "gcc -c a.c": "compiler",
    "docker build -t x .": "docker-build",
    "ls -la": "ls-long",
    "ls": undefined,
    "echo hi": undefined,
  };
  for (const [command, name] of Object.entries(expected)) assert.equal(pick(command), name, command);
});
