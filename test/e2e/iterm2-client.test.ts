// termhive's iTerm2 API client against the protocol-level simulator (test/fixtures/iterm2-sim):
// handshake and auth, requests matched by id, notifications, and real programs behind sessions.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Iterm2Client, Iterm2Error } from "../../src/iterm2/client.js";
import { iterm2Endpoints, iterm2Unavailable } from "../../src/iterm2/endpoint.js";
import { Iterm2Simulator } from "../fixtures/iterm2-sim/server.js";

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("iTerm2 client (simulated iTerm2)", () => {
  let sim: Iterm2Simulator;
  let client: Iterm2Client;
  before(async () => {
    sim = await Iterm2Simulator.start();
    client = await Iterm2Client.connect({ env: sim.env() });
  });
  after(async () => {
    client?.close();
    await sim?.stop();
  });

  test("off macOS nothing is tried unless a socket is named", () => {
    assert.deepEqual(iterm2Endpoints({}, "linux"), []);
    assert.equal(iterm2Unavailable({}, "linux"), "not macOS");
    const mac = iterm2Endpoints({ HOME: "/Users/x" }, "darwin");
    assert.deepEqual(mac.at(-1), { kind: "tcp", url: "ws://localhost:1912" });
    assert.equal(iterm2Unavailable({ TERMHIVE_ITERM2_SOCKET: "/nonexistent/sock" }, "linux"), "no socket at /nonexistent/sock (TERMHIVE_ITERM2_SOCKET)");
  });

  test("a wrong cookie is refused with a clear message; so is no cookie", async () => {
    const noFresh = () => null;
    await assert.rejects(Iterm2Client.connect({ env: { ...sim.env(), ITERM2_COOKIE: "stale" }, requestCredentials: noFresh }), (e: Error) => e instanceof Iterm2Error && /refused the connection \(HTTP 401\).*not accepted/.test(e.message));
    await assert.rejects(Iterm2Client.connect({ env: sim.env(), credentials: null, requestCredentials: noFresh }), /HTTP 401.*ITERM2_COOKIE/);
    assert.deepEqual(sim.refused.slice(-2), ["bad cookie or key", "bad cookie or key"]);
  });

  // Issue 21 §7: the behaviours of the real iTerm2 the simulator now has.
  test("no cookie: termhive asks for no dialog (x-iterm2-disable-auth-ui), so iTerm2 refuses at once instead of waiting for a person", async () => {
    const started = Date.now();
    await assert.rejects(Iterm2Client.connect({ env: sim.env(), credentials: null, requestCredentials: () => null }), /HTTP 401/);
    assert.equal(sim.dialogs.length, 0, "no \"Allow Python API usage?\" dialog was left waiting");
    assert.ok(Date.now() - started < 4_000);
  });

  test("iTerm2 accepts each cookie once: a spent one from the environment is replaced by a fresh one (AppleScript), in one process and in the next", async () => {
    const env = { ...sim.env(), ITERM2_COOKIE: sim.issueCookie().split(" ")[0]! };
    const first = await Iterm2Client.connect({ env });
    first.close();
    // The same environment again (a reconnect): the spent cookie is refused, and a fresh one asked for.
    const second = await Iterm2Client.connect({ env });
    assert.ok((await second.listSessions()).length >= 0);
    second.close();
    // Another process with the same spent cookie (its environment came from the same launch): refused, then a fresh one.
    // (Spawned without blocking: the simulator answers from this process.)
    const other = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `
        const { Iterm2Client } = await import(${JSON.stringify(new URL("../../src/iterm2/client.ts", import.meta.url).pathname)});
        const c = await Iterm2Client.connect({ env: process.env });
        console.log("sessions", (await c.listSessions()).length);
        c.close();`], { env: { ...process.env, ...env } });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", () => resolve({ stdout, stderr }));
    });
    assert.match(other.stdout, /^sessions \d+$/m, other.stderr);
    assert.ok(sim.refused.includes("bad cookie or key"), "the spent cookie was refused first, as iTerm2 does");
  });

  test("a library version iTerm2 finds too old (HTTP 406) is reported as that, not as a cookie problem", async () => {
    const strict = await Iterm2Simulator.start({ minimumLibrary: 99.0 });
    try {
      await assert.rejects(Iterm2Client.connect({ env: strict.env() }), (e: Error) => /HTTP 406/.test(e.message) && /library version .* older than this iTerm2 accepts/.test(e.message) && !/cookie/.test(e.message));
    } finally {
      await strict.stop();
    }
  });

  test("an iTerm2 that holds the handshake (a modal dialog) fails the connect within its timeout, naming the dialog", { timeout: 30_000 }, async () => {
    const held = await Iterm2Simulator.start({ holdHandshakes: true });
    try {
      const started = Date.now();
      await assert.rejects(Iterm2Client.connect({ env: held.env() }), /did not answer within 5 s: is a dialog .*waiting in iTerm2/);
      assert.ok(Date.now() - started < 15_000);
    } finally {
      await held.stop();
    }
  });

  test("create a tab, send text, read the screen, split, list", async () => {
    const tab = await client.createTab({ "Custom Command": "Yes", Command: "bash --norc --noprofile" });
    assert.match(tab.sessionId, /^SIM-/);
    await client.sendText(tab.sessionId, "echo sim-$((6*7))\r");
    const screen = await until("the echo on screen", async () => {
      const b = await client.getBuffer(tab.sessionId, 50);
      return b.lines.some((l) => l.text === "sim-42") ? b : undefined;
    });
    assert.ok(screen.cursor.y >= screen.firstLine);
    const split = await client.splitPane(tab.sessionId, { vertical: true, before: false }, { "Custom Command": "Yes", Command: "cat" });
    const sessions = await client.listSessions();
    const [a, b] = [sessions.find((s) => s.sessionId === tab.sessionId)!, sessions.find((s) => s.sessionId === split)!];
    assert.equal(a.tabId, b.tabId, "a split pane shares its tab");
    assert.equal(a.cols, 80);
    await assert.rejects(client.splitPane("SIM-nope", { vertical: false, before: false }, {}), /could not split pane: SESSION_NOT_FOUND/);
    await client.closeSessions([tab.sessionId, split]);
    await until("sessions closed", () => (sim.sessions.size === 0 ? true : undefined));
  });

  test("prompt, screen, custom-escape and terminate notifications reach their subscribers", async () => {
    const prompts: Record<string, any>[] = [];
    const customs: Record<string, any>[] = [];
    const ended: string[] = [];
    let screens = 0;
    const unsubscribe = await client.subscribe("NOTIFY_ON_PROMPT", "all", (e) => prompts.push(e));
    await client.subscribe("NOTIFY_ON_CUSTOM_ESCAPE_SEQUENCE", "all", (e) => customs.push(e));
    await client.subscribe("NOTIFY_ON_TERMINATE_SESSION", null, (e) => ended.push(e.session_id));
    const tab = await client.createTab({ "Custom Command": "Yes", Command: "bash --norc --noprofile" });
    await client.subscribe("NOTIFY_ON_SCREEN_UPDATE", tab.sessionId, () => screens++);
    await client.sendText(tab.sessionId, "printf '\\033]133;B\\007'; printf '\\033]133;C\\007x\\n'; printf '\\033]133;D;3\\007'\r");
    await until("prompt events", () => (prompts.length >= 3 ? true : undefined));
    assert.deepEqual(prompts.map((p) => p.event), ["prompt", "command_start", "command_end"]);
    assert.equal(prompts[2]!.command_end.status, 3);
    await until("a screen update", () => (screens > 0 ? true : undefined));
    await client.sendText(tab.sessionId, "printf '\\033]1337;Custom=id=termhive:status=idle\\007'\r");
    await until("custom escape", () => (customs.length ? true : undefined));
    assert.deepEqual([customs[0]!.sender_identity, customs[0]!.payload], ["termhive", "status=idle"]);
    await unsubscribe();
    await client.sendText(tab.sessionId, "exit\r");
    await until("terminate notification", () => (ended.includes(tab.sessionId) ? true : undefined));
  });

  test("variables, profile properties, activate, inject", async () => {
    const tab = await client.createTab({ "Custom Command": "Yes", Command: "cat" });
    const seen: unknown[] = [];
    const unwatch = await client.watchVariable(tab.sessionId, "user.termhive", (v) => seen.push(v));
    await client.setVariables({ session: tab.sessionId }, { "user.termhive": { name: "x" } });
    await until("the variable-change notification", () => (seen.length ? true : undefined));
    assert.deepEqual(seen, [{ name: "x" }]);
    await unwatch();
    assert.deepEqual(await client.getVariables({ session: tab.sessionId }, ["user.termhive", "user.unset"]), [{ name: "x" }, null]);
    await assert.rejects(client.setVariables({ session: tab.sessionId }, { notuser: 1 }), /INVALID_NAME/);
    await client.setProfileProperties(tab.sessionId, { "Badge Text": "hi", "Use Tab Color": true });
    assert.deepEqual(sim.profileLog.slice(-2).map((p) => [p.key, p.value]), [["Badge Text", "hi"], ["Use Tab Color", true]]);
    await client.activate(tab.sessionId);
    assert.equal(sim.activations.at(-1), tab.sessionId);
    await assert.rejects(client.activate("SIM-nope"), /BAD_IDENTIFIER/);
    await client.inject(tab.sessionId, Buffer.from("\x1b]9;hello from termhive\x07"));
    assert.deepEqual(sim.sessions.get(tab.sessionId)!.posted, ["hello from termhive"]);
    await client.closeSessions([tab.sessionId]);
  });

  test("a request after iTerm2 went away fails with the reason", async () => {
    const other = await Iterm2Client.connect({ env: sim.env() });
    other.close();
    await assert.rejects(other.listSessions(), /closed by termhive/);
  });
});

describe("iTerm2 client: cookies that last, and why none could be had", () => {
  test("a reusable cookie from the environment is used for every connection, with no fresh one asked for", async () => {
    const sim = await Iterm2Simulator.start({ cookie: "reusable-cookie", reusableCookie: true });
    try {
      let asked = 0;
      const fresh = () => (asked++, null);
      for (let i = 0; i < 3; i++) (await Iterm2Client.connect({ env: sim.env(), requestCredentials: fresh })).close();
      assert.equal(asked, 0, "no AppleScript cookie was asked for");
      assert.deepEqual(sim.refused, []);
    } finally {
      await sim.stop();
    }
  });

  test("when AppleScript cannot get a cookie, the refusal says osascript's reason and what to do, not to allow a dialog termhive never shows", async () => {
    const denied = "execution error: Not authorized to send Apple events to iTerm2. (-1743)";
    const sim = await Iterm2Simulator.start({ appleScriptFails: denied });
    try {
      const { ITERM2_COOKIE: _, ...env } = sim.env();
      await assert.rejects(Iterm2Client.connect({ env }), (e: Error) => {
        assert.match(e.message, /HTTP 401/);
        assert.ok(e.message.includes(denied), e.message);
        assert.match(e.message, /Privacy & Security > Automation/);
        assert.doesNotMatch(e.message, /when iTerm2 asks/);
        return true;
      });
    } finally {
      await sim.stop();
    }
  });
});
