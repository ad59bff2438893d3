// The Backend contract, case by case, on every backend: tmux (real tmux), pty (node-pty) and
// iTerm2 (the protocol-level simulator in test/fixtures/iterm2-sim, real shells behind it).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Backend, PaneInfo } from "../../src/backends/backend.js";
import { Iterm2Backend } from "../../src/backends/iterm2/iterm2-backend.js";
import { PtyBackend } from "../../src/backends/pty/pty-backend.js";
import { findTmux } from "../../src/backends/find-tmux.js";
import { TmuxBackend } from "../../src/backends/tmux/tmux-backend.js";
import { Iterm2Simulator } from "../fixtures/iterm2-sim/server.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";
import { endTmuxServer } from "../tmux-server.js";
import { until as waitUntil } from "../until.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000) => waitUntil(what, probe, timeoutMs, 25);

interface Subject {
  name: string;
  setUp(): Promise<void>;
  make(): Backend;
  /** Panes survive the process that made them, so a new one adopts them. */
  survivesRestart: boolean;
  tearDown(): Promise<void>;
}

function tmuxSubject(): Subject {
  let home = "";
  return {
    name: "tmux",
    survivesRestart: true,
    async setUp() {
      home = tempFolder("termhive-contract-");
    },
    make: () => new TmuxBackend({ home, tmuxPath: findTmux("tmux")!, historyLimit: 2000, sessionName: "contract" }),
    async tearDown() {
      // The backend's stop() leaves its tmux server running (panes outlive termhive, by design).
      await endTmuxServer(join(home, "tmux.sock"));
      removeTempFolder(home);
    },
  };
}

function ptySubject(): Subject {
  return { name: "pty", survivesRestart: false, setUp: async () => {}, make: () => new PtyBackend(), tearDown: async () => {} };
}

function iterm2Subject(): Subject {
  let sim: Iterm2Simulator;
  return {
    name: "iterm2 (simulated)",
    survivesRestart: true,
    async setUp() {
      sim = await Iterm2Simulator.start();
    },
    make: () => new Iterm2Backend({ env: sim.env() }),
    async tearDown() {
      await sim.stop();
    },
  };
}

const SHELL = ["bash", "--norc", "--noprofile"];

for (const subject of [tmuxSubject(), ptySubject(), iterm2Subject()]) {
  describe(`backend contract: ${subject.name}`, () => {
    let backend: Backend;
    const output = new Map<string, string>();
    const exits = new Map<string, { status: number | null; signal: number | null }>();
    const listen = (b: Backend) => {
      b.on("output", (pane, data) => output.set(pane, (output.get(pane) ?? "") + data.toString("utf8")));
      b.on("exit", (pane, status, signal) => exits.set(pane, { status, signal }));
    };
    let shell: PaneInfo;

    before(async () => {
      await subject.setUp();
      backend = subject.make();
      listen(backend);
      await backend.start();
    });
    after(async () => {
      await backend.stop();
      await subject.tearDown();
    });

    test("open: a pane with its metadata, alive", async () => {
      shell = await backend.createPane({ argv: SHELL, rows: 24, cols: 80, meta: { name: "contract-shell" } });
      assert.equal(shell.dead, false);
      assert.equal(shell.meta.name, "contract-shell");
      const listed = (await backend.listPanes()).find((p) => p.paneId === shell.paneId);
      assert.equal(listed?.meta.name, "contract-shell");
    });

    test("send: input reaches the program and its output arrives", async () => {
      await backend.writeInput(shell.paneId, Buffer.from("echo contract-$((20+22))\r"));
      await until("the echo's output", () => (/contract-42\r?\n/.test(output.get(shell.paneId) ?? "") ? true : undefined));
      await backend.writeInput(shell.paneId, Buffer.from("echo keys"));
      await backend.sendKeys(shell.paneId, ["Enter"]);
      await until("keys' output", () => (/\bkeys\r?\n/.test(output.get(shell.paneId) ?? "") ? true : undefined));
    });

    test("exit: the status arrives, with the last output, and the pane stays readable until closed", async () => {
      const short = await backend.createPane({ argv: ["sh", "-c", "echo last-words; exit 7"], rows: 24, cols: 80, meta: { name: "contract-exit" } });
      // As the registry does: tmux can miss a SIGCHLD under load until asked to reap.
      let reapedAt = Date.now();
      const exit = await until("exit", () => {
        if (Date.now() - reapedAt > 500) {
          reapedAt = Date.now();
          void backend.reapExited?.();
        }
        return exits.get(short.paneId);
      });
      assert.deepEqual(exit, { status: 7, signal: null });
      // Readable after the exit: streamed, or (tmux, when the program ended before its output
      // was streamed) in the pane's kept screen.
      const readable = (output.get(short.paneId) ?? "") + (await backend.snapshot(short.paneId)).history;
      assert.match(readable, /last-words/);
      const info = await backend.paneInfo(short.paneId);
      assert.equal(info?.dead, true);
      assert.equal(info?.exitStatus, 7);
      await backend.kill(short.paneId);
      assert.equal((await backend.listPanes()).some((p) => p.paneId === short.paneId), false);
    });

    test("shared values: set, read, compare-and-set", async () => {
      await backend.shared.writeShared(shell.paneId, "claim.x", "me");
      assert.equal(await backend.shared.readShared(shell.paneId, "claim.x"), "me");
      assert.equal(await backend.shared.swapShared(shell.paneId, "claim.x", "other", "you"), "me");
      assert.equal(await backend.shared.swapShared(shell.paneId, "claim.x", "me", "you"), "you");
      await backend.shared.writeShared(null, "server-key", "v1");
      assert.equal(await backend.shared.readShared(null, "server-key"), "v1");
    });

    test("list/adopt: a new backend instance finds the pane by name (where panes outlive the process)", async () => {
      const second = subject.make();
      try {
        await second.start();
        const found = (await second.listPanes()).find((p) => p.meta.name === "contract-shell");
        if (!subject.survivesRestart) {
          assert.equal(found, undefined, "pty panes belong to the process that made them");
          return;
        }
        assert.equal(found?.paneId, shell.paneId);
        const snap = await second.snapshot(found.paneId);
        assert.match(snap.history, /contract-42/);
        const seen: string[] = [];
        second.on("output", (pane, data) => pane === found.paneId && seen.push(data.toString("utf8")));
        await second.writeInput(found.paneId, Buffer.from("echo adopted-$((2*3))\r"));
        await until("output on the adopting backend", () => (/adopted-6\r?\n/.test(seen.join("")) ? true : undefined));
      } finally {
        await second.stop();
      }
    });

    test("close: the pane is gone", async () => {
      await backend.kill(shell.paneId);
      assert.equal((await backend.listPanes()).some((p) => p.paneId === shell.paneId), false);
    });
  });
}
