// A command that ends while its remote host's link is frozen (sshd and termhive's control client
// stopped, the host's tmux and shell running on) is seen ended once the host is back:
// terminal_wait for its completion answers at once with its exit code, as terminal_list shows it.
// (A file of its own: with remote-frozen.test.ts's ~30 s ssh give-up, one file came near the
// runner's 90 s per file on a loaded machine.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";
import { connectionTree, signalAll } from "../fixtures/sshd/freeze.js";

const skip = sshdAvailable() ? false : "sshd (openssh-server) is not installed: apt-get install -y openssh-server";

describe("a command that ends while its host's link is frozen", { skip }, () => {
  let host: LoopbackHost;
  let h: Harness;
  let frozen: number[] = [];
  before(async () => {
    host = await startLoopbackHost();
    // A shell whose own prompt hook runs a program after a command's end (git prompts, starship
    // do): here a long one, once, after the command that asks for it. That program holds the
    // pane's foreground after the shell wrote the command's end, as a pane listed at the moment
    // a host comes back does: the end must still count.
    writeFileSync(join(host.remoteHome, ".bashrc"), 'PROMPT_COMMAND=\'if [[ -e ~/slow-prompt ]]; then rm -f ~/slow-prompt; sleep 120; fi\'\n');
    // ssh gives a silent link up after ~3 s instead of ~30 s (the first -o of each wins).
    h = await Harness.start({ TERMHIVE_SSH: `${host.sshCommand} -o ServerAliveInterval=1 -o ServerAliveCountMax=3` });
  });
  after(async () => {
    signalAll(frozen, "SIGCONT");
    await h?.destroy();
    await host?.stop();
  });

  test("once the host is back, terminal_wait for completion answers at once with the exit code", async () => {
    await h.ok("terminal_open", { name: "far", host: host.alias });
    assert.equal((await h.ok("terminal_run", { session: "far", command: "echo up" })).output, "up");
    const started = await h.ok("terminal_run", { session: "far", command: "touch ~/slow-prompt; sleep 2; (exit 7)", timeout_s: 0.5 });
    assert.equal(started.running, true, JSON.stringify(started));
    // Only the link (sshd and termhive's control client) freezes: the host's tmux and the shell
    // run on, and the command ends while the link is frozen.
    frozen = host.connectionPids().flatMap(connectionTree);
    assert.ok(frozen.length > 0);
    signalAll(frozen, "SIGSTOP");

    // ssh gives the link up, the next listing connects again and adopts the pane: it shows the end.
    const deadline = Date.now() + 60_000;
    let listed: { name: string; last_exit_code: number | null; running: string | null } | undefined;
    while (Date.now() < deadline) {
      const list = await h.ok("terminal_list");
      listed = list.sessions.find((s: { name: string }) => s.name === "far");
      if (listed && listed.running === null) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.equal(listed?.last_exit_code, 7, JSON.stringify(listed));
    signalAll(frozen, "SIGCONT");

    const waitStarted = Date.now();
    const wait = await h.ok("terminal_wait", { session: "far", for: "completion", timeout_s: 20 });
    const waitMs = Date.now() - waitStarted;
    assert.equal(wait.matched, true, JSON.stringify(wait));
    assert.equal(wait.exit_code, 7, JSON.stringify(wait));
    // At once (the prompt hook still runs for two minutes); slack for a loaded machine.
    assert.ok(waitMs < 10_000, `terminal_wait took ${waitMs} ms`);
    // The shell is past its command: the next run goes to it, not refused as busy.
    await h.ok("terminal_send", { session: "far", keys: ["C-c"] });
    assert.equal((await h.ok("terminal_run", { session: "far", command: "echo back", timeout_s: 20 })).output, "back");
  });
});
