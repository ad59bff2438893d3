// The in-pane `termhive` on a host that has only tmux and /bin/sh of termhive's: a loopback sshd
// whose sessions run where the checkout and the local TERMHIVE_HOME are hidden
// (test/fixtures/sshd), so the command found in the pane is the host's own script, which
// reaches the hive only through the host's tmux server (src/shell/cli/termhive,
// src/serve/host-door.ts). Everything is judged by what the hive records (agent_list,
// hive_inbox) and what the pane prints.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempFolder } from "../temp-folder.js";
import { Hive } from "../../src/hive/index.js";
import { Harness } from "./harness.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";
import { until as waitUntil } from "../until.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000) => waitUntil(what, probe, timeoutMs, 100);

const skip = sshdAvailable() ? false : "sshd (openssh-server) is not installed: apt-get install -y openssh-server";

interface Agent {
  name: string;
  status: string;
  source?: string;
  detail?: string | null;
}

describe("the in-pane termhive on a host", { skip }, () => {
  let host: LoopbackHost;
  let h: Harness;
  const remoteTmux = (...args: string[]) => spawnSync("tmux", ["-S", join(host.remoteHome, ".local/state/termhive/tmux.sock"), ...args], { encoding: "utf8" });
  const agent = async (name: string): Promise<Agent | undefined> => (await h.ok("agent_list")).agents.find((a: Agent) => a.name === name);

  before(async () => {
    host = await startLoopbackHost();
    // The claude profile's rules and hooks, its program the fake agent as installed on the host.
    const profiles = join(tempFolder("termhive-profiles-"), "profiles.json");
    writeFileSync(profiles, JSON.stringify({ profiles: { hostclaude: { extends: "claude", command: `${process.execPath} ${host.installed.fakeAgent}` } } }));
    h = await Harness.start({ TERMHIVE_SSH: host.sshCommand, TERMHIVE_PROFILES: profiles });
    await h.ok("agent_spawn", { name: "rw", command: "bash", host: host.alias, profile: "shell" });
    await h.ok("agent_spawn", { name: "rv", command: "bash", host: host.alias, profile: "shell" });
  });
  after(async () => {
    await h?.destroy();
    await host?.stop();
  });

  test("termhive status in a host pane is the host's own script, and sets that agent's status", async () => {
    const found = await h.ok("terminal_run", { session: "rw", command: "command -v termhive" });
    assert.match(found.output, new RegExp(`^${host.remoteHome}/\\.local/state/termhive/shell-[0-9a-f]+/cli/termhive$`));
    const set = await h.ok("terminal_run", { session: "rw", command: 'termhive status working "building the far thing"' });
    assert.equal(set.exit_code, 0, set.output);
    assert.match(set.output, /rw/);
    const seen = await until("rw working in agent_list", async () => {
      const a = await agent("rw");
      return a?.status === "working" ? a : undefined;
    });
    assert.equal(seen.detail, "building the far thing");
    const json = await h.ok("terminal_run", { session: "rw", command: "termhive status idle --json" });
    assert.equal(json.exit_code, 0, json.output);
    assert.equal(JSON.parse(json.output).agent.name, "rw");
    const bad = await h.ok("terminal_run", { session: "rw", command: "termhive status flying" });
    assert.notEqual(bad.exit_code, 0);
    assert.match(bad.output, /termhive: /);
  });

  test("termhive msg and termhive inbox between two host panes, as their own agents", async () => {
    const sent = await h.ok("terminal_run", { session: "rw", command: "termhive msg rv 'the build is green: ship it'" });
    assert.equal(sent.exit_code, 0, sent.output);
    assert.match(sent.output, /^message #\d+ left for rv$/);
    const read = await h.ok("terminal_run", { session: "rv", command: "termhive inbox" });
    assert.equal(read.exit_code, 0, read.output);
    assert.match(read.output, /^#\d+ from rw: the build is green: ship it$/);
    const again = await h.ok("terminal_run", { session: "rv", command: "termhive inbox" });
    assert.equal(again.output, "no messages");
    // The same mail, as the hive holds it.
    const all = await h.ok("hive_inbox", { agent: "rv", all: true, peek: true });
    assert.deepEqual(all.messages.map((m: { from: string; text: string }) => [m.from, m.text]), [["rw", "the build is green: ship it"]]);
  });

  test("a request naming another agent cannot act as it; a huge one is refused unread", async () => {
    const posing = await h.ok("terminal_run", { session: "rw", command: "termhive status error pwned --agent rv" });
    assert.notEqual(posing.exit_code, 0);
    assert.match(posing.output, /acts as its own agent \(rw\) only/);
    const forged = await h.ok("terminal_run", { session: "rw", command: "termhive msg lead hi --from rv" });
    assert.notEqual(forged.exit_code, 0);
    assert.match(forged.output, /--from rv is refused/);
    const rvNow = await agent("rv");
    assert.notEqual(rvNow?.status, "error");
    assert.notEqual(rvNow?.detail, "pwned");
    const lead = await h.ok("hive_inbox", { agent: "lead", all: true, peek: true }).catch(() => ({ messages: [] }));
    assert.equal(lead.messages.length, 0);

    // 300 KiB of text (three words: one argument may not pass 128 KiB): over the bound of 256 KiB a request.
    const huge = await h.ok("terminal_run", { session: "rw", command: `w=$(head -c 102400 /dev/zero | tr '\\0' x); termhive msg rv "$w" "$w" "$w"; echo "exit=$?"` });
    assert.match(huge.output, /^termhive: this request takes 60\d KiB in the host's tmux, over the limit of 256 KiB a request \(516 KiB written as hex\); nothing was done/);
    assert.match(huge.output, /exit=1$/);
    // A program that skips the script and fills a request buffer itself is refused the same, unread.
    const raw = await h.ok("terminal_run", {
      session: "rw",
      command: `s=$(cd "$(dirname "$(command -v termhive)")/../.." && pwd)/tmux.sock; n=\${TMUX_PANE#%}-1-1; head -c 900000 /dev/zero | tmux -S "$s" load-buffer -b termhive-ask-$n - && tmux -S "$s" send-keys -t "$(tmux -S "$s" show -gv @termhive_signal)" -l termhive-ask/ && tmux -S "$s" wait-for termhive-reply-$n && tmux -S "$s" show-buffer -b termhive-reply-$n-err; tmux -S "$s" delete-buffer -b termhive-reply-$n; tmux -S "$s" delete-buffer -b termhive-reply-$n-err`,
    });
    assert.match(raw.output, /^termhive: this request takes 879 KiB in the host's tmux, over the limit of 256 KiB a request \(516 KiB written as hex\); nothing was done$/);
    const rv = await h.ok("hive_inbox", { agent: "rv", peek: true });
    assert.equal(rv.messages.length, 0);
    // Nothing is left behind in the host's tmux: the request and its reply buffers are gone.
    const buffers = remoteTmux("list-buffers", "-F", "#{buffer_name}");
    assert.doesNotMatch(buffers.stdout, /termhive-(ask|reply|taken)-/);
  });

  test("an agent's own hooks on the host report its turns: working, then idle, with source hook, and its conversation id", async () => {
    // The fake writes its log on the host's disk (this machine's, outside what the host hides).
    const log = join(host.remoteHome, "hooked.log");
    const lines = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
    const logHas = (line: string) => until(`${JSON.stringify(line)} in the fake's log`, () => (lines().includes(line) ? true : undefined));
    const spawned = await h.ok("agent_spawn", { name: "rc", profile: "hostclaude", host: host.alias, env: { FAKE_AGENT_LOG: log, FAKE_AGENT_TURN_MS: "1500" } });
    assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
    await logHas("ready");
    assert.ok(lines().includes("settings: Notification,PermissionRequest,SessionEnd,SessionStart,Stop,StopFailure,UserPromptSubmit"), lines().join(" | "));
    assert.equal((await h.ok("hive_wait", { targets: "rc", for: "idle", timeout_s: 15 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor;

    assert.equal((await h.ok("hive_message", { agents: { rc: "far task" } })).delivered, 1);
    await logHas("hook: UserPromptSubmit exit 0");
    await logHas("done: far task");
    await logHas("hook: Stop exit 0");
    const idle = await until("rc idle from its Stop hook", async () => {
      const a = await agent("rc");
      return a?.status === "idle" && a.source === "hook" ? a : undefined;
    });
    assert.match(idle.detail ?? "", /Stop hook/);
    const events = (await h.ok("hive_events", { since: cursor, targets: "rc", kinds: ["status"], limit: 1000 })).events as { data: { status: string; source: string } }[];
    assert.deepEqual(events.filter((e) => e.data.source === "hook").map((e) => e.data.status), ["working", "idle"], JSON.stringify(events.map((e) => e.data)));
    // A hook's script does not wait for an answer: none is left behind in the host's tmux.
    assert.doesNotMatch(remoteTmux("list-buffers", "-F", "#{buffer_name}").stdout, /termhive-(ask|reply|taken)-/);
    // The conversation id its hooks carried is the one agent_restore would resume, told by the hook.
    const started = readFileSync(`${log}.sessions`, "utf8").trim();
    assert.match(started, /^[0-9a-f-]{36}$/);
    const hive = Hive.open({ home: h.home });
    try {
      const launch = hive.launches.find("rc");
      assert.equal(launch?.conversationId, started);
      assert.equal(launch?.conversationBy, "hook");
    } finally {
      hive.close();
    }
  });

  test("a status left while no termhive follows the host is applied by the next one that connects", async () => {
    const paneOf = async (name: string) => ((await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === name).pane as string).split("@")[0]!;
    const rwPane = await paneOf("rw");
    process.kill(h.pid, "SIGKILL");
    await h.close();
    // Typed into the pane on the host itself: no termhive is there to run it.
    const out = join(host.remoteHome, "offline.out");
    assert.equal(remoteTmux("send-keys", "-t", rwPane, "-l", `TERMHIVE_ASK_WAIT_S=1 termhive status working "left offline" >${out} 2>&1; echo "exit=$?" >>${out}\r`).status, 0);
    const said = await until("the script's word on its own", () => {
      const text = existsSync(out) ? readFileSync(out, "utf8") : "";
      return /exit=\d+/.test(text) ? text : undefined;
    });
    assert.match(said, /no termhive server answered within 1 s; the request waits in this host's tmux for the next one that connects\nexit=1/);
    await h.connect();
    const seen = await until("rw's offline status applied", async () => {
      const a = await agent("rw");
      return a?.detail === "left offline" ? a : undefined;
    });
    assert.equal(seen.status, "working");
  });

  test("a permission request held by the hook on the host is decided by hive_answer; the hook prints the decision there", async () => {
    const payload = JSON.stringify({ tool_name: "Bash", tool_input: { command: "touch far-file" } });
    const decision = join(host.remoteHome, "decision.json");
    await h.ok("terminal_send", { session: "rv", text: `termhive hook PermissionRequest --status waiting_for_input --wait 60 '${payload}' >${decision}; echo held-$((1+1))\n` });
    const question = await until("rv's held request in agent_list", async () => {
      const a = (await h.ok("agent_list")).agents.find((x: { name: string }) => x.name === "rv");
      return a?.question?.digest as string | undefined;
    }, 30_000);
    const answered = await h.ok("hive_answer", { agent: "rv", answer: "yes", question });
    assert.ok(answered, JSON.stringify(answered));
    await h.ok("terminal_wait", { session: "rv", pattern: "held-2", timeout_s: 30 });
    assert.deepEqual(JSON.parse(readFileSync(decision, "utf8")), { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
    // Nothing of this request stays in the host's tmux (an answer a script gave up waiting for, as the one above, is removed later).
    const rvPane = ((await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "rv").pane as string).split("@")[0]!.slice(1);
    assert.doesNotMatch(remoteTmux("list-buffers", "-F", "#{buffer_name}").stdout, new RegExp(`termhive-(ask|reply|taken)-${rvPane}-`));
  });

  test("a hook whose stdin the program never closes does not hold it: what came is taken", async () => {
    await h.ok("terminal_run", { session: "rw", command: 'termhive status working "before the open hook"' });
    // The payload is written, then the pipe stays open for a minute (bash's process substitution: the shell waits for termhive alone; $! is the writer, ended after).
    const payload = JSON.stringify({ hook_event_name: "Stop", session_id: "7d1c1a52-3f0e-4b7a-9c55-2b7c0e4f1a10" });
    const r = await h.ok("terminal_run", { session: "rw", command: `termhive hook Stop --status idle < <(printf '%s' '${payload}'; exec sleep 60); echo "hook-exit=$?"; kill $! 2>/dev/null`, timeout_s: 30 });
    assert.equal(r.complete, true, JSON.stringify(r));
    assert.match(r.output, /hook-exit=0$/);
    const seen = await until("rw idle from the open hook", async () => {
      const a = await agent("rw");
      return a?.status === "idle" && a.source === "hook" ? a : undefined;
    });
    assert.match(seen.detail ?? "", /Stop hook/);
    // What came before the pipe went quiet was the payload: its session id is recorded.
    const hive = Hive.open({ home: h.home });
    try {
      assert.equal(hive.launches.find("rw")?.conversationId, "7d1c1a52-3f0e-4b7a-9c55-2b7c0e4f1a10");
    } finally {
      hive.close();
    }
  });

  test("an agent split off a host pane (hive_split) gets the host's hooks too", async () => {
    const log = join(host.remoteHome, "split.log");
    const lines = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
    const split = await h.ok("hive_split", { session: "rw", direction: "right", agent: "rs", profile: "hostclaude", command: `${process.execPath} ${host.installed.fakeAgent} ${log} 500` });
    assert.equal(split.ready, "ready", JSON.stringify(split));
    assert.match(split.pane, /@loopback$/);
    await until("the split fake's settings", () => (lines().includes("settings: Notification,PermissionRequest,SessionEnd,SessionStart,Stop,StopFailure,UserPromptSubmit") ? true : undefined));
    assert.equal((await h.ok("hive_wait", { targets: "rs", for: "idle", timeout_s: 15 })).matched, true);
    assert.equal((await h.ok("hive_message", { agents: { rs: "split task" } })).delivered, 1);
    await until("rs's Stop hook", () => (lines().includes("hook: Stop exit 0") ? true : undefined));
    await until("rs idle from its Stop hook", async () => {
      const a = await agent("rs");
      return a?.status === "idle" && a.source === "hook" ? a : undefined;
    });
  });
});
