// Which panes a window layout names, read from layouts a real tmux reports; and the check that
// spares a full pane listing on every layout change that closes nothing (a new window, a resize).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { layoutDropsAKnownPane, panesOfLayout } from "../../../src/backends/tmux/layout.js";

test("a real tmux's layouts name exactly its panes: one pane, splits both ways, nested", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "termhive-layout-"));
  const socket = join(dir, "sock");
  const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  t.after(() => {
    tmux("kill-server");
    rmSync(dir, { recursive: true, force: true });
  });
  assert.equal(tmux("new-session", "-d", "-x", "120", "-y", "40", "sleep 600").status, 0);
  const panes = () => new Set(tmux("list-panes", "-F", "#{pane_id}").stdout.trim().split("\n"));
  const layout = () => tmux("display-message", "-p", "#{window_layout}").stdout.trim();
  assert.deepEqual(panesOfLayout(layout()), panes());
  tmux("split-window", "-h", "sleep 600");
  assert.deepEqual(panesOfLayout(layout()), panes());
  tmux("split-window", "-v", "sleep 600");
  tmux("split-window", "-h", "sleep 600");
  assert.equal(panes().size, 4);
  assert.deepEqual(panesOfLayout(layout()), panes());
});

test("a layout change drops a known pane only when a pane last seen in that window is missing", () => {
  const known = new Map([["%1", "@1"], ["%2", "@1"], ["%7", "@3"]]);
  const both = "c1d4,160x40,0,0{80x40,0,0,1,79x40,81,0,2}";
  assert.equal(layoutDropsAKnownPane(`@1 ${both} ${both} *`, known), false);
  // A resize of the same window, or a window of its own (a new pane not yet placed): nothing closed.
  assert.equal(layoutDropsAKnownPane("@1 c1d4,200x50,0,0{100x50,0,0,1,99x50,101,0,2} x *", known), false);
  assert.equal(layoutDropsAKnownPane("@9 b25f,80x24,0,0,12 b25f,80x24,0,0,12 *", known), false);
  // %2 closed: its window's layout has %1 alone.
  assert.equal(layoutDropsAKnownPane("@1 b25f,160x40,0,0,1 b25f,160x40,0,0,1 *", known), true);
});
