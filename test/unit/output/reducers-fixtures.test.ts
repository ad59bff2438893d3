// Reducers on reconstructed fixtures for tools that cannot run here (see test/fixtures/output/README.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanLines } from "../../../src/output/clean.js";
import { selectReducer } from "../../../src/output/reducers/index.js";
import { fixture } from "../../fixtures/output/generate.js";

// The reducer is called directly: on outputs this small, renderOutput may rightly skip a
// reduction that does not pay for its closing line, which would hide what is tested here.
function reduce(file: string, command: string | undefined): { reducer?: string; text: string } {
  const lines = cleanLines(fixture(file));
  const reducer = selectReducer(command, lines);
  const text = reducer ? reducer.reduce(lines, { session: "t", firstLine: 1 }).map((line) => line.text).join("\n") : "";
  return { reducer: reducer?.name, text };
}

const cases: { file: string; command: string; reducer: string; facts: string[]; gone: string[] }[] = [
  { file: "go-test.txt", command: "go test ./...", reducer: "go-test", facts: ["--- FAIL: TestSplit", "split_test.go:21:", "--- FAIL: TestJoin/two", "join_test.go:14:", "FAIL\texample.com/strs\t0.004s", "ok  \texample.com/strs/internal/util"], gone: ["=== RUN", "--- PASS"] },
  { file: "jest.txt", command: "npx jest", reducer: "jest", facts: ["FAIL  src/strings.test.js", "● strings › capitalizes words", 'Expected: "Hello World"', "src/strings.test.js:6:39", "Tests:       1 failed, 11 passed, 12 total"], gone: ["PASS  src/math.test.js", "> 6 |"] },
  { file: "vitest.txt", command: "vitest run", reducer: "jest", facts: ["FAIL  src/strings.test.ts > strings > capitalizes words", "AssertionError: expected 'Hello world'", "src/strings.test.ts:6:39", "Tests  1 failed | 6 passed (7)"], gone: ["✓ trims"] },
  { file: "eslint.txt", command: "eslint src", reducer: "eslint", facts: ["1:7 error 'unused'", "12:10 error 'undefinedThing'", "3:5 error Expected '==='", "no-console ×1", "✖ 10 problems (3 errors, 7 warnings)"], gone: [] },
  { file: "docker-build.txt", command: "docker build -t app .", reducer: "docker-build", facts: ["#9 [5/5] RUN npm run build → ERROR", "src/server.ts(14,7): error TS2322", "ERROR: failed to solve"], gone: ["transferring context", "found 0 vulnerabilities"] },
  { file: "npm-install.txt", command: "npm install", reducer: "package-install", facts: ["3 deprecated: inflight, glob, rimraf", "added 187 packages", "found 0 vulnerabilities"], gone: ["looking for funding"] },
  { file: "pnpm-install.txt", command: "pnpm install", reducer: "package-install", facts: ["+ 3: commander@14.0.3, zod@4.1.5, typescript@5.9.3", "Done in 1.4s"], gone: ["Progress: resolved"] },
];

for (const { file, command, reducer, facts, gone } of cases) {
  test(`${reducer} on ${file}: key facts kept, noise gone`, () => {
    for (const cmd of [command, undefined]) {
      const result = reduce(file, cmd);
      assert.equal(result.reducer, reducer, `selected for ${cmd ?? "shape"}`);
      for (const fact of facts) assert.ok(result.text.includes(fact), `missing ${JSON.stringify(fact)} in\n${result.text}`);
      for (const noise of gone) assert.ok(!result.text.includes(noise), `still has ${JSON.stringify(noise)} in\n${result.text}`);
    }
  });
}
