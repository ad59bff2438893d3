// Opening is "ready", not just "started": in the field (bare env, another folder) an open
// returns once the shell shows its first prompt, so the very next command is typed into a
// shell that reads it, and a layout's panes are all at their prompt when it returns.
// (How fast this is lives in `npm run bench open`, not here.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("open is ready on return", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("ten opens one after another: each integrated, the first command of each completes with its exit code", async () => {
    for (let i = 0; i < 10; i++) {
      const opened = await h.ok("terminal_open", { name: `ready-${i}`, command: "bash" });
      assert.equal(opened.integrated, true, `open ${i}: ${JSON.stringify(opened)}`);
      const r = await h.ok("terminal_run", { session: `ready-${i}`, command: `echo first-${i}; (exit ${i})` });
      assert.equal(r.reason, "osc133");
      assert.equal(r.exit_code, i);
      assert.equal(r.output, `first-${i}`);
    }
  });

  test("a program that prints nothing at start is ready once it stays silent, not after the 10 s ready limit", async () => {
    const started = Date.now();
    const opened = await h.ok("terminal_open", { name: "silent-cat", command: "cat -A" });
    // The limit for a program that never shows anything is 10 s; a silent one returns after ~1 s.
    assert.ok(Date.now() - started < 5_000, `open took ${Date.now() - started} ms`);
    assert.equal(opened.integrated, false);
    await h.ok("terminal_send", { session: "silent-cat", text: "typed\n", enter: false });
    const seen = await h.ok("terminal_wait", { session: "silent-cat", pattern: "typed\\$", timeout_s: 10 });
    assert.equal(seen.matched, true, JSON.stringify(seen));
  });

  test("a quad layout returns with every pane ready and each runs its first command", async () => {
    const panes = [0, 1, 2, 3].map((p) => ({ name: `quad-${p}`, command: "bash" }));
    const laid = await h.ok("hive_layout", { layout: "quad", panes });
    const ready = (laid.panes as { name: string; ready: string }[]).map((p) => [p.name, p.ready]);
    assert.deepEqual(ready, panes.map((p) => [p.name, "ready"]));
    const results = await Promise.all(panes.map((p) => h.ok("terminal_run", { session: p.name, command: `echo in-${p.name}` })));
    assert.deepEqual(results.map((r) => [r.reason, r.output]), panes.map((p) => ["osc133", `in-${p.name}`]));
  });
});
