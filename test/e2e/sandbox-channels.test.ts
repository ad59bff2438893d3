// What a sandboxed program can write that the server reads (issue 30): its relay folder, its
// shell's status file, its relayed mail. Real bubblewrap panes run the attacks themselves; the
// test judges what the server did: files outside every write path still there, the server's own
// memory (/proc/<pid>/status), another session still answering, what reached a mailbox.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TMPFS_BYTES, findBwrap } from "../../src/sandbox/bwrap.js";
import { Harness } from "./harness.js";
import { until as waitUntil } from "../until.js";
import { outsideTmp } from "../temp-folder.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000) => waitUntil(what, probe, timeoutMs, 50);

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";

// Swaps a folder and a symlink to the victim in the relay folder with renameat2(RENAME_EXCHANGE)
// as fast as it can, making them again (the folder filled with the victim's file names) each
// time the server has removed one: a server that removes the folder by path while it is
// swapped deletes the victim's files.
const SWAP_RACE = String.raw`
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
relay, victim, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
names = sorted(os.listdir(victim))
top = os.open(relay, os.O_RDONLY | os.O_DIRECTORY)
def make(d, s):
    try:
        os.mkdir(d, dir_fd=top)
        inner = os.open(d, os.O_RDONLY | os.O_DIRECTORY, dir_fd=top)
        for n in names:
            os.close(os.open(n, os.O_WRONLY | os.O_CREAT, dir_fd=inner))
        os.mkdir("sub", dir_fd=inner)
        os.close(inner)
    except OSError:
        pass
    try:
        os.symlink(victim, s, dir_fd=top)
    except OSError:
        pass
end = time.time() + seconds
rounds = swaps = 0
while time.time() < end:
    # Some are named as requests (taken, then removed), some not (swept).
    d, s = ("d%d.json" if rounds % 2 else "d%d") % (rounds % 8), "s%d" % (rounds % 8)
    make(d, s)
    for _ in range(500):
        if libc.renameat2(top, d.encode(), top, s.encode(), 2) == 0:
            swaps += 1
        else:
            make(d, s)
    rounds += 1
print("rounds", rounds, "swaps", swaps)
`;

describe("what a sandbox writes that the server reads (bubblewrap)", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome = "";
  let project = "";

  before(async () => {
    // Outside /tmp: the sandbox's /tmp is its own, and a user's HOME and projects are not there.
    root = mkdtempSync(join(outsideTmp(), "termhive-sandbox-channels-"));
    userHome = join(root, "user");
    project = join(root, "project");
    for (const dir of [userHome, project]) mkdirSync(dir);
    writeFileSync(join(userHome, ".bashrc"), "export TERMHIVE_E2E_RC=1\n");
    writeFileSync(join(root, "swap.py"), SWAP_RACE);
    h = new Harness(join(root, "termhive"), { HOME: userHome });
    h.bare = true;
    h.cwd = root;
    await h.connect();
    await h.ok("terminal_open", { name: "base", command: "bash", cwd: project });
  });
  after(async () => {
    await h?.destroy();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const run = (session: string, command: string, timeout_s = 30) => h.ok("terminal_run", { session, command, timeout_s });
  const audit = () => readFileSync(join(h.home, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  /** Another session's echo, each answered while the attack runs. */
  async function echoesWhile(work: Promise<unknown>): Promise<number> {
    let done = false;
    void work.finally(() => (done = true)).catch(() => {});
    let echoes = 0;
    while (!done) {
      const r = await run("base", `echo still-$((${echoes} + 1))`);
      assert.match(r.output, new RegExp(`still-${echoes + 1}`));
      echoes++;
    }
    return echoes;
  }

  test("relay folder: a readonly pane's folder/symlink swap race (renameat2 RENAME_EXCHANGE) deletes nothing outside and the server keeps answering", async () => {
    const victim = join(root, "victim");
    mkdirSync(victim);
    for (let i = 0; i < 300; i++) writeFileSync(join(victim, `f${String(i).padStart(3, "0")}`), "keep\n");
    await h.ok("terminal_open", { name: "swapper", command: "bash", cwd: project, sandbox: "readonly" });
    // The hive at work (any hive verb opens it): its server follows every sandboxed pane's relay folder.
    await h.ok("agent_list");
    const pid = h.pid;
    const attack = run("swapper", `python3 ${join(root, "swap.py")} "$TERMHIVE_RELAY" ${victim} 10`, 90);
    const echoes = await echoesWhile(attack);
    const result = await attack;
    assert.equal(result.exit_code, 0, result.output);
    assert.match(result.output, /swaps [1-9]/, "the race never swapped");
    assert.ok(echoes > 0);
    assert.ok(alive(pid), "the server exited");
    assert.equal(readdirSync(victim).length, 300, "files outside every write path were deleted");
    assert.ok(audit().some((e) => e.event === "relay-refused"), "nothing of the race was audited");
    assert.equal(audit().filter((e) => e.event === "relay-error" && /not a function|undefined/.test(e.error)).length, 0);
  });

  test("relay folder: a 600 MB file a readonly pane writes there is cleared by a server that only has the pane open (no hive call)", async () => {
    // A server of its own home that makes terminal calls only: before, nothing followed the
    // relay folder until some hive call opened the hive, and the file stayed on disk.
    const plain = new Harness(join(root, "termhive-plain"), { HOME: userHome });
    plain.bare = true;
    plain.cwd = root;
    await plain.connect();
    try {
      const { session } = await plain.ok("terminal_open", { name: "bigfile", command: "bash", cwd: project, sandbox: "readonly" });
      const relay = join(plain.home, "relay", session);
      const wrote = await plain.ok("terminal_run", { session: "bigfile", command: `head -c 600000000 /dev/zero > "$TERMHIVE_RELAY/big.json"; echo wrote-$((1+1))`, timeout_s: 120 });
      assert.match(wrote.output, /wrote-2/);
      const left = await until("the relay folder cleared", () => {
        const names = readdirSync(relay);
        return names.length === 0 ? names : undefined;
      }, 20_000);
      assert.deepEqual(left, []);
      const audited = readFileSync(join(plain.home, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
      assert.ok(audited.some((e) => e.event === "relay-refused" && /big\.json/.test(JSON.stringify(e))), "the removed file was not audited");
    } finally {
      await plain.destroy();
    }
  });

  test("tmpfs: every RAM-backed folder a readonly pane can write is sized (/tmp, /dev/shm, termhive's cover); /dev itself is read-only", async () => {
    await h.ok("terminal_open", { name: "sizes", command: "bash", cwd: project, sandbox: "readonly" });
    const sizes = await run("sizes", `df -B1 --output=size,target /tmp /dev/shm "$TERMHIVE_HOME" | tail -n +2`);
    const size = (target: string) => Number(new RegExp(`^\\s*(\\d+)\\s+${target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m").exec(sizes.output)?.[1]);
    assert.equal(size("/tmp"), TMPFS_BYTES.tmp, sizes.output);
    assert.equal(size("/dev/shm"), TMPFS_BYTES.shm, sizes.output);
    assert.equal(size(h.home), TMPFS_BYTES.cover, sizes.output);
    // Writing past a cover's size fails with the kernel's own error instead of taking RAM.
    const full = await run("sizes", `head -c ${2 * TMPFS_BYTES.cover} /dev/zero > "$TERMHIVE_HOME/fill" ; echo "rc=$?"; rm -f "$TERMHIVE_HOME/fill"`);
    assert.match(full.output, /No space left on device[\s\S]*rc=1/);
    const dev = await run("sizes", `echo x > /dev/fill; echo "rc=$?"; echo ok > /dev/null && echo null-ok-$((1+1))`);
    assert.match(dev.output, /Read-only file system[\s\S]*rc=1/);
    assert.match(dev.output, /null-ok-2/);
  });

  test("status file: a readonly pane fills its shell's status file (200 MB) and prints its own OSC 133 marks; the server reads a line at most, empties the file on disk and keeps answering", async () => {
    await h.ok("terminal_open", { name: "filler", command: "bash", cwd: project, sandbox: "readonly" });
    const id = ((await h.ok("terminal_list")).sessions as { name: string; session: string }[]).find((s) => s.name === "filler")!.session;
    const file = join(h.home, "shell", `status.${id}`);
    const memory = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${h.pid}/status`, "utf8"))?.[1]) * 1024;
    const before = memory("VmRSS");
    writeFileSync(`/proc/${h.pid}/clear_refs`, "5"); // the peak (VmHWM) counts from here
    // Marks printed while the file is full: the server reads the status line at each prompt mark (A).
    const marks = String.raw`printf '\e]133;A\a\e]133;B\a\e]133;C\a\e]133;D;0\a\e]133;A\a'`;
    await h.ok("terminal_send", { session: "filler", text: `S="$TERMHIVE_HOME/shell/status.$TERMHIVE_SESSION"; head -c 200000000 /dev/zero | tr '\\0' 7 > "$S"; ${marks}; ${marks}; echo filled-$((1+1)); sleep 120` });
    const written = h.ok("terminal_wait", { session: "filler", pattern: "filled-2", timeout_s: 90 });
    const echoes = await echoesWhile(written);
    assert.ok(echoes > 0);
    // Asked while the pane still sleeps: its shell has not rewritten the file at a prompt yet.
    const onDisk = await until("the status file emptied on disk", () => {
      const stat = statSync(file);
      return stat.blocks * 512 <= 1024 * 1024 ? stat : undefined;
    }, 20_000);
    assert.ok(onDisk.blocks * 512 <= 1024 * 1024);
    const peak = memory("VmHWM");
    assert.ok(peak - before < 100 * 1024 * 1024, `the server's memory grew from ${before >> 20} MB to a peak of ${peak >> 20} MB`);
    const echo = await run("base", "echo after-$((3+4))");
    assert.match(echo.output, /after-7/);
    await h.ok("terminal_send", { session: "filler", keys: ["C-c"], enter: false });
  });

  test("relayed mail: a readonly pane leaving 800 mails of 60 KB gets a burst through, the rest refused and audited; a pane with no agent mails as its pane, never as the user", async () => {
    await h.ok("agent_spawn", { name: "mailee", command: "bash", cwd: project });
    await h.ok("agent_spawn", { name: "flood", command: "bash", cwd: project, sandbox: "readonly" });
    // WAL mode: new rows land in hive.db-wal first.
    const dbBytes = () => ["hive.db", "hive.db-wal"].reduce((sum, f) => sum + (statSync(join(h.home, f), { throwIfNoEntry: false })?.size ?? 0), 0);
    const db = dbBytes();
    // Written as the in-pane termhive writes them (whole, then renamed), as fast as python can.
    const flood = await run("flood", `python3 -c 'import os,json,sys
d=os.environ["TERMHIVE_RELAY"]; body=json.dumps({"kind":"msg","to":"mailee","text":"m"*60000})
for i in range(800):
    t=os.path.join(d,".f%04d.tmp"%i); open(t,"w").write(body); os.rename(t,os.path.join(d,"%015d-f%04d.json"%(i,i)))
print("left", 800)'`, 90);
    assert.match(flood.output, /left 800/);
    const relay = join(h.home, "relay", (await h.ok("agent_list")).agents.find((a: { name: string }) => a.name === "flood").session);
    await until("the relay folder emptied", () => (readdirSync(relay).length === 0 ? true : undefined), 60_000);
    const inbox = await h.ok("hive_inbox", { agent: "mailee", peek: true, limit: 500 });
    const fromFlood = inbox.messages.filter((m: { from: string }) => m.from === "flood");
    assert.ok(fromFlood.length > 0, "no relayed mail arrived at all");
    assert.ok(fromFlood.length <= 40, `${fromFlood.length} of 800 relayed mails were kept`);
    const grew = dbBytes() - db;
    assert.ok(grew < 8 * 1024 * 1024, `hive.db grew ${grew >> 20} MB`);
    assert.ok(audit().some((e) => e.event === "relay-refused" && /pace for mail/.test(e.reason ?? "")), "the refused mail was not audited");

    await h.ok("terminal_open", { name: "lonely", command: "bash", cwd: project, sandbox: "readonly" });
    const sent = await run("lonely", "termhive msg mailee from a pane without an agent");
    assert.equal(sent.exit_code, 0, sent.output);
    const got = await until("the agentless pane's mail", async () => {
      const r = await h.ok("hive_inbox", { agent: "mailee", peek: true, limit: 500 });
      return r.messages.find((m: { text: string }) => m.text === "from a pane without an agent");
    });
    assert.equal(got.from, "pane:lonely");
  });
});
