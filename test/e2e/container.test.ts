// Sessions and agents in a running container (`host: "docker://NAME"`), reached with
// `docker exec -i` as ssh reaches a host (test/fixtures/container): a real engine where one
// runs, else the stand-in CLI over a Debian root under bubblewrap. The container sees its own
// root only: not this checkout, not the local TERMHIVE_HOME.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { tempFolder } from "../temp-folder.js";
import { until as waitUntil } from "../until.js";
import { containerSkipReason, FAKE_AGENT_IN_CONTAINER, NODE_IN_CONTAINER, startTestContainer, type TestContainer } from "../fixtures/container/container.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000) => waitUntil(what, probe, timeoutMs, 100);

const skip = containerSkipReason();
if (skip) console.log(`# container tests skipped: ${skip}`);
const SOCKET = "/root/.local/state/termhive/tmux.sock";

describe("sessions and agents in a container", { skip }, () => {
  let box: TestContainer;
  let h: Harness;
  const boxTmux = (...args: string[]) => box.exec(["tmux", "-S", SOCKET, ...args]);
  /** A file in the container, read the way a person would: docker exec cat. */
  const boxLog = (file: string) => {
    const r = box.exec(["cat", file]);
    return r.status === 0 ? r.stdout.split("\n").filter(Boolean) : [];
  };
  const logHas = (file: string, line: string) => until(`${JSON.stringify(line)} in the container's ${file}`, () => (boxLog(file).includes(line) ? true : undefined));

  before(async () => {
    box = await startTestContainer();
    if (!box.real) console.log("# no container engine runs here: the stand-in docker (bubblewrap) plays it");
    // The claude profile's rules and hooks, its program the fake agent installed in the container.
    const profiles = join(tempFolder("termhive-profiles-"), "profiles.json");
    writeFileSync(profiles, JSON.stringify({ profiles: { boxclaude: { extends: "claude", command: `${NODE_IN_CONTAINER} ${FAKE_AGENT_IN_CONTAINER}` } } }));
    h = await Harness.start({ PATH: box.path, TERMHIVE_PROFILES: profiles });
  });
  after(async () => {
    await h?.destroy();
    box?.remove();
  });

  test("a session opens in the container's own tmux: exact exit codes and completion; the local checkout and home are not there", async () => {
    const opened = await h.ok("terminal_open", { name: "inbox", host: box.host });
    assert.equal(opened.host, box.host);
    assert.equal(opened.integrated, true, JSON.stringify(opened));
    assert.match(opened.pane, new RegExp(`^%\\d+@docker://${box.name}$`));
    assert.match(opened.attach, new RegExp(`^docker exec -it ${box.name} /bin/sh -c 'tmux -S ${SOCKET} attach -t %\\d+'$`));
    const panes = boxTmux("list-panes", "-a", "-F", "#{pane_id}");
    assert.equal(panes.status, 0, panes.stderr);
    assert.ok(panes.stdout.split("\n").includes(opened.pane.split("@")[0]), panes.stdout);

    const where = await h.ok("terminal_run", { session: "inbox", command: "echo $HOME $(hostname) $(cat /etc/debian_version | cut -d. -f1)" });
    assert.equal(where.output, `/root ${box.name} 12`);
    assert.equal(where.exit_code, 0);
    assert.equal(where.reason, "osc133");
    const three = await h.ok("terminal_run", { session: "inbox", command: "(exit 3)" });
    assert.equal(three.exit_code, 3);
    assert.equal(three.reason, "osc133");
    const missing = await h.ok("terminal_run", { session: "inbox", command: "ls /no-such-folder-xyz" });
    assert.equal(missing.exit_code, 2);
    const hidden = await h.ok("terminal_run", { session: "inbox", command: `test -e ${JSON.stringify(process.cwd())} || test -e ${JSON.stringify(h.home)}; echo seen=$?` });
    assert.equal(hidden.output, "seen=1", "the container sees the local checkout or TERMHIVE_HOME");

    await h.ok("terminal_send", { session: "inbox", text: "sleep 30\n" });
    await until("sleep to run", async () => ((await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "inbox")?.running === "sleep 30" ? true : undefined));
    await h.ok("terminal_send", { session: "inbox", keys: ["C-c"] });
    const interrupted = await h.ok("terminal_wait", { session: "inbox", for: "completion", timeout_s: 15 });
    assert.equal(interrupted.exit_code, 130);
    const listed = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "inbox");
    assert.equal(listed?.host, box.host);
    assert.equal(listed?.cwd, "/root");
  });

  test("kill -9 of termhive: a fresh process adopts the container's session by name, output and exit codes", async () => {
    await h.ok("terminal_open", { name: "kept", host: box.host });
    await h.ok("terminal_run", { session: "kept", command: "echo before-crash-$((6*7))" });
    process.kill(h.pid, "SIGKILL");
    await h.close();
    await h.connect();
    const me = (await h.ok("terminal_list")).sessions.find((s: { name: string }) => s.name === "kept");
    assert.ok(me, "the session was adopted");
    assert.equal(me.host, box.host);
    assert.equal(me.alive, true);
    const all = await h.ok("terminal_read", { session: "kept", mode: "all" });
    assert.match(all.output, /before-crash-42/);
    const r = await h.ok("terminal_run", { session: "kept", command: "(exit 4)" });
    assert.equal(r.exit_code, 4);
    assert.equal(r.reason, "osc133");
  });

  test("an agent runs in the container, takes a message, and comes back resumed after the container's tmux kill-server", async () => {
    const log = "/root/agent.log";
    box.exec(["mkdir", "-p", "/root/proj"]);
    const spawned = await h.ok("agent_spawn", {
      name: "boxed", profile: "boxclaude", host: box.host, cwd: "/root/proj",
      command: `${NODE_IN_CONTAINER} ${FAKE_AGENT_IN_CONTAINER} ${log} 300`,
    });
    assert.equal(spawned.agent.name, "boxed");
    await h.ok("hive_wait", { targets: "boxed", for: "idle", timeout_s: 30 });
    await h.ok("hive_message", { agents: { boxed: "turn one" } });
    await logHas(log, "done: turn one");
    // Its own hooks ran in the container and reached the hive through the container's tmux.
    await logHas(log, "hook: Stop exit 0");
    await until("boxed idle from its Stop hook", async () => {
      const a = (await h.ok("agent_list", {})).agents.find((x: { name: string }) => x.name === "boxed");
      return a?.status === "idle" && a.source === "hook" ? a : undefined;
    });
    const conversation = boxLog(`${log}.sessions`)[0];
    assert.match(conversation ?? "", /^[0-9a-f-]{36}$/);
    const listed = await h.ok("agent_list", {});
    assert.equal(listed.agents.find((a: { name: string }) => a.name === "boxed")?.host, box.host);

    assert.equal(boxTmux("kill-server").status, 0);
    const r = await h.ok("agent_restore", {});
    const back = r.restored.find((a: { name: string }) => a.name === "boxed");
    assert.equal(back?.resumed, true, JSON.stringify(r));
    assert.equal(back.conversation, conversation);
    await logHas(log, `resumed: ${conversation}`);
    const panes = boxTmux("list-panes", "-a", "-F", "#{pane_current_path}");
    assert.ok(panes.stdout.split("\n").includes("/root/proj"), panes.stdout);
    await h.ok("hive_wait", { targets: "boxed", for: "idle", timeout_s: 30 });
    await h.ok("hive_message", { agents: { boxed: "turn two" } });
    await logHas(log, "done: turn two");
  });

  test("bad container names are refused before the engine runs", async () => {
    for (const host of ["docker://-it", "docker://a;touch /tmp/x", "docker://$(id)", "podman://"]) {
      const r = await h.call("terminal_open", { host });
      assert.equal(r.isError, true, host);
      assert.match(r.text, /is not a container: (docker|podman):\/\/NAME takes a running container's name or id/, host);
    }
  });

  test("a stopped container is a clear error naming it, and nothing is opened", async () => {
    const missing = await h.call("terminal_open", { host: "docker://termhive-no-such-box" });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /cannot reach container docker:\/\/termhive-no-such-box: .*No such container: termhive-no-such-box/);
    box.stopContainer();
    const started = Date.now();
    await until("the session to be seen gone with its container", async () => {
      const r = await h.call("terminal_run", { session: "kept", command: "true" });
      return r.isError ? r : undefined;
    });
    const r = await h.call("terminal_open", { name: "after-stop", host: box.host });
    assert.equal(r.isError, true);
    assert.match(r.text, new RegExp(`cannot reach container docker://${box.name}: .*is not running.*docker start ${box.name}`));
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);

    // Started again (its /root kept, as a container's layer is): its agent comes back, resumed.
    box.startContainer();
    const resumedBefore = boxLog("/root/agent.log").filter((l) => l.startsWith("resumed: ")).length;
    // The host's last failure is answered until its back-off pause (1 s) is over.
    const back = await until("agent_restore once the container answers", async () => {
      const answer = await h.call("agent_restore", { name: "boxed" });
      return answer.isError ? undefined : answer.data.restored?.find((a: { name: string; pane?: string }) => a.name === "boxed" && a.pane);
    });
    assert.equal(back.resumed, true, JSON.stringify(back));
    await until("the agent to resume in the restarted container", () =>
      boxLog("/root/agent.log").filter((l) => l.startsWith("resumed: ")).length > resumedBefore ? true : undefined);
  });
});

describe("a podman:// container", { skip: containerSkipReason("podman") }, () => {
  let box: TestContainer;
  let h: Harness;
  before(async () => {
    box = await startTestContainer("podman");
    h = await Harness.start({ PATH: box.path });
  });
  after(async () => {
    await h?.destroy();
    box?.remove();
  });

  test("runs sessions with exact exit codes; stopped, it is podman's own error with the hint", async () => {
    assert.equal(box.host, `podman://${box.name}`);
    const opened = await h.ok("terminal_open", { name: "pod", host: box.host });
    assert.match(opened.attach, new RegExp(`^podman exec -it ${box.name} `));
    const r = await h.ok("terminal_run", { session: "pod", command: "hostname; (exit 5)" });
    assert.equal(r.output, box.name);
    assert.equal(r.exit_code, 5);
    assert.equal(r.reason, "osc133");
    box.stopContainer();
    await until("the session to be seen gone with its container", async () => ((await h.call("terminal_run", { session: "pod", command: "true" })).isError ? true : undefined));
    const refused = await h.call("terminal_open", { host: box.host });
    assert.equal(refused.isError, true);
    assert.match(refused.text, new RegExp(`cannot reach container podman://${box.name}: .*container state improper.*podman start ${box.name}`));
  });
});
