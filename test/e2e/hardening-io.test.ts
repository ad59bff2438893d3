// Hardening of termhive's I/O edges, end to end through the built server: a full disk,
// oversized chunked HTTP bodies, uncaught errors, vanished HTTP clients, file modes under
// TERMHIVE_HOME and size caps on the audit log and recordings.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { spawnSync } from "node:child_process";
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { serve, type Served } from "./serve-process.js";
import { tempFolder } from "../temp-folder.js";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A real small filesystem (tmpfs; the tests run as root). Returns its mount point. */
function mountTmpfs(sizeMb: number): string {
  const dir = tempFolder("termhive-full-");
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0700`, "tmpfs", dir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`mount tmpfs: ${r.stderr}`);
  return dir;
}

function unmount(dir: string): void {
  spawnSync("umount", ["-l", dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** Fills the filesystem of `dir` to the last byte with one file; returns its path. */
function fill(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  // The last partial blocks too: a small write must fail, not fit into the tail.
  try {
    for (;;) writeSync(fd, block, 0, 512);
  } catch {
    // full
  }
  closeSync(fd);
  return path;
}

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });

/** POSTs `total` bytes with Transfer-Encoding: chunked (no Content-Length), 64 KB at a time. */
function chunkedPost(s: Served, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: s.port, path: "/mcp", method: "POST", headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    let answered = false;
    req.on("response", () => (answered = true));
    req.on("error", (e: NodeJS.ErrnoException) => (answered && (e.code === "EPIPE" || e.code === "ECONNRESET") ? undefined : reject(e)));
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const pump = () => {
      while (sent < total && !answered) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("HTTP: a chunked body over --max-body-mb", () => {
  let s: Served;
  before(async () => (s = await serve(["--max-body-mb", "1"])));
  after(async () => s.stop());

  test("is answered 413 and the server keeps serving", async () => {
    assert.equal(await chunkedPost(s, 3 * 1024 * 1024), 413);
    // The old failure: a 500, then ~5 s later the discard timer hit a null socket and the process died.
    await new Promise((r) => setTimeout(r, 6_000));
    assert.equal(s.proc.exitCode, null, `serve exited: ${s.stderr()}`);
    assert.equal(await chunkedPost(s, 3 * 1024 * 1024), 413);
    assert.doesNotMatch(s.stderr(), /TypeError|internal error/);
  });
});

describe("a full disk under TERMHIVE_HOME", () => {
  let mount: string;
  let h: Harness;
  let stderr = "";
  before(async () => {
    mount = mountTmpfs(4);
    const userHome = tempFolder("termhive-user-");
    h = new Harness(mount, { HOME: userHome });
    await h.connect();
    h.transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  });
  after(async () => {
    await h.close();
    h.tmux("kill-server");
    unmount(mount);
  });

  test("every call answers clearly while full, and all recovers once space frees", async () => {
    await h.ok("terminal_open", { name: "rec", command: "bash" });
    await h.ok("agent_register", { name: "a1", session: "rec" });
    await h.ok("hive_mail", { to: "a1", text: "before" });
    const filler = fill(mount);
    // Output the recorder must write: the write fails with ENOSPC.
    const run = await h.call("terminal_run", { session: "rec", command: "seq 1 30000; echo done-$((6*6))" });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /done-36/);
    const list = await h.call("terminal_list");
    assert.equal(list.isError, false, list.text);
    const mail = await h.call("hive_mail", { to: "a1", text: "while full" });
    assert.ok(mail.isError, "a mail cannot be stored on a full disk");
    assert.doesNotMatch(mail.text, /internal error/);
    assert.match(mail.text, /disk is full|no space/i);
    const open = await h.call("terminal_open", { name: "second", command: "bash" });
    // It may work (its recording starts off) or be refused, but then saying why.
    if (open.isError) assert.match(open.text, /full|no space/i);
    assert.doesNotMatch(open.text, /internal error/);

    assert.match(stderr, /recording of session \S+ \(rec\) is off: the disk is full/);
    // Each call is audited; a few big entries use up what was left of the log's last page.
    for (let i = 0; i < 6; i++) await h.ok("terminal_send", { session: "rec", text: `# ${"y".repeat(1500)}` });
    assert.match(stderr, /cannot write the audit log \S+: the disk is full/);
    assert.doesNotMatch(stderr, /ENOSPC.*\n\s+at /, "no uncaught stack");

    unlinkSync(filler);
    await h.ok("hive_mail", { to: "a1", text: "after" });
    // The recorder retries while output comes (every 2 s); keep some coming until it is back.
    type Ev = { data: { event?: string; path: string; reason: string } };
    let events: Ev[] = [];
    const deadline = Date.now() + 20_000;
    while (!events.some((e) => e.data.event === "recording_on") && Date.now() < deadline) {
      await h.ok("terminal_run", { session: "rec", command: "echo recovered-$((6*7))" });
      events = (await h.ok("hive_events", { since: 0 })).events;
    }
    const off = events.find((e) => e.data.event === "recording_off");
    assert.ok(off, `a hive event says the recording stopped: ${JSON.stringify(events.map((e) => e.data))}\n${stderr}`);
    assert.ok(events.some((e) => e.data.event === "recording_on"), "and one that it is back");
    assert.match(stderr, /the audit log \S+ is written again/);
    assert.match(off.data.reason, /no space|disk is full/i);
    // Output after the recorder is back is in the cast (what came while it was off is not).
    await h.ok("terminal_run", { session: "rec", command: "echo recorded-$((7*8))" });
    const cast = readFileSync(off.data.path, "utf8");
    assert.match(cast, /recorded-56/);
    assert.match(cast, /bytes of output were not recorded \(the disk is full/);
    // Every line still parses: a write torn by the full disk does not glue onto the next one.
    for (const line of cast.trim().split("\n")) assert.doesNotThrow(() => JSON.parse(line), line.slice(0, 300));
  });
});

describe("nothing under TERMHIVE_HOME leaks", () => {
  let h: Harness;
  before(async () => (h = await Harness.start()));
  after(async () => h.destroy());

  function walk(dir: string, out: { path: string; mode: number; dir: boolean; socket: boolean }[] = []) {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      const st = lstatSync(path);
      out.push({ path, mode: st.mode & 0o777, dir: st.isDirectory(), socket: st.isSocket() });
      if (st.isDirectory()) walk(path, out);
    }
    return out;
  }

  test("files are 0600, folders 0700, and a secret is in no file", async () => {
    const secret = "hunter2-Zq8v-secret";
    await h.ok("terminal_open", { name: "perm", command: "bash" });
    await h.ok("terminal_run", { session: "perm", command: "echo one; export X=$((2+3))" });
    await h.ok("terminal_run", { session: "perm", command: "echo two-$X" });
    await h.ok("agent_register", { name: "p1", session: "perm" });
    await h.ok("hive_mail", { to: "p1", text: "hello" });
    // A secret typed at the shell prompt: bash runs it (command not found); no file may hold it.
    await h.ok("terminal_send", { session: "perm", secret });
    // Back at the prompt: the moment a command-line file would still hold it.
    await h.ok("terminal_wait", { session: "perm", for: "completion", timeout_s: 10 });
    const entries = walk(h.home).filter((e) => !e.path.startsWith(join(h.home, "user")));
    // The one program there (bin/termhive, which panes run) is owner-only too, and executable.
    const program = join(h.home, "bin", "termhive");
    const loose = entries.filter((e) =>
      e.dir ? e.mode !== 0o700 : e.socket ? (e.mode & 0o077) !== 0 : e.mode !== (e.path === program ? 0o700 : 0o600),
    );
    assert.deepEqual(loose.map((e) => `${e.path.slice(h.home.length)} ${e.mode.toString(8)}`), []);
    const holding = entries.filter((e) => !e.dir && !e.socket && readFileSync(e.path).includes(secret));
    assert.deepEqual(holding.map((e) => e.path.slice(h.home.length)), []);

    // A shell that is gone leaves no command-line file behind once the next bash starts.
    const cmdlines = () => readdirSync(join(h.home, "shell")).filter((n) => n.startsWith(".termhive-cmdline."));
    const before = cmdlines();
    assert.equal(before.length, 1);
    await h.ok("terminal_close", { session: "perm" });
    // The closed shell exits on its own time after SIGHUP; the file goes once it is gone.
    const pid = Number(before[0]!.split(".").pop());
    for (const deadline = Date.now() + 10_000; isAlive(pid) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await h.ok("terminal_open", { name: "perm2", command: "bash" });
    assert.ok(!cmdlines().includes(before[0]!), `${before[0]} is removed: ${cmdlines()}`);
  });
});

describe("a secret typed at a shell prompt leaves no trace in the shell", () => {
  let h: Harness;
  before(async () => (h = await Harness.start()));
  after(async () => h.destroy());

  // The history listing per shell; a pattern like `hunte[r]2-…` cannot match its own command line.
  // fish keeps one history per HOME across runs: each run's secret is its own.
  const secret = `hunter2-${Math.random().toString(36).slice(2, 8)}`;
  const histories: Record<string, string> = {
    bash: "history | grep -c 'PATTERN'",
    zsh: "fc -l 1 | grep -c 'PATTERN'",
    fish: "history | grep -c 'PATTERN'",
  };
  for (const [shell, count] of Object.entries(histories)) {
    test(`${shell}: the line runs, and is in no history and no command-line report`, async () => {
      const session = `sec-${shell}`;
      await h.ok("terminal_open", { name: session, command: shell });
      await h.ok("terminal_run", { session, command: "echo before" });
      await h.ok("terminal_send", { session, secret: shell === "fish" ? `set -gx TOK ${secret}` : `export TOK=${secret}` });
      await h.ok("terminal_wait", { session, for: "completion", timeout_s: 10 });
      // It ran: the variable holds the secret's value (its length, so the value is not printed).
      const ran = await h.ok("terminal_run", { session, command: shell === "fish" ? "string length -- $TOK" : "echo ${#TOK}" });
      assert.equal(String(ran.output).trim(), String(secret.length));
      const listed = await h.ok("terminal_run", { session, command: count.replace("PATTERN", `hunte[r]${secret.slice(6)}`) });
      assert.equal(String(listed.output).trim(), "0", `${shell} history holds the secret line`);
      // The command before it is still in the history: only the secret's line was taken out.
      const kept = await h.ok("terminal_run", { session, command: count.replace("PATTERN", "ech[o] before") });
      assert.notEqual(String(kept.output).trim(), "0");
      const files = readdirSync(join(h.home, "shell")).map((n) => join(h.home, "shell", n));
      assert.deepEqual(files.filter((f) => readFileSync(f).includes(secret)), []);
    });
  }
});

describe("HTTP: MCP sessions of clients that vanish without DELETE", () => {
  let s: Served;
  const TTL_S = 2;
  before(async () => (s = await serve([], undefined, { TERMHIVE_HTTP_MAX_SESSIONS: "3", TERMHIVE_HTTP_SESSION_TTL_S: String(TTL_S) })));
  after(async () => s.stop());

  /** An initialize by a client that then vanishes; returns its session id. */
  async function vanishingClient(): Promise<string> {
    const r = await fetch(s.url, { method: "POST", headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: INIT });
    await r.text();
    assert.equal(r.status, 200);
    return r.headers.get("mcp-session-id")!;
  }

  async function ping(id: string): Promise<number> {
    const r = await fetch(s.url, {
      method: "POST",
      headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
    });
    await r.text();
    return r.status;
  }

  test("when full, the least recently used idle session makes room instead of locking everyone out", async () => {
    const [a, b, c] = [await vanishingClient(), await vanishingClient(), await vanishingClient()];
    assert.equal(await ping(a), 200); // a is now more recent than b
    const d = await vanishingClient(); // was: 503 "too many MCP sessions (3)"
    assert.equal(await ping(b), 404, "b, least recently used, was closed");
    for (const id of [a, c, d]) assert.equal(await ping(id), 200);
  });

  test("a session idle past TERMHIVE_HTTP_SESSION_TTL_S is closed", async () => {
    const kept = await vanishingClient();
    const gone = await vanishingClient();
    // kept is used every half TTL, gone never: after 1.5 TTL only gone has been idle a whole TTL.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, (TTL_S * 1000) / 2));
      assert.equal(await ping(kept), 200);
    }
    assert.equal(await ping(gone), 404);
  });
});

describe("the audit log and recordings stop growing at their caps", () => {
  let h: Harness;
  const CAP = 64 * 1024;
  before(async () => (h = await Harness.start({ TERMHIVE_RECORDING_MAX_MB: String(CAP / 1024 / 1024), TERMHIVE_AUDIT_MAX_MB: String(CAP / 1024 / 1024) })));
  after(async () => h.destroy());

  test("each rotates to one older file with a marker; every line still parses", async () => {
    await h.ok("terminal_open", { name: "big", command: "bash" });
    await h.ok("agent_register", { name: "big", session: "big" }); // a hive to hear the rotation
    // ~600 KB of output: ten times the recording cap.
    await h.ok("terminal_run", { session: "big", command: "seq 1 100000 | tail -c 600000 >/dev/tty; echo done" });
    for (let i = 0; i < 200; i++) await h.ok("terminal_send", { session: "big", text: `# audit line ${i} ${"x".repeat(400)}` });
    await h.ok("terminal_run", { session: "big", command: "echo last-line-$((40+2))" });
    await h.ok("terminal_close", { session: "big" });

    const [id] = readdirSync(join(h.home, "sessions"));
    const dir = join(h.home, "sessions", id!);
    const cast = readFileSync(join(dir, "output.cast"), "utf8");
    const older = readFileSync(join(dir, "output.cast.1"), "utf8");
    for (const file of [cast, older]) {
      // One line (a chunk of output) may carry a file past the cap; never a second.
      assert.ok(Buffer.byteLength(file) < CAP + 70_000, `recording of ${Buffer.byteLength(file)} bytes`);
      for (const line of file.trim().split("\n")) assert.doesNotThrow(() => JSON.parse(line), line.slice(0, 200));
    }
    assert.match(cast, /last-line-42/);
    assert.match(cast.split("\n").slice(0, 2).join("\n"), /TERMHIVE_RECORDING_MAX_MB/, "the new file starts with a header and a marker");
    const events = (await h.ok("hive_events", { since: 0 })).events as { data: { event?: string } }[];
    assert.ok(events.some((e) => e.data.event === "recording_rotated"));

    const audit = statSync(join(h.home, "audit.jsonl")).size;
    const auditOlder = statSync(join(h.home, "audit.jsonl.1")).size;
    assert.ok(audit <= CAP && auditOlder <= CAP, `audit ${audit} + ${auditOlder} bytes`);
    assert.match(readFileSync(join(h.home, "audit.jsonl"), "utf8"), /echo last-line-/);
  });
});

describe("output tmux drops because termhive fell behind", () => {
  let h: Harness;
  before(async () => (h = await Harness.start()));
  after(async () => h.destroy());

  // Skipped from npm test: in about one run of three the flooding command goes on long after
  // SIGCONT (tmux keeps the pane slowed to this client's pace, the loop ends only much later)
  // and the file's 90 s limit ends it. Run by hand with --test-name-pattern="output was lost".
  test("a pane whose output tmux stops sending without a word: the run ends from the shell's status line, and output flows again", async () => {
    await h.ok("terminal_open", { name: "silenced", command: "bash" });
    const pane = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "silenced").pane;
    const run = h.ok("terminal_run", { session: "silenced", command: "echo started-$((1+1)); sleep 2; echo done-$((2+3)); (exit 4)", timeout_s: 60 });
    for (const deadline = Date.now() + 10_000; !String((await h.ok("terminal_read", { session: "silenced", mode: "screen" })).output).includes("started-2"); ) {
      assert.ok(Date.now() < deadline, "the command started");
      await new Promise((r) => setTimeout(r, 50));
    }
    // What tmux does to a lagging client in the case under test, done on purpose: this pane's
    // output stops reaching the server's control client, and nothing tells it so.
    for (const client of h.tmux("list-clients", "-F", "#{client_name}").stdout.trim().split("\n")) {
      assert.equal(h.tmux("refresh-client", "-t", client, "-A", `${pane}:off`).status, 0);
    }
    const r = await run;
    assert.equal(r.exit_code, 4);
    assert.match(String(r.output), /started-2/);
    assert.doesNotMatch(String(r.output), /done-5/, "printed while the pane was silenced");
    assert.match(String(r.hint), /part of this output was lost \(the pane's output stopped coming from tmux; resumed\)/);
    const next = await h.ok("terminal_run", { session: "silenced", command: "echo flowing-$((3+4))" });
    assert.equal(next.output, "flowing-7");
    assert.equal(next.hint, undefined);
  });

  test("a run whose output was lost says so, and still ends with its exit code", async () => {
    await h.ok("terminal_open", { name: "behind", command: "bash" });
    // ~4 MB over ~12 s: more than the pipe to a stopped server holds, for longer than tmux's
    // pause-after (10 s), so tmux pauses the pane for this server and drops what it missed.
    const run = h.ok("terminal_run", { session: "behind", command: "for i in $(seq 1 40); do seq 1 20000; sleep 0.3; done; exit_with() { return $1; }; exit_with 3", timeout_s: 120 });
    for (const deadline = Date.now() + 10_000; !String((await h.ok("terminal_read", { session: "behind", mode: "screen" })).output).includes("19999"); ) {
      assert.ok(Date.now() < deadline, "the flood started");
      await new Promise((r) => setTimeout(r, 50));
    }
    // Stopped for longer than tmux's pause-after: the condition under test, not a wait for a race.
    process.kill(h.pid, "SIGSTOP");
    await new Promise((r) => setTimeout(r, 13_000));
    process.kill(h.pid, "SIGCONT");
    const r = await run;
    assert.equal(r.exit_code, 3);
    // tmux says it paused the pane, or (tmux 3.3a, under load) stops sending it without saying
    // so and termhive sees the silence while the shell reports the end.
    assert.match(String(r.hint), /part of this output was lost \((tmux paused the pane because termhive fell behind|the pane's output stopped coming from tmux; resumed)\)/);
    assert.match(readFileSync(join(h.home, "audit.jsonl"), "utf8"), /"event":"output-lost"/);
    // The next run starts after the hole: no warning.
    const next = await h.ok("terminal_run", { session: "behind", command: "echo fine" });
    assert.equal(next.output, "fine");
    assert.equal(next.hint, undefined);
  });
});
