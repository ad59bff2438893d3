// One hive over three places: fake agents on this machine, on two ssh hosts (real OpenSSH
// servers on loopback, each with a HOME of its own and its sessions under bubblewrap with the
// checkout hidden: test/fixtures/sshd) and, where one can be had, in a container
// (test/fixtures/container: a real engine, or the stand-in docker over a Debian root). Every
// claim is judged by the fake agents' own logs (test/fixtures/fake-agent.mjs): what each program
// accepted, and how often.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { FAKE_AGENT, writeFakeClaudeProfile } from "./fake-claude-profile.js";
import { logLines, type HiveEvent } from "./fake-agent-log.js";
import { sshdAvailable } from "../fixtures/sshd/sshd.js";
import { startLoopbackHosts, type LoopbackHosts, type NamedHost } from "../fixtures/sshd/hosts.js";
import { containerSkipReason, FAKE_AGENT_IN_CONTAINER, NODE_IN_CONTAINER, startTestContainer, type TestContainer } from "../fixtures/container/container.js";
import { tempFolder } from "../temp-folder.js";
import { until } from "../until.js";

const skip = sshdAvailable() ? false : "sshd (openssh-server) is not installed: apt-get install -y openssh-server";
const noContainer = containerSkipReason();
if (noContainer) console.log(`# no container among the places: ${noContainer}`);
/** Long enough that a turn is seen working, short enough for three cascades. */
const TURN_MS = 1500;

interface Placed {
  name: string;
  /** The ssh host it runs on, if one. */
  host?: NamedHost;
  /** What agent_list says it runs on (host or docker://NAME); undefined for this machine. */
  where?: string;
  /** The fake agent's log, read where it is (a container's through its engine). */
  lines(): string[];
  spawn: Record<string, unknown>;
}

describe("one hive across this machine, two ssh hosts and a container", { skip }, () => {
  let places: LoopbackHosts;
  let h: Harness;
  let box: TestContainer | undefined;
  let agents: Placed[];
  const on = (host: NamedHost | undefined) => agents.filter((a) => a.host === host);
  const count = (a: Placed, line: string) => a.lines().filter((l) => l === line).length;
  const logHas = (a: Placed, line: string, timeoutMs = 20_000) =>
    until(`${JSON.stringify(line)} in ${a.name}'s log`, () => (a.lines().includes(line) ? true : undefined), timeoutMs, 100).catch((error: Error) => {
      throw new Error(`${error.message}; it has: ${a.lines().join(" | ")}`);
    });
  const listed = async () => new Map<string, any>((await h.ok("agent_list", {})).agents.map((a: { name: string }) => [a.name, a]));

  before(async () => {
    places = await startLoopbackHosts(2);
    if (!noContainer) box = await startTestContainer();
    h = await Harness.start({ TERMHIVE_SSH: places.sshCommand, TERMHIVE_PROFILES: writeFakeClaudeProfile(), ...(box ? { PATH: box.path } : {}) });
    const localLogs = tempFolder("termhive-three-places-");
    const fake = (program: string, log: string) => `${program} ${log} ${TURN_MS}`;
    agents = [
      ...["l1", "l2"].map((name) => {
        const log = join(localLogs, `${name}.log`);
        return { name, lines: () => logLines(log), spawn: { command: fake(`${process.execPath} ${FAKE_AGENT}`, log) } };
      }),
      ...places.hosts.flatMap((host, i) => ["a", "b"].map((x) => {
        const name = `h${i + 1}${x}`;
        const log = join(host.remoteHome, `${name}.log`);
        return { name, host, where: host.name, lines: () => logLines(log), spawn: { command: fake(`${process.execPath} ${host.installed.fakeAgent}`, log), host: host.name, cwd: host.remoteHome } };
      })),
      ...(box ? ["c1", "c2"].map((name) => {
        const log = `/root/${name}.log`;
        const read = () => {
          const r = box!.exec(["cat", log]);
          return r.status === 0 ? r.stdout.split("\n").filter((l) => l !== "") : [];
        };
        return { name, where: box!.host, lines: read, spawn: { command: fake(`${NODE_IN_CONTAINER} ${FAKE_AGENT_IN_CONTAINER}`, log), host: box!.host, cwd: "/root" } };
      }) : []),
    ];
    // Spawned at once, as a lead starts a team: each place is set up once for its two agents.
    await Promise.all(agents.map((a) => h.ok("agent_spawn", { name: a.name, team: "crew", profile: "fakeclaude", ...a.spawn })));
    await h.ok("hive_wait", { targets: "team:crew", for: "idle", mode: "all", timeout_s: 60 });
  });
  after(async () => {
    await h?.destroy();
    await places?.stop();
    box?.remove();
  });

  test("agent_list says where each agent runs", async () => {
    const seen = await listed();
    for (const a of agents) {
      const row = seen.get(a.name);
      assert.equal(row?.host, a.where, JSON.stringify(row));
      assert.equal(row.alive, true, JSON.stringify(row));
    }
    const text = (await h.call("agent_list", {})).text;
    assert.match(text, /^h1a \[crew\] idle .* · on host1$/m);
    assert.match(text, /^h2b \[crew\] idle .* · on host2$/m);
    assert.match(text, /^l1 \[crew\] idle .*$/m);
    assert.doesNotMatch(text, /^l1 .* on /m);
    if (box) assert.match(text, new RegExp(`^c1 \\[crew\\] idle .* · on ${box.host}$`, "m"));
  });

  test("a cascade reaches each agent once; hive_wait waits across hosts; the remote agents are seen working, then idle", async () => {
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1 })).cursor;
    const r = await h.ok("hive_message", { broadcast: "first", agents: { h2a: "first for h2a" } });
    assert.equal(r.failed, 0, JSON.stringify(r));
    const waited = await h.ok("hive_wait", { targets: "team:crew", for: "idle", mode: "all", timeout_s: 60 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    for (const a of agents) {
      const text = a.name === "h2a" ? "first for h2a" : "first";
      // All idle again means every turn has ended: each log says so, once.
      await logHas(a, `done: ${text}`);
      assert.equal(count(a, `accepted: ${text}`), 1, `${a.name}: ${a.lines().join(" | ")}`);
      assert.equal(a.lines().filter((l) => l.startsWith("accepted: ")).length, 1, `${a.name}: ${a.lines().join(" | ")}`);
    }
    const events: HiveEvent[] = (await h.ok("hive_events", { since: cursor, kinds: ["status"], limit: 1000 })).events;
    for (const a of agents.filter((x) => x.where)) {
      const statuses = events.filter((e) => e.agent === a.name).map((e) => e.data.status);
      const working = statuses.indexOf("working");
      assert.ok(working !== -1 && statuses.indexOf("idle", working) !== -1, `${a.name}: ${statuses.join(", ")}`);
    }
    // Each agent's own hooks reported its turn, wherever it runs: over the host's tmux on a host
    // or in a container, through the local shim here (the turn's end is the Stop hook's idle).
    for (const a of agents) {
      const mine = events.filter((e) => e.agent === a.name);
      assert.ok(mine.some((e) => e.data.source === "hook" && e.data.status === "idle"), `${a.name}: no hook reported its turn's end: ${JSON.stringify(mine.map((e) => e.data))}`);
    }
  });

  test("a host dropped mid-cascade: its part is queued, not failed, and typed once when the host is back", async () => {
    const [, host2] = places.hosts as [NamedHost, NamedHost];
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1 })).cursor;
    const second = await h.ok("hive_message", { broadcast: "second" });
    assert.equal(second.failed, 0, JSON.stringify(second));
    // host2's agents took "second" and are in their turn when their host drops off the network.
    for (const a of on(host2)) await logHas(a, "accepted: second");
    await host2.drop();
    // Out of reach, not exited: the hive keeps them, with where they run.
    await until("host2's agents out of reach", async () => {
      const seen = await listed();
      return on(host2).every((a) => seen.get(a.name)?.alive === false) ? seen : undefined;
    }, 30_000, 100);
    const third = await h.ok("hive_message", { broadcast: "third" });
    assert.equal(third.failed, 0, JSON.stringify(third));
    for (const a of on(host2)) {
      const d = third.deliveries.find((x: { agents: string[] }) => x.agents.includes(a.name));
      assert.equal(typeof d?.queued, "number", JSON.stringify(third));
      assert.match(d.note, /host is down/);
    }
    // What Enter would run there passes the safety gate now, though the pane's line cannot be read: refused, nothing queued.
    const refused = await h.call("hive_message", { broadcast: "echo GATE-SAFE", agents: { h2a: "rm -rf / # GATE-DANGER" } });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /refused by the safety gate: .*\(for h2a, whose host is down\)/);
    const seen = await listed();
    for (const a of on(host2)) {
      assert.notEqual(seen.get(a.name)?.status, "exited", JSON.stringify(seen.get(a.name)));
      assert.equal(seen.get(a.name)?.host, host2.name);
    }
    // The rest of the cascade goes on without host2 (queued behind "second" where busy).
    for (const a of agents.filter((x) => x.host !== host2)) await logHas(a, "done: third", 60_000);
    const queue = (await h.ok("hive_queue", {})).queued as { agents: string[] }[];
    for (const a of on(host2)) assert.ok(queue.some((q) => q.agents.includes(a.name)), JSON.stringify(queue));
    // The turn that was running when the link dropped went on on the host, unseen.
    for (const a of on(host2)) await logHas(a, "done: second");
    for (const a of on(host2)) assert.equal(count(a, "accepted: third"), 0, `${a.name} got "third" while its host was down`);

    await host2.back();
    for (const a of on(host2)) await logHas(a, "done: third", 90_000);
    const waited = await h.ok("hive_wait", { targets: "team:crew", for: "idle", mode: "all", timeout_s: 60 });
    assert.equal(waited.matched, true, JSON.stringify(waited));
    assert.deepEqual((await h.ok("hive_queue", {})).queued, []);
    for (const a of agents) {
      assert.ok(!a.lines().some((l) => l.includes("GATE-")), `${a.name}: ${a.lines().join(" | ")}`);
      for (const text of ["second", "third"]) assert.equal(count(a, `accepted: ${text}`), 1, `${a.name}: ${a.lines().join(" | ")}`);
    }
    const back = await listed();
    for (const a of on(host2)) assert.equal(back.get(a.name)?.alive, true, JSON.stringify(back.get(a.name)));
    const events: HiveEvent[] = (await h.ok("hive_events", { since: cursor, kinds: ["status"], limit: 1000 })).events;
    assert.deepEqual(events.filter((e) => e.data.status === "exited").map((e) => e.agent), []);
  });
});
