// The hive through the MCP client against real tmux: layouts, agents/teams, cascade, parallel
// send/read, status detection and verified delivery into a TUI, worktrees, kill -9 + restart.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Harness, CLI } from "./harness.js";
import { removeAtExit, removeTempFolder, tempFolder } from "../temp-folder.js";

const FAKE_AGENT = String.raw`// A fake interactive assistant for the hive e2e tests. It looks like Claude Code's chrome
// (a "> " input line, "? for shortcuts", "esc to interrupt" while working, a numbered
// permission menu) and, like real TUIs, swallows an Enter that comes too soon after a paste.
const out = (s) => process.stdout.write(s);
const SWALLOW_MS = 80;
process.stdin.setRawMode(true);
process.stdin.resume();
process.stdin.setEncoding("utf8");
out("\x1b[?2004h");
let log = ["fake agent v1"];
let input = "";
let state = "idle";
let pasting = false;
let pasteEndAt = 0;
const footer = () =>
  state === "working" ? "✻ Working… (3s · esc to interrupt)"
  : state === "permission" ? "Do you want to proceed?\r\n❯ 1. Yes\r\n  2. No"
  : "  ? for shortcuts";
// A dialog takes the input box's place, as in Claude Code 2.1.3xx.
const render = () => out("\x1b[2J\x1b[H" + log.slice(-12).join("\r\n") + "\r\n" + footer() + (state === "permission" ? "" : "\r\n> " + input));
function submit() {
  const text = input;
  input = "";
  log.push("you said: " + text);
  if (text === "osc") {
    out("\x1b]1337;Custom=id=termhive:status=error&detail=from%20osc\x07");
    render();
    return;
  }
  state = "working";
  render();
  setTimeout(() => {
    state = text.includes("permission") ? "permission" : "idle";
    if (state === "idle") log.push("done: " + text);
    render();
  }, 700);
}
process.stdin.on("data", (chunk) => {
  let s = chunk;
  while (s.length) {
    if (s.startsWith("\x1b[200~")) { pasting = true; s = s.slice(6); continue; }
    if (s.startsWith("\x1b[201~")) { pasting = false; pasteEndAt = Date.now(); s = s.slice(6); render(); continue; }
    const ch = s[0]; s = s.slice(1);
    if (pasting) { input += ch === "\r" ? " " : ch; continue; }
    if (ch === "\r") {
      if (Date.now() - pasteEndAt < SWALLOW_MS) continue; // the swallowed Enter real TUIs have
      if (state === "permission") continue;
      submit();
    } else if (state === "permission" && (ch === "1" || ch === "2")) {
      log.push(ch === "1" ? "approved" : "denied");
      state = "idle";
      render();
    } else if (ch === "\x03") process.exit(0);
    else { input += ch; render(); }
  }
});
render();
`;

describe("hive", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h.destroy());

  const paneOf = async (session: string) => (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === session).pane as string;

  test("quad layout: 4 agents in 2 teams, real tmux panes with status borders", async () => {
    await h.ok("team_create", { name: "org" });
    const r = await h.ok("hive_layout", {
      layout: "quad",
      panes: [
        { name: "a1", agent: "a1", team: "red" },
        { name: "a2", agent: "a2", team: "red" },
        { name: "b1", agent: "b1", team: "blue" },
        { name: "b2", agent: "b2", team: "blue" },
      ],
      save_as: "four",
    });
    assert.equal(r.panes.length, 4);
    for (const p of r.panes) assert.equal(p.ready, "ready");
    const panes = h.tmux("list-panes", "-t", r.panes[0].pane, "-F", "#{pane_id} #{pane_left} #{pane_top}").stdout.trim().split("\n");
    assert.equal(panes.length, 4, "four panes in one window");
    const pos = new Map(panes.map((l) => { const [id, x, y] = l.split(" "); return [id!, [Number(x), Number(y)]]; }));
    const [tl, tr, bl, br] = r.panes.map((p: { pane: string }) => pos.get(p.pane)!);
    assert.ok(tl[0] < tr[0] && tl[1] === tr[1], "a2 right of a1");
    assert.ok(bl[1] > tl[1] && br[0] > bl[0], "b1 below, b2 bottom-right");
    assert.equal(h.tmux("show-options", "-w", "-v", "-t", r.panes[0].pane, "pane-border-status").stdout.trim(), "top");
    await h.ok("team_assign", { team: "red", parent: "org" });
    await h.ok("team_assign", { team: "blue", parent: "org" });
    const w = await h.ok("hive_wait", { targets: "team:org", for: "idle", mode: "all", timeout_s: 10 });
    assert.equal(w.matched, true, JSON.stringify(w));
    // The layout's own redraws can flip a1 to working and back; once it is idle again the
    // border title must say so.
    let title = "";
    for (let i = 0; i < 20 && !/a1 \[red\] · idle/.test(title); i++) {
      await h.ok("hive_wait", { targets: "a1", for: "idle", timeout_s: 5 });
      title = h.tmux("display", "-p", "-t", r.panes[0].pane, "#{@termhive_title}").stdout;
    }
    assert.match(title, /a1 \[red\] · idle/);
    const agents = (await h.ok("agent_list", { team: "org" })).agents;
    assert.deepEqual(agents.map((a: { name: string; team: string }) => `${a.name}:${a.team}`), ["a1:red", "a2:red", "b1:blue", "b2:blue"]);
  });

  test("bad input: unknown names listed, cycle refused, duplicate refused, empty target set", async () => {
    const unknown = await h.call("hive_send", { targets: "agent:zz", text: "x" });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /unknown agent 'zz'.*a1, a2, b1, b2/);
    const cycle = await h.call("team_assign", { team: "org", parent: "red" });
    assert.equal(cycle.isError, true);
    assert.match(cycle.text, /cycle/);
    const dup = await h.call("agent_register", { name: "a1", session: "b1" });
    assert.equal(dup.isError, true);
    assert.match(dup.text, /already registered/);
    await h.ok("team_create", { name: "nobody" });
    const empty = await h.call("hive_read", { targets: "team:nobody" });
    assert.equal(empty.isError, true);
    const badTeam = await h.call("hive_message", { teams: { nope: "x" } });
    assert.match(badTeam.text, /unknown team 'nope'.*blue/);
  });

  test("cascade: each agent gets exactly its own, its team's or the broadcast text", async () => {
    const r = await h.ok("hive_message", { broadcast: "echo CAST-BROAD", teams: { red: "echo CAST-RED" }, agents: { b2: "echo CAST-B2" } });
    assert.equal(r.delivered, 4, JSON.stringify(r));
    const want: Record<string, string> = { a1: "CAST-RED", a2: "CAST-RED", b1: "CAST-BROAD", b2: "CAST-B2" };
    for (const [agent, marker] of Object.entries(want)) {
      const wait = await h.ok("terminal_wait", { session: agent, pattern: `^${marker}$`, timeout_s: 5 });
      assert.equal(wait.matched, true, agent);
      const all = (await h.ok("terminal_read", { session: agent, mode: "all" })).output as string;
      for (const other of ["CAST-RED", "CAST-BROAD", "CAST-B2"]) {
        const printed = all.split("\n").filter((l) => l.trim() === other).length;
        assert.equal(printed, other === marker ? 1 : 0, `${agent} printed ${other} ${printed} times`);
      }
    }
  });

  test("cascade through the safety gate: one refused text delivers nothing to anyone; confirm sends", async () => {
    const refused = await h.call("hive_message", { broadcast: "echo GATE-SAFE", agents: { a1: "rm -rf / # GATE-DANGER" } });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /refused by the safety gate/);
    assert.match(refused.text, /confirm: true/);
    // b1 would have got the harmless broadcast: it must not have, since the whole message was refused.
    await h.ok("terminal_run", { session: "b1", command: "echo GATE-PROBE" });
    const b1 = (await h.ok("terminal_read", { session: "b1", mode: "all" })).output as string;
    assert.doesNotMatch(b1, /GATE-SAFE/);
    const a1 = (await h.ok("terminal_read", { session: "a1", mode: "all" })).output as string;
    assert.doesNotMatch(a1, /GATE-DANGER/);

    // With confirm a refused text goes. It trips git-reset-hard but cannot touch a repository:
    // an empty temp dir (removed after) and a GIT_DIR that does not exist.
    const risky = '(d=$(mktemp -d) && cd "$d" && GIT_DIR=/nonexistent git reset --hard; rmdir "$d"); echo GATE-$((6*7))-CONFIRMED';
    assert.equal((await h.call("hive_message", { agents: { a1: risky } })).isError, true);
    const sent = await h.ok("hive_message", { agents: { a1: risky }, confirm: true });
    assert.equal(sent.delivered, 1, JSON.stringify(sent));
    assert.equal((await h.ok("terminal_wait", { session: "a1", pattern: "^GATE-42-CONFIRMED$", timeout_s: 5 })).matched, true);
  });

  test("parallel send and read with a filter; partial failure reported per target", async () => {
    await h.ok("terminal_open", { name: "short", command: "sh -c 'echo bye'" });
    await h.ok("terminal_wait", { session: "short", for: "exit", timeout_s: 5 });
    const sent = await h.ok("hive_send", { targets: ["team:red", "name:short"], text: "echo PAR-$((40+2))-OK; echo noise" });
    assert.equal(sent.sent, 2);
    assert.equal(sent.failed, 1);
    assert.match(sent.results.find((x: { name: string }) => x.name === "short").error, /exited|dead|not running/i);
    for (const a of ["a1", "a2"]) await h.ok("terminal_wait", { session: a, pattern: "^PAR-42-OK$", timeout_s: 5 });
    const read = await h.ok("hive_read", { targets: "team:red", filter: "PAR-\\d+-OK", mode: "all" });
    assert.equal(read.results.length, 2);
    for (const x of read.results) {
      assert.equal(x.ok, true);
      assert.match(x.result.output, /PAR-42-OK/);
      assert.doesNotMatch(x.result.output, /^noise$/m);
    }
    const limited = await h.ok("hive_read", { targets: "a1", mode: "all", lines: 2 });
    assert.ok(limited.results[0].result.output.split("\n").length <= 2);
  });

  test("fake TUI agent: status detection, verified delivery with retry, permission, OSC self-status", async () => {
    const script = join(h.home, "fake-agent.mjs");
    writeFileSync(script, FAKE_AGENT);
    const spawned = await h.ok("agent_spawn", { name: "bot", command: `${process.execPath} ${script}`, profile: "claude", team: "blue" });
    assert.equal(spawned.ready, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "bot", for: "idle", timeout_s: 5 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    const m = await h.ok("hive_message", { agents: { bot: "hello there" } });
    assert.equal(m.deliveries[0].delivered, true, JSON.stringify(m));
    assert.equal(m.deliveries[0].attempts, 2, "the first Enter is swallowed by the TUI and retried");
    // Started under the claude profile, a program that is not `claude` gets no hooks: nothing
    // will report the text, and its screen says at once that it was taken.
    assert.equal(m.deliveries[0].confirmedBy, "screen", JSON.stringify(m));
    assert.equal(m.deliveries[0].note, undefined, JSON.stringify(m));
    assert.equal((await h.ok("terminal_wait", { session: "bot", pattern: "done: hello there", timeout_s: 5 })).matched, true);
    assert.equal((await h.ok("hive_wait", { targets: "bot", for: "idle", timeout_s: 5 })).matched, true);
    const ev = await h.ok("hive_events", { since: cursor, targets: "bot", kinds: ["status"] });
    const statuses = ev.events.map((e: { data: { status: string } }) => e.data.status);
    assert.ok(statuses.includes("working"), statuses.join(","));
    await h.ok("hive_message", { agents: { bot: "ask permission please" } });
    const wait = await h.ok("hive_wait", { targets: "bot", for: "waiting_for_input", timeout_s: 5 });
    assert.equal(wait.matched, true);
    const pane = await paneOf("bot");
    assert.match(h.tmux("display", "-p", "-t", pane, "#{@termhive_title}").stdout, /bot \[blue\] · waiting_for_input/);
    await h.ok("hive_send", { targets: "bot", text: "1", enter: false });
    assert.equal((await h.ok("hive_wait", { targets: "bot", for: "idle", timeout_s: 5 })).matched, true);
    await h.ok("hive_message", { agents: { bot: "osc" } });
    const list = await h.ok("agent_list", {});
    const bot = list.agents.find((a: { name: string }) => a.name === "bot");
    assert.equal(bot.status, "error");
    assert.equal(bot.detail, "from osc");
    assert.equal(bot.source, "self");
  });

  test("hive_wait sees a status change soon after the screen changes", async () => {
    // Matched within its 5 s (the latency itself is a bench figure, not a test's).
    const waiting = h.ok("hive_wait", { targets: "a1", for: "pattern", pattern: "LAT-MARK", timeout_s: 5 });
    await h.ok("hive_send", { targets: "a1", text: "echo LAT-MARK" });
    const w = await waiting;
    assert.equal(w.matched, true);
    const ex = h.ok("hive_wait", { targets: "b1", for: "exited", timeout_s: 5 });
    await h.ok("hive_send", { targets: "b1", text: "exit 7" });
    assert.equal((await ex).matched, true);
    const b1 = (await h.ok("agent_list", {})).agents.find((a: { name: string }) => a.name === "b1");
    assert.equal(b1.status, "exited");
    assert.equal(b1.exit_code, 7);
  });

  test("watchers produce events; mailbox via tool and CLI", async () => {
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    const wr = await h.ok("hive_watch", { targets: "team:red", pattern: "FATAL-\\d+" });
    await h.ok("hive_send", { targets: "a2", text: "echo FATAL-$((1+1))" });
    await h.ok("terminal_wait", { session: "a2", pattern: "^FATAL-2$", timeout_s: 5 });
    const hits = (await h.ok("hive_events", { since: cursor, kinds: ["watch"] })).events;
    assert.equal(hits.length, 1, JSON.stringify(hits));
    assert.equal(hits[0].data.match, "FATAL-2");
    assert.equal(hits[0].agent, "a2");
    await h.ok("hive_watch", { remove: wr.added.id });
    await h.ok("hive_mail", { to: "a1", text: "review PR 7", from: "lead" });
    const cli = spawnSync(process.execPath, [CLI, "msg", "a1", "from", "the", "cli", "--from", "a2"], { env: { ...process.env, TERMHIVE_HOME: h.home }, encoding: "utf8" });
    assert.equal(cli.status, 0, cli.stderr);
    const peek = await h.ok("hive_inbox", { agent: "a1", peek: true });
    assert.equal(peek.messages[0].text, "review PR 7");
    assert.equal(peek.messages[1].text, "from the cli");
    assert.equal(peek.messages[1].from, "a2");
    // termhive status from inside a pane: the agent is found by the pane's TERMHIVE_SESSION.
    const cursor2 = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;
    await h.ok("hive_send", { targets: "a1", text: `${process.execPath} ${CLI} status working "refactoring auth"` });
    const seen = await h.ok("hive_wait", { targets: "a1", for: "pattern", pattern: "a1: working \\(refactoring auth\\)", timeout_s: 10 });
    assert.equal(seen.matched, true);
    const st = (await h.ok("hive_events", { since: cursor2, targets: "a1", kinds: ["status"] })).events;
    assert.ok(st.some((e: { data: { status: string; detail: string; source: string } }) => e.data.status === "working" && e.data.detail === "refactoring auth" && e.data.source === "self"), JSON.stringify(st));
  });

  test("worktree spawn in a temp git repo", async () => {
    const repo = tempFolder("termhive-repo-");
    try {
      const git = (...a: string[]) => spawnSync("git", ["-C", repo, ...a], { encoding: "utf8" });
      git("init", "-q", "-b", "main");
      writeFileSync(join(repo, "README"), "hi\n");
      git("add", "README");
      git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "init");
      const r = await h.ok("agent_spawn", { name: "wt", worktree: { repo, branch: "feature-x" }, team: "red" });
      assert.equal(r.ready, "ready");
      // termhive made the worktree's folder beside the repository: it goes when this file is done (the agent stays in it till then).
      removeAtExit(dirname(r.worktree.path));
      // Beside the repository, named after it (not in TMPDIR, which a reboot may clear).
      assert.equal(r.worktree.path, join(`${realpathSync(repo)}.termhive-worktrees`, "wt"));
      const branch = await h.ok("terminal_run", { session: "wt", command: "git branch --show-current && cat README && pwd" });
      assert.match(branch.output, /^feature-x\nhi\n/);
      assert.match(branch.output, new RegExp(r.worktree.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      assert.match(git("worktree", "list").stdout, /feature-x/);
      const dup = await h.call("agent_spawn", { name: "wt2", worktree: { repo, branch: "feature-x" } });
      assert.equal(dup.isError, true);
    } finally {
      removeTempFolder(repo);
    }
  });

  test("kill -9 of termhive and restart: agents, teams, mailbox, events intact", async () => {
    const before = await h.ok("hive_events", { since: 0, limit: 1000 });
    const agentsBefore = (await h.ok("agent_list", {})).agents.map((a: { name: string; team: string; session: string }) => `${a.name}:${a.team}:${a.session}`);
    process.kill(h.pid, "SIGKILL");
    await h.close();
    await h.connect();
    const agentsAfter = (await h.ok("agent_list", {})).agents.map((a: { name: string; team: string; session: string }) => `${a.name}:${a.team}:${a.session}`);
    assert.deepEqual(agentsAfter, agentsBefore);
    const teams = (await h.ok("team_list", {})).teams.map((t: { name: string; parent: string | null }) => `${t.name}<${t.parent}`);
    assert.ok(teams.includes("red<org") && teams.includes("blue<org"), teams.join(","));
    const inbox = await h.ok("hive_inbox", { agent: "a1" });
    assert.equal(inbox.messages[0].text, "review PR 7");
    const after = await h.ok("hive_events", { since: 0, limit: 1000 });
    assert.deepEqual(after.events.slice(0, before.events.length).map((e: { id: number }) => e.id), before.events.map((e: { id: number }) => e.id));
    // The restarted server adopted the panes and keeps statuses live.
    const r = await h.ok("hive_message", { agents: { a2: "echo AFTER-RESTART" } });
    assert.equal(r.delivered, 1);
    await h.ok("terminal_wait", { session: "a2", pattern: "^AFTER-RESTART$", timeout_s: 5 });
    assert.equal((await h.ok("hive_wait", { targets: "a2", for: "idle", timeout_s: 5 })).matched, true);
    const restored = await h.ok("hive_layout", { restore: "four", replace: true, panes: undefined }).catch((e: Error) => e);
    assert.ok(restored instanceof Error && /already exists/.test(restored.message), "restore refuses clashing session names");
  });
});
