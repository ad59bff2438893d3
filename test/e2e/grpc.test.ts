// The gRPC API through TermhiveClient: every RPC, errors as status codes, live streams.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { TermhiveClient, ToolError } from "../../src/index.js";
import { serve, type Served } from "./serve-process.js";

describe("gRPC API", () => {
  let s: Served;
  let c: TermhiveClient;
  before(async () => {
    s = await serve();
    c = new TermhiveClient({ socketPath: s.grpcSocket, clientName: "grpc-e2e" });
    await c.ready();
  });
  after(async () => {
    c?.closeConnection();
    await s?.stop();
  });

  test("Open, Run, Send, Wait, Read, List, Resize, Close", async () => {
    const opened = await c.open({ name: "g1", command: "bash", rows: 30, cols: 100 });
    assert.equal(opened.name, "g1");
    assert.equal(opened.backend, "tmux");
    assert.equal(opened.integrated, true);
    assert.match(opened.attach ?? "", /tmux -S .* attach -t %\d+/);

    const ran = await c.run({ session: "g1", command: "echo hi" });
    assert.equal(ran.output, "hi");
    assert.equal(ran.exit_code, 0);
    assert.equal(ran.complete, true);
    assert.equal(ran.reason, "osc133");
    const failed = await c.run({ session: "g1", command: "false" });
    assert.equal(failed.exit_code, 1);
    assert.equal(failed.output, "");

    const sent = await c.send({ session: "g1", text: "echo sent-$((1+1))" });
    assert.ok(sent.sent_bytes > 0);
    const waited = await c.wait({ session: "g1", pattern: "sent-2", timeout_s: 10 });
    assert.equal(waited.matched, true);
    assert.equal(waited.match, "sent-2");

    const keys = await c.send({ session: "g1", keys: ["C-l"] });
    assert.equal(keys.keys, 1);

    const read = await c.read({ session: "g1", mode: "all" });
    assert.match(read.output, /sent-2/);
    assert.equal(read.mode, "all");
    assert.equal(read.alive, true);
    const screen = await c.read({ session: "g1", mode: "screen" });
    assert.ok(screen.cursor);

    const resized = await c.resize({ session: "g1", rows: 20, cols: 90 });
    assert.deepEqual(resized, { session: opened.session, rows: 20, cols: 90 });

    const list = await c.list();
    const row = list.sessions.find((x) => x.name === "g1");
    assert.ok(row);
    assert.equal(row.alive, true);
    assert.equal(row.last_exit_code, 0);
    assert.equal(row.running, null);

    const closed = await c.close({ session: "g1" });
    assert.equal(closed.closed, true);
    assert.equal((await c.list()).sessions.some((x) => x.name === "g1"), false);
  });

  test("Run without a session runs in a throwaway shell in cwd", async () => {
    const r = await c.run({ command: "pwd", cwd: "/tmp" });
    assert.equal(r.output, "/tmp");
    assert.equal(r.session_closed, true);
    assert.match(r.session_name ?? "", /./);
    assert.match(r.session ?? "", /^th-/);
  });

  test("an unknown session → NOT_FOUND with the message (ToolError not_found)", async () => {
    await assert.rejects(c.run({ session: "missing", command: "true" }), (e: unknown) => {
      assert.ok(e instanceof ToolError);
      assert.equal(e.code, "not_found");
      assert.match(e.message, /unknown session "missing"/);
      return true;
    });
  });

  test("bad input → INVALID_ARGUMENT; busy → FAILED_PRECONDITION (code busy)", async () => {
    await assert.rejects(c.run({ session: "", command: "true" }), (e: unknown) => e instanceof ToolError && e.code === "invalid");
    await c.open({ name: "busy1", command: "bash" });
    // Returned once the command printed, so it certainly runs (a bare short timeout_s can end the
    // call before a loaded machine's shell has even taken the command: then nothing is busy).
    const r = await c.run({ session: "busy1", command: "echo start''ed; sleep 30", until: "started", timeout_s: 20 });
    assert.equal(r.running, true);
    await assert.rejects(c.close({ session: "busy1" }), (e: unknown) => e instanceof ToolError && e.code === "busy");
    await c.close({ session: "busy1", force: true });
  });

  test("WatchOutput streams a command's output; WatchEvents its start and end", async () => {
    await c.open({ name: "w1", command: "bash" });
    const out = c.watchOutput({ sessions: ["w1"] });
    const events = c.watchEvents({ sessions: ["w1"] });
    const seenOutput = (async () => {
      let text = "";
      for await (const chunk of out) {
        assert.equal(chunk.name, "w1");
        text += chunk.data.toString("utf8");
        if (text.includes("watch-99")) return text;
      }
      return text;
    })();
    const seenEvents = (async () => {
      const kinds: string[] = [];
      for await (const e of events) {
        kinds.push(e.kind);
        if (e.kind === "command-end") {
          assert.equal(e.exit_code, 0);
          return kinds;
        }
      }
      return kinds;
    })();
    // Give the server a moment to subscribe before the bytes flow.
    await new Promise((r) => setTimeout(r, 100));
    await c.run({ session: "w1", command: "echo watch-$((98+1))" });
    assert.match(await seenOutput, /watch-99/);
    assert.deepEqual(await seenEvents, ["command-start", "command-end"]);
    out.cancel();
    events.cancel();
    await c.close({ session: "w1" });
  });

  test("WatchOutput keeps every byte, in order, for a reader that stops reading during a flood", async () => {
    await c.open({ name: "slow", command: "bash" });
    const out = c.watchOutput({ sessions: ["slow"] });
    const reader = out[Symbol.asyncIterator]();
    const readUntil = async (marker: string) => {
      const sizes: number[] = [];
      let text = "";
      for (;;) {
        const next = await reader.next();
        if (next.done) throw new Error(`stream ended before ${marker}`);
        sizes.push(next.value.data.length);
        text += next.value.data.toString("latin1");
        if (text.includes(marker)) return { text, sizes };
      }
    };
    // The reader is attached once the output of a command run after subscribing reaches it.
    const ready = readUntil("ready-7");
    await c.run({ session: "slow", command: "echo ready-$((3+4))" });
    await ready;
    // 8 MiB of 'Z' (written as '\132', so the typed command line holds none) while nothing is read.
    const MB8 = 8 * 1024 * 1024;
    const flood = await c.run({ session: "slow", command: `head -c ${MB8} /dev/zero | tr '\\0' '\\132' | fold -w 99; echo done-$((1+1))`, timeout_s: 60 });
    assert.equal(flood.exit_code, 0);
    const { text, sizes } = await readUntil("done-2");
    const zs = text.match(/Z+/g) ?? [];
    assert.equal(zs.reduce((n, run) => n + run.length, 0), MB8, "every byte of the flood arrived");
    assert.ok(zs.every((run, i) => run.length === 99 || i === zs.length - 1), "lines arrive whole and in order");
    assert.ok(text.lastIndexOf("Z") < text.indexOf("done-2"), "the marker comes after the flood");
    // Messages queued while the reader was stalled go out merged: larger than any single read from tmux.
    assert.ok(Math.max(...sizes) > 256 * 1024, `largest message ${Math.max(...sizes)} bytes`);
    out.cancel();
    await c.close({ session: "slow" });
  });

  test("WatchOutput of an unknown session ends with NOT_FOUND", async () => {
    const stream = c.watchOutput({ sessions: ["ghost"] });
    await assert.rejects(
      (async () => {
        for await (const _ of stream) void _;
      })(),
      (e: unknown) => e instanceof ToolError && e.code === "not_found",
    );
  });

  test("loopback TCP needs the token", async () => {
    assert.ok(s.grpcPort);
    const anon = new TermhiveClient({ address: `127.0.0.1:${s.grpcPort}` });
    await assert.rejects(anon.list(), (e: unknown) => (e as { code?: number }).code === status.UNAUTHENTICATED);
    anon.closeConnection();
    const authed = new TermhiveClient({ address: `127.0.0.1:${s.grpcPort}`, token: s.token! });
    assert.ok(Array.isArray((await authed.list()).sessions));
    authed.closeConnection();
  });
});

describe("gRPC API when tmux dies underneath", () => {
  let s: Served;
  let c: TermhiveClient;
  before(async () => {
    s = await serve(["--no-grpc-tcp"]);
    c = new TermhiveClient({ socketPath: s.grpcSocket, clientName: "grpc-gone" });
    await c.ready();
  });
  after(async () => {
    c?.closeConnection();
    await s?.stop();
  });

  test("a call in flight when the tmux server is killed → UNAVAILABLE with tmux's reason, not INTERNAL; the next call reconnects", async () => {
    await c.open({ name: "doomed", command: "bash" });
    const tmux = (...args: string[]) => spawnSync("tmux", ["-S", join(s.home, "tmux.sock"), ...args], { encoding: "utf8" });
    const serverPid = Number(tmux("display-message", "-p", "#{pid}").stdout.trim());
    assert.ok(serverPid > 0);
    // Stopped, the server reads no command: the keys below wait in tmux's queue.
    process.kill(serverPid, "SIGSTOP");
    const inFlight = c.send({ session: "doomed", keys: ["C-l"] }).then(
      () => assert.fail("the send answered although tmux was stopped"),
      (e: unknown) => e,
    );
    // Sent after the send on the same connection and refused by validation alone: once its answer
    // is back, the server has handled the send up to its write to tmux (no I/O comes before it).
    await assert.rejects(c.read({ session: "" }), (e: unknown) => e instanceof ToolError && e.code === "invalid");
    process.kill(serverPid, "SIGKILL");
    const error = await inFlight;
    assert.ok(error instanceof ToolError, `a plain gRPC error: ${String(error)} (code ${(error as { code?: number }).code}, INTERNAL is ${status.INTERNAL})`);
    assert.equal(error.code, "unavailable");
    assert.match(error.message, /tmux is not running \(.+\); the call was not carried out/);

    const reborn = await c.open({ name: "reborn", command: "bash" });
    assert.equal(reborn.name, "reborn");
    assert.equal((await c.run({ session: "reborn", command: "echo alive" })).output, "alive");
  });
});
