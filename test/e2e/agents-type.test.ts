// What agents type (issue 9 §5), the way a real client calls: a bare environment in another
// folder, a fresh server process per call. Each test here failed before its fix.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";

/** The non-blank lines of a text, right-trimmed. */
const rows = (text: string): string[] => text.split("\n").map((l) => l.trimEnd()).filter(Boolean);

describe("what agents type", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.startField();
  });
  after(async () => h.destroy());

  test("an unknown parameter is an error naming the valid ones, on every tool, and does nothing", async () => {
    const r = await h.callOnce("terminal_open", { name: "remote", hostname: "x" });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /unknown parameter "hostname"/);
    assert.match(r.text, /valid parameters: name, command, cwd, env, sandbox, rows, cols/);
    const listed = await h.callOnce("terminal_list");
    assert.deepEqual(listed.data.sessions, [], "nothing was opened");
    // A misspelt parameter (timeout for timeout_s) would otherwise be dropped without a word.
    const run = await h.callOnce("terminal_run", { session: "any", command: "true", timeout: 5 });
    assert.match(run.text, /unknown parameter "timeout"; valid parameters: session, command, cwd, timeout_s/);
    const list = await h.callOnce("terminal_list", { all: true });
    assert.match(list.text, /unknown parameter "all"; valid parameters: none/);
    const hive = await h.callOnce("agent_list", { team: "x", bogus: 1, other: 2 });
    assert.equal(hive.isError, true, hive.text);
    assert.match(hive.text, /unknown parameters "bogus", "other"; valid parameters: .*team/);
    // Clients still get a usable JSON schema; it is listed lean (src/mcp/tool-list.ts): unknown
    // keys are refused by the server, as above, not spelt out in every tool's schema.
    const tools = (await h.client.listTools()).tools;
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object", tool.name);
      assert.ok(tool.inputSchema.properties, tool.name);
    }
    const open = tools.find((t) => t.name === "terminal_open")!;
    assert.ok(open.inputSchema.properties && "cwd" in open.inputSchema.properties);
  });

  test("a required parameter left out is named with what to pass, not zod's \"expected string, received undefined\"", async () => {
    const wait = await h.callOnce("terminal_wait", {});
    assert.equal(wait.isError, true, wait.text);
    assert.match(wait.text, /required parameter "session" is missing \(session id or name\)/);
    assert.doesNotMatch(wait.text, /received undefined/);
    const run = await h.callOnce("terminal_send", { text: "hi" });
    assert.match(run.text, /required parameter "session" is missing/);
    // A value of the wrong type is still said as such.
    assert.match((await h.callOnce("terminal_wait", { session: 7 })).text, /expected string, received number/);
  });

  test("text ending in a newline is submitted; embedded newlines go as one paste", async () => {
    await h.ok("terminal_open", { name: "sh" });
    // Typed by the process that saw bash turn bracketed paste on (a fresh process does not know
    // it and types keys). enter: false, but the trailing newline is the Enter a person would press.
    const sent = await h.call("terminal_send", { session: "sh", text: "echo typed-$((6*7))\n", enter: false });
    assert.equal(sent.isError, false, sent.text);
    const seen = await h.callOnce("terminal_wait", { session: "sh", pattern: "typed-42", timeout_s: 10 });
    assert.equal(seen.data.matched, true, seen.text);
    // Two lines: pasted as one, then submitted.
    await h.ok("terminal_send", { session: "sh", text: "echo a-$((1+1))\necho b-$((2+2))\n", enter: false });
    const both = await h.callOnce("terminal_wait", { session: "sh", pattern: "b-4", timeout_s: 10 });
    assert.equal(both.data.matched, true, both.text);
    assert.match(both.data.output, /a-2[\s\S]*b-4/);
  });

  test("enter: true with a trailing newline presses Enter once, not twice", async () => {
    // cat -A shows every line it gets, an empty one as a lone "$".
    // (It says "ready" first: a program silent at start is waited for until the open times out.)
    await h.ok("terminal_open", { name: "cat", command: "sh -c 'echo ready; exec cat -A'" });
    await h.callOnce("terminal_send", { session: "cat", text: "hello\n", enter: true });
    await h.callOnce("terminal_send", { session: "cat", text: "end" });
    const done = await h.callOnce("terminal_wait", { session: "cat", pattern: "end\\$", timeout_s: 10 });
    assert.equal(done.data.matched, true, done.text);
    const screen = await h.callOnce("terminal_read", { session: "cat", mode: "screen" });
    const lines = screen.data.output.split("\n").map((l: string) => l.trimEnd()).filter(Boolean);
    assert.deepEqual(lines, ["ready", "hello", "hello$", "end", "end$"]);
  });

  test("terminal_run of vim returns its drawn screen at once, reason fullscreen; terminal_wait in it returns the screen", async () => {
    writeFileSync(join(h.cwd!, "notes.txt"), "alpha\nbeta\ngamma\n");
    await h.ok("terminal_open", { name: "vim" });
    const r = await h.callOnce("terminal_run", { session: "vim", command: "vim -u NONE notes.txt", timeout_s: 30 });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.data.reason, "fullscreen", r.text);
    assert.equal(r.data.running, true);
    assert.ok(r.data.duration_ms < 10_000, `took ${r.data.duration_ms} ms`);
    const screen = rows(r.data.output);
    assert.deepEqual(screen.slice(0, 3), ["alpha", "beta", "gamma"], r.data.output);
    assert.match(screen[3]!, /^~/, r.data.output);
    assert.match(screen.at(-1)!, /notes\.txt/);
    assert.match(r.data.hint, /terminal_send/);
    assert.match(r.data.hint, /terminal_read \{"session":"vim","mode":"screen"\}/);
    // Keys typed into vim, then a wait: the answer is the screen, not redraw fragments.
    await h.callOnce("terminal_send", { session: "vim", text: "Goomega", enter: false });
    const w = await h.callOnce("terminal_wait", { session: "vim", pattern: "omega", timeout_s: 10 });
    assert.equal(w.data.matched, true, w.text);
    assert.equal(w.data.tui, true);
    const after = rows(w.data.output);
    assert.deepEqual(after.slice(0, 4), ["alpha", "beta", "gamma", "omega"], w.data.output);
    assert.match(after[4]!, /^~/, w.data.output);
    // Leave vim; the shell is back and runs commands as before.
    // (Waited for in the process that has watched the pane, as in the less test below.)
    await h.ok("terminal_send", { session: "vim", keys: ["Escape"] });
    await h.ok("terminal_send", { session: "vim", text: ":q!\n", enter: false });
    const quit = await h.call("terminal_wait", { session: "vim", for: "completion", timeout_s: 10 });
    assert.equal(quit.data.matched, true, quit.text);
    const back = await h.callOnce("terminal_run", { session: "vim", command: "echo back-$((2+3))" });
    assert.equal(back.data.output, "back-5", back.text);
  });

  test("terminal_run of less returns the page with reason fullscreen", async () => {
    writeFileSync(join(h.cwd!, "page.txt"), Array.from({ length: 100 }, (_, i) => `row ${i + 1}`).join("\n") + "\n");
    await h.ok("terminal_open", { name: "pager", rows: 20 });
    const r = await h.callOnce("terminal_run", { session: "pager", command: "less page.txt", timeout_s: 30 });
    assert.equal(r.data.reason, "fullscreen", r.text);
    assert.equal(r.data.running, true);
    const screen = rows(r.data.output);
    assert.deepEqual(screen.slice(0, 3), ["row 1", "row 2", "row 3"], r.data.output);
    assert.equal(screen.length, 20, r.data.output);
    assert.match(screen.at(-1)!, /page\.txt/);
    // Quit and wait in the process that has been watching the pane: a fresh process does not
    // know the command that started before it (its completion is not tracked across processes).
    await h.ok("terminal_send", { session: "pager", text: "q", enter: false });
    const quit = await h.call("terminal_wait", { session: "pager", for: "completion", timeout_s: 10 });
    assert.equal(quit.data.matched, true, quit.text);
    const back = await h.callOnce("terminal_run", { session: "pager", command: "echo out" });
    assert.equal(back.data.output, "out", back.text);
  });

  for (const repl of [
    { program: "python3", prompt: "python", exit: "exit()" },
    { program: "node", prompt: "node", exit: ".exit" },
  ]) {
    test(`terminal_run types into a ${repl.program} REPL started with terminal_send`, async () => {
      const name = `repl-${repl.program}`;
      await h.ok("terminal_open", { name });
      // Started the way an agent starts it: typed, not run, and the next call comes at once,
      // before the REPL has drawn its prompt.
      await h.ok("terminal_send", { session: name, text: repl.program });
      const r = await h.call("terminal_run", { session: name, command: "1+1", timeout_s: 20 });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.data.reason, "nested-prompt", r.text);
      assert.equal(r.data.prompt, repl.prompt);
      assert.equal(r.data.output, "2", r.text);
      // A fresh process adopting the pane sees the REPL's prompt at the cursor too.
      const again = await h.callOnce("terminal_run", { session: name, command: "6*7", timeout_s: 20 });
      assert.equal(again.isError, false, again.text);
      assert.equal(again.data.reason, "nested-prompt", again.text);
      assert.equal(again.data.output, "42", again.text);
      await h.ok("terminal_send", { session: name, text: repl.exit });
    });
  }

  test("terminal_run without session runs in the caller's folder and leaves nothing behind", async () => {
    await h.ok("terminal_open", { name: "anchor" }); // tmux is up, so the pane count below is comparable
    const panes = () => h.tmux("list-panes", "-a", "-F", "#{pane_id}").stdout.split("\n").filter(Boolean).length;
    const before = panes();
    const r = await h.callOnce("terminal_run", { command: "pwd; echo sum-$((20+22))" });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.data.reason, "osc133", r.text);
    assert.equal(r.data.exit_code, 0);
    assert.equal(r.data.output, `${h.cwd}\nsum-42`);
    assert.equal(r.data.session_closed, true);
    const listed = await h.callOnce("terminal_list");
    assert.ok(!listed.data.sessions.some((s: { name: string }) => s.name === r.data.session_name), listed.text);
    assert.equal(panes(), before, "no pane left");
    // cwd is the throwaway session's folder; a failing command gives its exit code and still cleans up.
    const failed = await h.callOnce("terminal_run", { command: "pwd; exit 3", cwd: "/tmp" });
    assert.equal(failed.data.session_closed, true, failed.text);
    const inTmp = await h.callOnce("terminal_run", { command: "pwd; false", cwd: "/tmp" });
    assert.equal(inTmp.data.output, "/tmp", inTmp.text);
    assert.equal(inTmp.data.exit_code, 1);
    // cwd with a session is an error, and nothing runs.
    const both = await h.callOnce("terminal_run", { session: "sh", command: "touch should-not-exist", cwd: "/tmp" });
    assert.equal(both.isError, true);
    assert.match(both.text, /cwd is for a run without session/);
    assert.equal(panes(), before, "no pane left after the failures either");
  });

  test("terminal_run without session that times out keeps the session and names it", async () => {
    const r = await h.callOnce("terminal_run", { command: "echo started; sleep 30", timeout_s: 1 });
    assert.equal(r.data.reason, "timeout", r.text);
    assert.equal(r.data.running, true);
    assert.equal(r.data.session_closed, false);
    const name = r.data.session_name as string;
    assert.match(name, /^run-/);
    assert.match(r.data.hint, new RegExp(`throwaway session ${name}`));
    const listed = await h.callOnce("terminal_list");
    const kept = listed.data.sessions.find((s: { name: string }) => s.name === name);
    assert.ok(kept, listed.text);
    assert.equal(kept.session, r.data.session);
    const closed = await h.callOnce("terminal_close", { session: name, force: true });
    assert.equal(closed.isError, false, closed.text);
  });
});
