// The MCP registration files the server reads at a sandboxed launch to hide its serve token
// (sandbox/protect.ts) can be written by a sandbox: a project's `.mcp.json` lies in a worktree
// pane's write path (where none was, the pane makes one), `~/.claude.json` in a policy that names
// it. Read whole, a 300 MB one took the server's memory up by twice its size and a FIFO there
// stopped the server for good (issue 30 §4's rule: every file a sandbox can write and the server
// reads is read with a bound). Real bubblewrap panes; judged by the server's own memory
// (/proc/<pid>/status), its answers, and what the panes see.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { Harness } from "./harness.js";
import { outsideTmp } from "../temp-folder.js";

const bwrap = process.platform === "linux" ? findBwrap() : null;
const skip = bwrap ? false : "bubblewrap (bwrap) is not installed (apt-get install bubblewrap; .ci/run installs it)";
const TOKEN = "serve-token-" + "b".repeat(40);
const MASK = "termhive-token-hidden-in-sandbox";
/** A launch that reads nothing large: well within this even at load 20. */
const OPEN_MS = 20_000;

describe("files a sandbox can write are read with a bound at the next launch", { skip }, () => {
  let h: Harness;
  let root = "";
  let userHome = "";
  let thHome = "";

  before(async () => {
    // The HOME outside /tmp (a sandbox's /tmp is its own), termhive's home the default one in it.
    root = mkdtempSync(join(outsideTmp(), "termhive-bounded-"));
    userHome = join(root, "user");
    thHome = join(userHome, ".local", "state", "termhive");
    mkdirSync(thHome, { recursive: true });
    writeFileSync(join(thHome, "token"), TOKEN + "\n", { mode: 0o600 });
    h = new Harness(thHome, { HOME: userHome });
    h.bare = true;
    h.cwd = userHome;
    await h.connect();
  });
  after(async () => {
    await h?.destroy();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const memory = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${h.pid}/status`, "utf8"))?.[1]) * 1024;

  /** Opens a sandboxed pane within OPEN_MS, or says how long the server took to answer (if it did). */
  async function openWithin(args: Record<string, unknown>, unblock?: () => void): Promise<string> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), OPEN_MS)));
    const opening = h.ok("terminal_open", args);
    const first = await Promise.race([opening, late]);
    clearTimeout(timer);
    if (first === "late") {
      // Let a server stuck on the file go on, so the failure is reported and the rest can run.
      unblock?.();
      await opening.catch(() => undefined);
      assert.fail(`terminal_open ${JSON.stringify(args)} had not answered after ${OPEN_MS} ms (answered after ${Date.now() - started} ms, once unblocked)`);
    }
    return (first as { session: string }).session;
  }

  test("a real-sized ~/.claude.json (24 MB, the token across a read's chunk boundary and at the end) reaches the pane whole and masked", async () => {
    const project = join(userHome, "big-history");
    mkdirSync(project);
    // Claude Code's project history makes files of tens of MB; the registration is in the middle of one read's end and the next's start.
    const registered = `"Authorization":"Bearer ${TOKEN}"`;
    const cut = 1024 * 1024 - 20;
    const body = "x".repeat(cut - 2) + "\n" + registered + "\n" + "y".repeat(23 * 1024 * 1024) + registered + "\n";
    const file = join(userHome, ".claude.json");
    writeFileSync(file, body);
    try {
      const session = await openWithin({ name: "big-history", command: "bash", cwd: project, sandbox: "readonly" });
      // Counted, not printed: termhive's own output redaction would hide a printed token either way.
      const r = await h.ok("terminal_run", { session, command: `wc -c < ~/.claude.json; grep -c serve-token- ~/.claude.json; grep -c ${MASK} ~/.claude.json`, timeout_s: 30 });
      assert.deepEqual(r.output.trim().split("\n").map(Number), [Buffer.byteLength(body) - 2 * (TOKEN.length - MASK.length), 0, 2], r.output);
      assert.equal(readFileSync(file, "utf8"), body, "the file outside is unchanged");
      await h.ok("terminal_close", { session });
    } finally {
      rmSync(file, { force: true });
    }
  });

  /** A worktree pane whose policy writes `projects` leaves there what `command` makes (no .mcp.json was there at its launch). */
  async function paneLeaves(projects: string[], command: string): Promise<void> {
    for (const dir of projects) mkdirSync(dir);
    const writer = await openWithin({ command: "bash", cwd: projects[0], sandbox: { write: projects, network: "off" } });
    const made = await h.ok("terminal_run", { session: writer, command: `${command} && echo made`, timeout_s: 30 });
    assert.match(made.output, /made/, made.output);
    await h.ok("terminal_close", { session: writer });
  }

  test("a worktree pane leaves a 300 MB .mcp.json in its project: the next launch there answers at once, the server's memory stays put, the pane gets an empty file for the one too large to look through", async () => {
    const big = join(userHome, "proj-big");
    await paneLeaves([big], "truncate -s 300M .mcp.json");
    // A registration at its end, as a user's own would be: the pane must not read it either.
    appendFileSync(join(big, ".mcp.json"), `{"Authorization":"Bearer ${TOKEN}"}\n`);
    assert.ok(statSync(join(big, ".mcp.json")).size > 300 * 1024 * 1024);
    const before = memory("VmRSS");
    writeFileSync(`/proc/${h.pid}/clear_refs`, "5"); // the peak (VmHWM) counts from here
    const reader = await openWithin({ name: "reader", command: "bash", cwd: big, sandbox: "worktree" });
    const peak = memory("VmHWM");
    assert.ok(peak - before < 100 * 1024 * 1024, `the server's memory grew from ${before >> 20} MB to a peak of ${peak >> 20} MB`);
    const seen = await h.ok("terminal_run", { session: reader, command: "wc -c < .mcp.json", timeout_s: 30 });
    assert.equal(seen.output.trim(), "0", `the pane read the file it could not be given masked: ${seen.output}`);
    await h.ok("terminal_close", { session: reader });
  });

  test("a worktree pane leaves a FIFO as .mcp.json in its project: the next launch there answers, and the server with it", async () => {
    const fifo = join(userHome, "proj-fifo");
    await paneLeaves([fifo], "mkfifo .mcp.json");
    // Read as a file, the server waits for a writer that never comes: one is made if it does, so the failure is reported.
    const unblock = () => {
      try {
        closeSync(openSync(join(fifo, ".mcp.json"), constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // no reader: nothing waits on it
      }
    };
    const inFifo = await openWithin({ name: "in-fifo", command: "bash", cwd: fifo, sandbox: "worktree" }, unblock);
    const echo = await h.ok("terminal_run", { session: inFifo, command: "echo after-$((3+4))", timeout_s: 30 });
    assert.match(echo.output, /after-7/);
  });
});
