// Several termhive processes that start at the same moment on a fresh home each start a tmux
// server on one socket; tmux ends all but none of them ("%exit server exited unexpectedly").
// Each backend must notice the lost race, retry, and attach to the one server that stays.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { findTmux } from "../../src/backends/find-tmux.js";
import { TmuxBackend } from "../../src/backends/tmux/tmux-backend.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";
import { endTmuxServer } from "../tmux-server.js";

const ROUNDS = 8;
const TOGETHER = 4;

test(`${TOGETHER} backends starting together on a fresh home all attach to one tmux server (${ROUNDS} rounds)`, async () => {
  const tmuxPath = findTmux("tmux")!;
  for (let round = 0; round < ROUNDS; round++) {
    const home = tempFolder("termhive-race-");
    const backends = Array.from({ length: TOGETHER }, () => new TmuxBackend({ home, tmuxPath, historyLimit: 1000 }));
    try {
      const started = await Promise.allSettled(backends.map((b) => b.start()));
      const failures = started.flatMap((s, i) => (s.status === "rejected" ? [`backend ${i}: ${(s.reason as Error).message}`] : []));
      assert.deepEqual(failures, [], `round ${round}`);
      // Each made its pane in the one server that stayed: every backend lists all of them.
      const made = await Promise.all(
        backends.map((b, i) => b.createPane({ argv: ["sleep", "60"], rows: 10, cols: 40, meta: { name: `racer-${i}` } })),
      );
      for (const backend of backends) {
        const listed = new Set((await backend.listPanes()).map((p) => p.paneId));
        assert.deepEqual(made.filter((p) => !listed.has(p.paneId)), [], `round ${round}: a pane made by another backend is missing`);
      }
    } finally {
      await Promise.all(backends.map((b) => b.stop()));
      await endTmuxServer(join(home, "tmux.sock"));
      removeTempFolder(home);
    }
  }
});
