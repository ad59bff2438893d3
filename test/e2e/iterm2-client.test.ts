// termhive's iTerm2 API client against the protocol-level simulator (test/fixtures/iterm2-sim):
// handshake and auth, requests matched by id, notifications, and real programs behind sessions.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
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
    await assert.rejects(Iterm2Client.connect({ env: { ...sim.env(), ITERM2_COOKIE: "stale" } }), (e: Error) => e instanceof Iterm2Error && /refused the connection \(HTTP 401\).*not accepted/.test(e.message));
    await assert.rejects(Iterm2Client.connect({ env: sim.env(), credentials: null }), /HTTP 401.*ITERM2_COOKIE/);
    assert.deepEqual(sim.refused.slice(-2), ["bad cookie or key", "bad cookie or key"]);
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
