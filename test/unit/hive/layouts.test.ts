// Layout split plans (pure) and saved arrangements.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HiveError, splitPlan, parseLayoutSpec, LAYOUT_KINDS } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

const code = (c: string) => (err: unknown) => err instanceof HiveError && err.code === c;
const steps = (p: ReturnType<typeof splitPlan>) => p.steps.map((s) => [s.splitFrom, s.direction, s.percent, s.creates]);

test("split plans: each step splits the newest pane, percentages give equal shares", () => {
  assert.deepEqual(splitPlan("single", 1), { kind: "single", panes: 1, steps: [], selectLayout: null });
  const h3 = splitPlan("horizontal", 3);
  assert.deepEqual(steps(h3), [[0, "right", 67, 1], [1, "right", 50, 2]]);
  assert.equal(h3.selectLayout, "even-horizontal");
  assert.deepEqual(steps(splitPlan("vertical", 4)), [[0, "below", 75, 1], [1, "below", 67, 2], [2, "below", 50, 3]]);
  assert.equal(splitPlan("vertical", 2).selectLayout, "even-vertical");
  // Main pane 0 on the left, three stacked on the right.
  const mv = splitPlan("main-vertical", 4);
  assert.deepEqual(steps(mv), [[0, "right", 50, 1], [1, "below", 67, 2], [2, "below", 50, 3]]);
  assert.equal(mv.selectLayout, "main-vertical");
  const mh = splitPlan("main-horizontal", 3);
  assert.deepEqual(steps(mh), [[0, "below", 50, 1], [1, "right", 50, 2]]);
  assert.equal(mh.selectLayout, "main-horizontal");
  const quad = splitPlan("quad", 4);
  assert.deepEqual(steps(quad), [[0, "right", 50, 1], [1, "below", 50, 2], [2, "right", 50, 3]]);
  assert.equal(quad.selectLayout, "tiled");
  const t6 = splitPlan("tiled", 6);
  assert.equal(t6.steps.length, 5);
  assert.ok(t6.steps.every((s, i) => s.splitFrom === i && s.creates === i + 1));
  assert.equal(splitPlan("tiled", 1).selectLayout, null);
  for (const kind of LAYOUT_KINDS) assert.ok(splitPlan(kind, kind === "quad" ? 4 : kind === "single" || kind === "tiled" ? 1 : 2));
});

test("split plans: wrong pane counts and unknown kinds are refused with the valid range", () => {
  assert.throws(() => splitPlan("quad", 3), /layout 'quad' takes exactly 4 panes, got 3/);
  assert.throws(() => splitPlan("single", 2), /exactly 1/);
  assert.throws(() => splitPlan("horizontal", 1), /takes 2 to 32 panes, got 1/);
  assert.throws(() => splitPlan("tiled", 33), /1 to 32/);
  assert.throws(() => splitPlan("tiled", 2.5), code("invalid"));
  assert.throws(() => splitPlan("grid" as never, 4), /unknown layout 'grid'; valid layouts: single, horizontal/);
});

test("layout specs: validated, count fills plain panes, duplicate pane/agent names refused", () => {
  const spec = parseLayoutSpec({
    kind: "quad",
    panes: [
      { name: "lead", command: "claude", agent: "lead", team: "core", profile: "claude", env: { FOO: "1" } },
      { name: "api", agent: "api", team: "core", cwd: "/tmp" },
      { name: "db" },
      {},
    ],
  });
  assert.equal(spec.panes.length, 4);
  assert.deepEqual(parseLayoutSpec({ kind: "tiled", count: 3 }).panes, [{}, {}, {}]);
  assert.equal(parseLayoutSpec({ kind: "single" }).panes.length, 1);
  assert.throws(() => parseLayoutSpec({ kind: "quad", panes: [{}, {}] }), /exactly 4 panes, got 2/);
  assert.throws(() => parseLayoutSpec({ kind: "tiled", count: 2, panes: [{}] }), /count 2 but lists 1/);
  assert.throws(() => parseLayoutSpec({ kind: "vertical", panes: [{ name: "a" }, { name: "a" }] }), /name 'a' for two panes/);
  assert.throws(() => parseLayoutSpec({ kind: "vertical", panes: [{ agent: "x" }, { agent: "x" }] }), code("duplicate"));
  assert.throws(() => parseLayoutSpec({ kind: "vertical", panes: [{ colour: "red" }, {}] }), /invalid layout spec: panes.0/);
  assert.throws(() => parseLayoutSpec({ kind: "vertical", panes: [{ env: { "BAD-NAME": "x" } }, {}] }), /environment variable name/);
  assert.throws(() => parseLayoutSpec({ kind: "hexagon" }), /invalid layout spec: kind/);
});

test("saved layouts: save, get, list, refuse overwrite unless replace, remove", () => {
  const { hive, done } = openHive();
  try {
    const spec = { kind: "horizontal", panes: [{ name: "left", command: "htop" }, { name: "right", agent: "r" }] };
    const saved = hive.layouts.save("dev", spec);
    assert.equal(saved.spec.kind, "horizontal");
    assert.deepEqual(hive.layouts.get("dev").spec, { kind: "horizontal", panes: spec.panes });
    assert.throws(() => hive.layouts.save("dev", spec), /already exists; pass replace: true/);
    hive.layouts.save("dev", { kind: "single" }, { replace: true });
    assert.equal(hive.layouts.get("dev").spec.kind, "single");
    assert.throws(() => hive.layouts.save("bad", { kind: "quad", count: 2 }), code("invalid"));
    assert.deepEqual(hive.layouts.list().map((l) => l.name), ["dev"]);
    hive.layouts.remove("dev");
    assert.throws(() => hive.layouts.get("dev"), /unknown layout 'dev'; valid layouts: \(none\)/);
  } finally {
    done();
  }
});
