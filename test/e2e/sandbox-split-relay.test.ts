// Issue 26's leftovers: hive_split's `sandbox` / `confirm` (as agent_spawn's), a hive_layout
// pane's own `confirm`, and the bounded relay folder. Judged by what the programs in the panes
// could do (the shell's own error, the file that is or is not there, the in-pane termhive's exit
// status and message), what reached another agent's mailbox and what is left on the host's disk.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { Harness } from "./harness.js";
import { until as waitUntil } from "../until.js";
import { outsideTmp } from "../temp-folder.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000) => waitUntil(what, probe, timeoutMs, 50);

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";

describe("hive_split and hive_layout sandboxes, the bounded relay folder (bubblewrap)", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome = "";
  let project = "";

  before(async () => {
    // Outside /tmp: the sandbox's /tmp is its own, and a user's HOME and projects are not there.
    root = mkdtempSync(join(outsideTmp(), "termhive-sandbox-split-"));
    userHome = join(root, "user");
    project = join(root, "project");
    for (const dir of [userHome, project]) mkdirSync(dir);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    const profiles = join(root, "profiles.json");
    writeFileSync(profiles, JSON.stringify({
      profiles: {
        // A program whose --norc stands for "its own permission checks off".
        risky: { extends: "shell", command: "bash", dangerousFlags: ["--norc"] },
        boxed: { extends: "shell", command: "bash", sandbox: "worktree" },
      },
    }));
    h = new Harness(join(root, "termhive"), { HOME: userHome, TERMHIVE_PROFILES: profiles });
    h.bare = true;
    h.cwd = root;
    await h.connect();
    await h.ok("terminal_open", { name: "base", command: "bash", cwd: project });
  });
  after(async () => {
    await h?.destroy();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = (session: string, command: string) => h.ok("terminal_run", { session, command, timeout_s: 30 });
  const sessionCount = async () => (await h.ok("terminal_list")).sessions.length as number;
  const audit = () => readFileSync(join(h.home, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

  test("hive_split sandbox: the split pane writes its cwd, not $HOME (the shell's own error); a plain split beside it writes $HOME", async () => {
    const split = await h.ok("hive_split", { session: "base", direction: "right", name: "sp-box", command: "bash", cwd: project, sandbox: "worktree" });
    assert.equal(split.name, "sp-box");
    const w = await run("sp-box", 'echo in > split-in.txt && echo out > "$HOME/split-leak"');
    assert.notEqual(w.exit_code, 0, w.output);
    assert.match(w.output, /Read-only file system/);
    assert.ok(existsSync(join(project, "split-in.txt")));
    assert.equal(existsSync(join(userHome, "split-leak")), false);
    await h.ok("hive_split", { session: "base", direction: "below", name: "sp-plain", command: "bash", cwd: project });
    const plain = await run("sp-plain", 'touch "$HOME/split-plain-ok"');
    assert.equal(plain.exit_code, 0, plain.output);
    assert.ok(existsSync(join(userHome, "split-plain-ok")));
  });

  test("hive_split agent: its profile's sandbox applies; a dangerous flag without a sandbox is refused (nothing opens) unless confirm or a sandbox", async () => {
    await h.ok("hive_split", { session: "base", direction: "left", agent: "sp-agent", name: "sp-agent", profile: "boxed", command: "bash", cwd: project });
    const leak = await run("sp-agent", 'touch "$HOME/split-agent-leak"');
    assert.notEqual(leak.exit_code, 0, leak.output);
    assert.match(leak.output, /Read-only file system/);
    assert.equal(existsSync(join(userHome, "split-agent-leak")), false);

    const before = await sessionCount();
    const refused = await h.call("hive_split", { session: "base", direction: "right", agent: "sp-risky", name: "sp-risky", profile: "risky", command: "bash --norc", cwd: project });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /--norc \(its own permission checks off\) and no sandbox.*confirm: true.*nothing was started/);
    assert.equal(await sessionCount(), before, "a refused split opened a pane");

    await h.ok("hive_split", { session: "base", direction: "right", agent: "sp-boxed", name: "sp-boxed", profile: "risky", command: "bash --norc", cwd: project, sandbox: "readonly" });
    const ro = await run("sp-boxed", "touch split-readonly");
    assert.notEqual(ro.exit_code, 0, ro.output);
    assert.equal(existsSync(join(project, "split-readonly")), false);
    await h.ok("hive_split", { session: "base", direction: "above", agent: "sp-confirmed", name: "sp-confirmed", profile: "risky", command: "bash --norc", cwd: project, confirm: true });
    // bash --norc has no shell integration (no exit code): the file says what the program could do.
    const free = await run("sp-confirmed", 'touch "$HOME/split-confirmed"');
    assert.ok(existsSync(join(userHome, "split-confirmed")), free.output);
  });

  test("hive_layout: an agent pane with a dangerous flag is refused naming its pane's confirm; with confirm: true it starts (unsandboxed, as asked)", async () => {
    const before = await sessionCount();
    const panes = [{ name: "lc-plain", command: "bash", cwd: project }, { name: "lc-risky", agent: "lc-risky", profile: "risky", command: "bash --norc", cwd: project }];
    const refused = await h.call("hive_layout", { layout: "horizontal", panes });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /--norc .*pass confirm: true on its pane/);
    assert.equal(await sessionCount(), before, "a refused layout opened a pane");
    const r = await h.ok("hive_layout", { layout: "horizontal", panes: [panes[0], { ...panes[1], confirm: true }] });
    assert.equal(r.panes.length, 2);
    assert.equal(r.panes[1].agent, "lc-risky");
    const w = await run("lc-risky", 'touch "$HOME/layout-confirmed"');
    assert.ok(existsSync(join(userHome, "layout-confirmed")), w.output);
  });

  test("relay folder: what a sandboxed program leaves there itself (too big, a link, a FIFO, a folder, junk) is removed with an audit line; its messages still arrive", async () => {
    await h.ok("agent_spawn", { name: "peer", command: "bash", cwd: project });
    await h.ok("hive_split", { session: "base", direction: "right", agent: "rj", name: "rj", command: "bash", cwd: project, sandbox: "readonly" });
    const relay = join(h.home, "relay", (await h.ok("agent_list")).agents.find((a: { name: string }) => a.name === "rj").session);
    const junk = await run("rj", [
      'head -c 1048576 /dev/zero > "$TERMHIVE_RELAY/000000000000001-big.json"',
      'ln -s /etc/passwd "$TERMHIVE_RELAY/000000000000002-link.json"',
      'mkfifo "$TERMHIVE_RELAY/000000000000003-fifo.json"',
      'mkdir "$TERMHIVE_RELAY/000000000000004-dir.json"',
      'echo x > "$TERMHIVE_RELAY/junk.bin"',
      "termhive msg peer after the junk",
    ].join(" && "));
    assert.equal(junk.exit_code, 0, junk.output);
    const mail = await until("the message in peer's mailbox", async () => {
      const r = await h.ok("hive_inbox", { agent: "peer", peek: true });
      return r.messages.length >= 1 ? r.messages : undefined;
    });
    assert.deepEqual(mail.map((m: { from: string; text: string }) => [m.from, m.text]), [["rj", "after the junk"]]);
    await until("the relay folder emptied", () => (readdirSync(relay).length === 0 ? true : undefined));
    const refused = await until("five relay-refused audit lines", () => {
      const lines = audit().filter((e) => e.event === "relay-refused");
      return lines.length >= 5 ? lines : undefined;
    });
    const why = new Map(refused.map((e) => [e.file as string, e]));
    // Seen whole: over the limit; seen while head still wrote it: a part, malformed. Never applied, never kept.
    assert.match(why.get("000000000000001-big.json")?.reason, /over the limit of 256 KiB|not a request \(malformed\)/);
    assert.match(why.get("000000000000002-link.json")?.reason, /not a file/);
    assert.match(why.get("000000000000003-fifo.json")?.reason, /not a regular file/);
    assert.match(why.get("000000000000004-dir.json")?.reason, /not a regular file/);
    assert.match(why.get("junk.bin")?.reason, /not a request file/);
  });

  test("relay folder: with 1000 requests waiting (no server), the in-pane termhive refuses to add one, clearly; a server takes them after", async () => {
    await h.ok("hive_split", { session: "base", direction: "right", agent: "rf", name: "rf", command: "bash", cwd: project, sandbox: "worktree" });
    const pane = ((await h.ok("terminal_list")).sessions as { name: string; pane: string; session: string }[]).find((s) => s.name === "rf")!;
    const relay = join(h.home, "relay", pane.session);
    const pid = h.pid;
    await h.close();
    await until("the server to exit", () => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    // Typed through tmux, as a person at the pane would: no termhive server runs to take them.
    const line = 'for i in $(seq 1000); do printf \'{"kind":"status","args":["working","filler"]}\' > "$TERMHIVE_RELAY/$(printf %015d $i)-fill.json"; done; termhive msg peer over the bound 2> full-err.txt; echo $? > full-code.txt';
    assert.equal(h.tmux("send-keys", "-t", pane.pane, "-l", line).status, 0);
    assert.equal(h.tmux("send-keys", "-t", pane.pane, "Enter").status, 0);
    const code = await until("the in-pane termhive's exit status", () => {
      const text = existsSync(join(project, "full-code.txt")) ? readFileSync(join(project, "full-code.txt"), "utf8") : "";
      return text.endsWith("\n") ? text.trim() : undefined;
    });
    assert.notEqual(code, "0");
    assert.match(readFileSync(join(project, "full-err.txt"), "utf8"), /relay folder .* is full: 1000 requests .* wait that no termhive server has taken \(at most 1000 \/ 8192 KiB\).*nothing was sent/);
    assert.equal(readdirSync(relay).filter((n) => n.endsWith(".json")).length, 1000);
    await h.connect();
    await h.ok("agent_list");
    await until("a server to take the waiting requests", () => (readdirSync(relay).length === 0 ? true : undefined));
    const inbox = await h.ok("hive_inbox", { agent: "peer", peek: true });
    assert.equal(inbox.messages.some((m: { text: string }) => m.text === "over the bound"), false);
    // The pane gone, its folder goes (after a last look): nothing of it stays on the disk.
    assert.ok(existsSync(relay));
    await h.ok("terminal_close", { session: "rf" });
    await h.ok("agent_list");
    assert.equal(existsSync(relay), false, "the relay folder of a closed pane is left behind");
  });
});
