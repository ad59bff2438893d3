// A listing of panes taken before a session was opened cannot say that session's pane closed:
// with several hosts (issue 35) a listing asks each remembered host in turn, and a team spawned
// on two hosts at once had its newest agent dropped as "its pane was closed" by the refresh
// another spawn started a moment before. Real bash in a real pty; only the listing is held back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PtyBackend } from "../../../src/backends/pty/pty-backend.js";
import type { PaneInfo } from "../../../src/backends/backend.js";
import { ptyRegistry } from "./pty-registry.js";

/** A pty backend whose listings are taken at once and answered only when the test lets them go. */
class HeldListings extends PtyBackend {
  held: (() => void)[] = [];
  hold = false;
  /** Panes the listing leaves out, as a host's tmux does for a pane closed there. */
  readonly vanished = new Set<string>();
  override async listPanes(): Promise<PaneInfo[]> {
    const panes = (await super.listPanes()).filter((p) => !this.vanished.has(p.paneId));
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    return panes;
  }
}

test("a refresh whose listing began before a session opened keeps that session; a later one drops it once its pane is gone", async (t) => {
  const backend = new HeldListings();
  const registry = ptyRegistry(t, backend);
  await registry.ensureStarted();
  const older = await registry.open({ name: "older", rows: 24, cols: 80 });

  backend.hold = true;
  const refreshing = registry.refresh();
  while (backend.held.length === 0) await new Promise((r) => setTimeout(r, 5));
  backend.hold = false;
  // As a second spawn does: its own refresh ran just before, the first one's listing still out.
  const newer = await registry.open({ name: "newer", rows: 24, cols: 80, refreshed: true });
  backend.held.forEach((go) => go());
  await refreshing;

  assert.equal(registry.byId(newer.id), newer, "the session opened during the listing was dropped");
  assert.equal(newer.goneReason, null);
  assert.equal(registry.byId(older.id), older);

  // The rule is about age, not a pass for everything: a session listed before and missing now is gone.
  backend.vanished.add(older.paneId);
  await registry.refresh();
  assert.equal(registry.byId(older.id), undefined);
  assert.equal(older.goneReason, "its pane was closed");
  assert.equal(registry.byId(newer.id), newer);
});
