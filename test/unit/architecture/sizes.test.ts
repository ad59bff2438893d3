// Issue 22's bounds on size, kept as the code grows: small files with one reason to change, and
// a service layer that stays wiring plus thin verbs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../../src", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const lineCount = (path: string) => readFileSync(path, "utf8").split("\n").length - 1;

test("no file in src/ is over 450 lines", () => {
  const over = sources(SRC).map((path) => ({ file: relative(SRC, path), lines: lineCount(path) })).filter((f) => f.lines > 450);
  assert.deepEqual(over, []);
});

test("service/ is at most 1,000 lines, no file of it over 350", () => {
  const files = sources(join(SRC, "service")).map((path) => ({ file: relative(SRC, path), lines: lineCount(path) }));
  assert.ok(files.reduce((sum, f) => sum + f.lines, 0) <= 1000, JSON.stringify(files));
  assert.deepEqual(files.filter((f) => f.lines > 350), []);
});
