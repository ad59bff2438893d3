// Notifications the way people set them up (issue 31 §6, issue 30 §5): a `serve` started with
// TERMHIVE_NOTIFY_URL that no client calls still notifies; a notice carries the question's
// words with secrets masked; a turn's end is a real turn's; one notice's retries hold no fresh
// one back; an endless answer is not read. Judged by what a loopback receiver got.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Harness } from "./harness.js";
import { logHas } from "./fake-agent-log.js";
import { serve, type Served } from "./serve-process.js";
import { Receiver } from "../unit/hive/notify/receiver.js";
import { until } from "../until.js";

const FAKE = resolve("test/fixtures/fake-agent.mjs");
const TOKEN = `ghp_${"a1B2c3D4e5".repeat(4)}`;

type Body = { text: string; termhive: { event_id: number; kind: string; agent: string | null; message: string } };
const bodies = (r: Receiver): Body[] => r.received.map((x) => JSON.parse(x.body) as Body);

describe("a serve with TERMHIVE_NOTIFY_URL that no client calls", () => {
  let receiver: Receiver;
  let h: Harness;
  let served: Served;

  before(async () => {
    receiver = await Receiver.start([200]);
    // The client's own server has no notification settings (registered without the variable).
    h = await Harness.startField();
    served = await serve([], h.home, { HOME: h.env.HOME!, TERMHIVE_NOTIFY_URL: `${receiver.url}/hook` });
  });
  after(async () => {
    await served?.stop({ keepHome: true });
    await h?.destroy();
    await receiver?.close();
  });

  test("notifies from its start: the waiting notice has the question's words and the command, its token masked", async () => {
    const log = join(h.home, "asker.log");
    assert.equal((await h.ok("agent_spawn", { name: "asker", command: `${process.execPath} ${FAKE} ${log} 1500`, profile: "claude" })).ready, "ready");
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "asker", for: "idle", timeout_s: 20 })).matched, true);
    await h.ok("hive_message", { agents: { asker: `ask: curl -H "Authorization: Bearer ${TOKEN}" https://api.github.com/user` } });
    await logHas(log, `asking: ask: curl -H "Authorization: Bearer ${TOKEN}" https://api.github.com/user`);
    await receiver.waitFor(1, 30_000);
    const [notice] = bodies(receiver);
    assert.equal(notice!.termhive.kind, "waiting");
    assert.match(notice!.text, /asker is waiting for input/);
    assert.match(notice!.text, /Do you want to proceed\?/, "the question's words");
    assert.match(notice!.text, /curl -H/, "the command it asks about");
    assert.match(notice!.text, /\[REDACTED/);
    for (const r of receiver.received) assert.ok(!r.body.includes(TOKEN), `the token left the machine: ${r.body}`);
    // The client's process sent none of it (it has no notification settings): the serve did.
    const senders = await until("the audit's sent line", () => {
      const pids = readFileSync(join(h.home, "audit.jsonl"), "utf8").split("\n").filter((l) => l.includes('"outcome":"sent"')).map((l) => JSON.parse(l).pid as number);
      return pids.length > 0 ? pids : undefined;
    });
    assert.deepEqual([...new Set(senders)], [served.proc.pid]);
  });
});

describe("what a notice says, and when a turn is done", () => {
  let receiver: Receiver;
  let h: Harness;

  before(async () => {
    receiver = await Receiver.start([200]);
    h = await Harness.startField();
    // Read when the server composes its services (its first call): the default debounce (30 s) stays.
    writeFileSync(join(h.home, "notify.json"), JSON.stringify({ endpoints: [{ url: `${receiver.url}/n`, events: ["turn_done", "error"] }] }));
  });
  after(async () => {
    await h?.destroy();
    await receiver?.close();
  });

  test("turn_done comes for the first real turn, not for the program starting up", async () => {
    const log = join(h.home, "turner.log");
    assert.equal((await h.ok("agent_spawn", { name: "turner", command: `${process.execPath} ${FAKE} ${log} 800`, profile: "claude" })).ready, "ready");
    await logHas(log, "ready");
    assert.equal((await h.ok("hive_wait", { targets: "turner", for: "idle", timeout_s: 20 })).matched, true);
    const cursor = (await h.ok("hive_events", { since: 0, limit: 1000 })).cursor as number;
    await h.ok("hive_message", { agents: { turner: "first task" } });
    await logHas(log, "done: first task");
    assert.equal((await h.ok("hive_wait", { targets: "turner", for: "idle", timeout_s: 20 })).matched, true);
    await receiver.waitFor(1, 30_000);
    const turnsDone = bodies(receiver).filter((b) => b.termhive.kind === "turn_done");
    assert.equal(turnsDone.length, 1, JSON.stringify(bodies(receiver)));
    assert.ok(turnsDone[0]!.termhive.event_id > cursor, `the notice was about the start-up, not the turn: ${JSON.stringify(turnsDone)}`);
  });

  test("a shell that exits 3: the error notice says it once", async () => {
    await h.ok("agent_spawn", { name: "q1", command: "bash", profile: "shell" });
    assert.equal((await h.ok("hive_wait", { targets: "q1", for: "idle", timeout_s: 20 })).matched, true);
    await h.ok("hive_send", { targets: "q1", text: "exit 3" });
    const notice = await until("the error notice", () => bodies(receiver).find((b) => b.termhive.kind === "error"), 30_000);
    assert.equal(notice.termhive.message, "q1 ended with exit code 3");
  });
});

describe("a failing or flooding endpoint", () => {
  let h: Harness;
  let receiver: Receiver;
  let flood: { url: string; written: () => number; closed: Promise<void>; close: () => Promise<void> };

  before(async () => {
    // The first notice is refused (500) and its retry hangs; any other is taken at once.
    receiver = await Receiver.start((body) => (body.includes("ALPHA-HIT") ? (receiver.received.filter((r) => r.body.includes("ALPHA-HIT")).length === 1 ? 500 : "hang") : 200));
    flood = await floodServer(64 * 1024 * 1024);
    h = await Harness.startField({ TERMHIVE_NOTIFY_URL: `${receiver.url}/r,${flood.url}/flood` });
    writeFileSync(join(h.home, "notify.json"), JSON.stringify({ timeout_s: 120, attempts: 3 }));
  });
  after(async () => {
    await h?.destroy();
    await receiver?.close();
    await flood?.close();
  });

  test("a notice waiting out its retries does not hold a fresh one back", async () => {
    await h.ok("terminal_open", { name: "sh", command: "bash" });
    await h.ok("hive_watch", { targets: "sh", pattern: "(ALPHA|BETA|GAMMA)-HIT-\\d+" });
    await h.ok("terminal_run", { session: "sh", command: "echo ALPHA-HIT-$((6*7))" });
    await until("the first notice's retry", () => (receiver.received.filter((r) => r.body.includes("ALPHA-HIT")).length >= 2 ? true : undefined), 30_000);
    await h.ok("terminal_run", { session: "sh", command: "echo BETA-HIT-$((6*7))" });
    await until("the fresh notice, while the first one's retry hangs", () => (receiver.received.some((r) => r.body.includes("BETA-HIT-42")) ? true : undefined), 20_000);
    assert.equal(receiver.pendingHangs, 1);
  });

  test("an endpoint answering 64 MB to each notice: the server reads a few KB of it", async () => {
    await h.ok("terminal_run", { session: "sh", command: "echo GAMMA-HIT-$((6*7))" });
    await flood.closed;
    assert.ok(flood.written() < 16 * 1024 * 1024, `the server read ${flood.written()} bytes of an answer`);
    assert.match(JSON.stringify(await h.ok("terminal_run", { session: "sh", command: "echo still-here" })), /still-here/);
  });
});

/**
 * An endpoint whose answer to each POST is `size` bytes, written as fast as the client reads.
 * `closed`: the first answer ended (read whole or cut off); `written`: its bytes written by then.
 */
async function floodServer(size: number) {
  let written = 0;
  let done!: () => void;
  const closed = new Promise<void>((r) => (done = r));
  const chunk = Buffer.alloc(64 * 1024, 120);
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(size) });
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => {
        written = Math.max(written, sent);
        done();
      });
      pump();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    written: () => written,
    closed,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
