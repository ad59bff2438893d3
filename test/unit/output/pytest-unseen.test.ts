// The pytest reducer on suites it was not written against (issue 24): six kinds of failure
// plus a fixture error and a parametrised case, run by real pytest in several shapes (colours
// on and off, -v, a collection error). Each must cost ≤ 430 tokens and keep every failing
// test's name, its file:line, its first E line (clipped when long) and the final counts, with
// no escape code or half of one left in the text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderOutput } from "../../../src/output/index.js";
import * as g from "../../fixtures/output/generate.js";
import { pytestShapes } from "../../fixtures/output/pytest-shapes.js";

const skip = !g.pythonHasPytest() && "python3 -m pytest unavailable";

test("pytest on unseen suites, every shape: ≤ 430 tokens with every failure's name, file:line, first E line and the counts", { skip, timeout: 120_000 }, () => {
  const shapes = pytestShapes();
  for (const shape of shapes) {
    const result = renderOutput(shape.output, { command: shape.command, firstLine: 1, session: "t" });
    assert.equal(result.reducer, "pytest", shape.name);
    assert.ok(result.tokens <= 430, `${shape.name}: ${result.tokens} tokens\n${result.text}`);
    assert.ok(shape.failures.length > 0, `${shape.name} failed somewhere`);
    for (const failure of shape.failures) {
      assert.ok(result.text.includes(failure.name), `${shape.name}: name ${failure.name}\n${result.text}`);
      assert.ok(result.text.includes(failure.location), `${shape.name}: ${failure.location} of ${failure.name}\n${result.text}`);
      // The first E line, or its start when it was clipped (a clip ends in "…").
      const eLine = result.text.split("\n").find((line) => /^E /.test(line) && failure.firstE.startsWith(line.slice(2).replace(/…$/, "")));
      assert.ok(eLine, `${shape.name}: first E line of ${failure.name}: ${failure.firstE}\n${result.text}`);
      assert.ok(eLine!.length <= 102, `${shape.name}: E line clipped: ${eLine}`);
    }
    assert.ok(result.text.includes(shape.summary), `${shape.name}: counts ${shape.summary}\n${result.text}`);
    // Cleaned before clipping: no escape code, and no half of one ("[39;4…", "[0m").
    assert.doesNotMatch(result.text, /\x1b|\[\d+(?:;\d+)*m|\[\d+;\d*…/, `${shape.name}: escape code left\n${result.text}`);
  }
  // The shapes are what they claim: colours on, -v progress, a collection error.
  assert.match(shapes.find((s) => s.name === "pytest colour")!.output, /\x1b\[/);
  assert.match(shapes.find((s) => s.name === "pytest -v no colour")!.output, /::test_\S+ (?:PASSED|FAILED)/);
  assert.match(shapes.find((s) => s.name === "pytest collection error")!.output, /ERROR collecting/);
  assert.match(shapes[0]!.output, /XFAIL|xfailed/);
});
