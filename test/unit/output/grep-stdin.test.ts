// grep reading a pipe prints the matching lines without file names: they come back as they
// are, not under a summary that counts file matches (which said "0 matches in 0 files").
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderOutput } from "../../../src/output/index.js";

test("env | grep -i termhive: the matching lines as they are, no '0 matches in 0 files'", () => {
  const lines = ["HOME", "SESSION", "SHELL_DIR", "RUN_ID", "PANE", "SOCKET", "VERSION", "ORIGIN"].map((name, i) => `TERMHIVE_${name}=/var/tmp/trial-home/value-${i}`);
  const text = lines.join("\n");
  const result = renderOutput(text, { command: "env | grep -i termhive", firstLine: 1, session: "t" });
  assert.doesNotMatch(result.text, /matches in/, result.text);
  assert.equal(result.text, text);
});

test("grep -rn still groups matches under their files, with the count", () => {
  const text = Array.from({ length: 60 }, (_, i) => `src/module/deeper/folder/file${i % 3}.ts:${i + 1}:const x${i} = termhive;`).join("\n");
  const result = renderOutput(text, { command: "grep -rn termhive src", firstLine: 1, session: "t" });
  assert.equal(result.reducer, "grep");
  assert.match(result.text, /^60 matches in 3 files$/m, result.text);
});
