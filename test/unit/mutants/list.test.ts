// The standing mutant list (test/mutants/list.json, run by `npm run mutants`) must match the
// code: a search text that moved or changed is said here, in `npm test`, not found out when the
// mutants next run. The runner itself refuses a list that does not match, naming the entry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempFolder } from "../../temp-folder.js";

const check = (...extra: string[]) => spawnSync(process.execPath, ["scripts/mutants.mjs", "--check", ...extra], { encoding: "utf8" });

test("every mutant's search text is in its file exactly once", () => {
  const r = check();
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\d+ mutants, each search text found exactly once/);
});

test("a search text found twice or not at all, a missing test file, a bad name pattern or a file outside the repository fails the check, naming the entry", () => {
  const list = join(tempFolder("termhive-mutant-list-"), "list.json");
  const entry = { file: "src/redact.ts", replace: "", tests: ["test/unit/safety/redact.test.ts"], breaks: "nothing" };
  writeFileSync(
    list,
    JSON.stringify({
      mutants: [
        { ...entry, id: "twice", search: "SECRET_MASK" },
        { ...entry, id: "moved", search: "this text is in no file" },
        { ...entry, id: "no-test", search: "export const SECRET_MASK", tests: ["test/unit/gone.test.ts"] },
        { ...entry, id: "bad-only", search: "export function redactSecrets", only: "(" },
        { ...entry, id: "outside", file: "../outside.ts", search: "x" },
      ],
    }),
  );
  const r = check(`--list=${list}`);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /\(twice\): the search text is found [2-9]\d* times in src\/redact\.ts, not once/);
  assert.match(r.stderr, /\(moved\): the search text is found 0 times/);
  assert.match(r.stderr, /\(no-test\): no test file test\/unit\/gone\.test\.ts/);
  assert.match(r.stderr, /\(bad-only\): "only" must be a regular expression/);
  assert.match(r.stderr, /\(outside\): "file" must be a path inside the repository/);
});
