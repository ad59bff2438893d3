// Issue 23: the real Codex CLI (pinned in scripts/agents) under the hive, offline against a
// loopback stand-in of the Responses API (standins/openai-responses-api.ts). Judged by what
// reached the stand-in (which texts, how often, when each turn really ended) and what the
// tool did on disk — never by what termhive says it did.
// The suite runs once per way termhive is started (real-agents.ts STARTED_BY): real-codex.test.ts
// and real-codex-from-lead.test.ts, one file each (a file has 90 s on a loaded machine).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ResponsesStandIn } from "./standins/openai-responses-api.js";
import { waitForRequest } from "./standins/agent-script.js";
import { agentIs, agentNamed, codexEnv, codexHome, cursor, messageEvents, type StartedBy, missingAgent, realField, screenOf, sendFirst, sentOnce, statusEvents, until } from "./real-agents.js";

export const missing = missingAgent("codex");

export function realCodexSuite(started: StartedBy): void {
  describe(`real Codex CLI under the hive (termhive started by ${started.label})`, { skip: missing ?? false }, () => {
    const api = new ResponsesStandIn();
    const field = realField({
      standIns: [api],
      serverEnv: started.env,
      setUp: ({ h }) => ({ env: codexEnv(join(h.home, "codex-home"), api, "gpt-5.1-codex") }),
    });

    test("spawn → idle; a message reaches Codex once, is seen working, and idle comes from its Stop hook, never before the turn's real end", async () => {
      const { h, project, env } = field;
      const spawned = await h.ok("agent_spawn", { name: "cx", profile: "codex", cwd: project, env });
      assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
      await agentIs(h, "cx", "idle");
      const since = await cursor(h);
      await sendFirst(h, "cx", "alpha task sleep 3");
      const w = await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 40 });
      const waited = Date.now();
      assert.equal(w.matched, true, JSON.stringify(w));
      const turn = api.turnsWith("alpha task sleep 3");
      assert.equal(turn.length, 1, `the stand-in got the text ${turn.length} times`);
      assert.ok(turn[0]!.answeredAt, "the turn's answer was streamed");
      // Codex's title thread notifies ~3 s earlier here; the wait must not take that for the end.
      assert.ok(waited >= turn[0]!.answeredAt!, `hive_wait returned ${turn[0]!.answeredAt! - waited} ms before the turn ended`);
      // The Stop hook reports the end (the screen may say idle first: the hook's process takes
      // a moment to start); bench hive-real measures how long after the end.
      const hookIdle = await until("the idle from Codex's Stop hook", async () =>
        (await statusEvents(h, "cx", since)).find((e) => e.data.status === "idle" && e.data.source === "hook"));
      assert.ok(hookIdle.at >= turn[0]!.answeredAt!, `the hook's idle came ${turn[0]!.answeredAt! - hookIdle.at} ms before the turn ended`);
      const statuses = await statusEvents(h, "cx", since);
      const seq = statuses.map((e) => `${e.data.status}:${e.data.source}`);
      assert.ok(statuses.some((e) => e.data.status === "working" && e.at < turn[0]!.answeredAt!), seq.join(" "));
      // No idle between the message and the real end (the title thread's end is not the turn's).
      const early = statuses.filter((e) => e.data.status === "idle" && e.at > turn[0]!.at && e.at < turn[0]!.answeredAt!);
      assert.deepEqual(early.map((e) => e.data), []);
    });

    test("a message sent mid-turn is queued, not steered into the running turn, and reaches Codex once after it", async () => {
      const { h } = field;
      // Right after the last turn's Stop hook: the hook's idle must not hide this turn.
      await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 });
      const since = await cursor(h);
      assert.equal(await sentOnce(h, "cx", { agents: { cx: "bravo task sleep 4" } }), 1);
      await agentIs(h, "cx", "working", 10_000);
      const second = await h.ok("hive_message", { agents: { cx: "charlie task" } });
      assert.equal(second.queued, 1, JSON.stringify(second));
      const charlie = await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("charlie task"), "the queued text", 40_000);
      const bravo = api.turnsWith("bravo task sleep 4");
      assert.equal(bravo.length, 1);
      assert.ok(charlie.at >= bravo[0]!.answeredAt!, "the queued text reached Codex before the running turn ended");
      await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 });
      assert.equal(api.turnsWith("charlie task").length, 1);
      // The running turn kept its own text (a steered text joins the turn's next request).
      assert.ok(!api.requests.some((r) => r.at < bravo[0]!.answeredAt! && JSON.stringify(r.body).includes("charlie task")));
      const states = (await messageEvents(h, "cx", since)).filter((e) => e.data.preview === "charlie task").map((e) => e.data.state);
      assert.deepEqual(states, ["queued", "delivered"]);
    });

    test("an approval dialog is waiting_for_input with its question and choices, and answered it runs the command", async () => {
      const { h, project } = field;
      await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 });
      const made = join(project, "made-by-codex");
      await h.ok("hive_message", { agents: { cx: `delta please run: touch ${made}` } });
      const waiting = await agentIs(h, "cx", "waiting_for_input", 30_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cx")}`));
      assert.match(waiting.detail ?? "", /Yes, proceed/, waiting.detail ?? "");
      assert.equal(existsSync(made), false, "the command ran before it was approved");
      // A message now is queued, not typed into the dialog.
      const during = await h.ok("hive_message", { agents: { cx: "echo task" } });
      assert.equal(during.queued, 1, JSON.stringify(during));
      await h.ok("terminal_send", { session: "cx", text: "y", enter: false });
      await until("the approved command's file", async () => (existsSync(made) ? true : undefined));
      await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("echo task"), "the text queued during the dialog", 40_000);
      assert.equal(api.turnsWith("echo task").length, 1);
      await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 });
    });

    test("kill -9 of termhive: the next process pastes into Codex as the first did and drives it as before", async () => {
      const { h } = field;
      await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 });
      process.kill(h.pid, "SIGKILL");
      await h.connect();
      assert.equal((await agentNamed(h, "cx")).status, "idle");
      const sent = await h.ok("hive_message", { agents: { cx: "echo after restart\nsecond line" } });
      assert.equal(sent.delivered, 1, JSON.stringify(sent));
      assert.equal(sent.deliveries[0].method, "paste", "the new process typed keystrokes: Codex may take the Enter as a newline");
      // Delivered on Codex's own word: its UserPromptSubmit hook reported this text.
      assert.equal(sent.deliveries[0].confirmedBy, "hook", JSON.stringify(sent));
      await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("echo after restart"), "the text after the restart");
      const got = api.turnsWith("echo after restart");
      assert.equal(got.length, 1);
      assert.match(got[0]!.userText, /echo after restart\nsecond line/);
      assert.equal((await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 })).matched, true);
    });

    test("the start-up model menu is waiting_for_input with its choices; a message is queued until it is answered, and the user's model is kept", async () => {
      const { h, project, env } = field;
      const home = codexHome(join(h.home, "codex-home-menu"), api, "gpt-5.6-sol");
      await h.ok("agent_spawn", { name: "cxmenu", profile: "codex", cwd: project, env: { ...env, CODEX_HOME: home } });
      const menu = await agentIs(h, "cxmenu", "waiting_for_input").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cxmenu")}`));
      assert.match(menu.detail ?? "", /1\. Try new model \/ 2\. Use existing model/, menu.detail ?? "");
      const sent = await h.ok("hive_message", { agents: { cxmenu: "golf task" } });
      assert.equal(sent.queued, 1, JSON.stringify(sent));
      assert.equal(api.turnsWith("golf task").length, 0);
      // The person picks "Use existing model".
      await h.ok("terminal_send", { session: "cxmenu", keys: ["Down", "Enter"] });
      const golf = await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("golf task"), "the text queued behind the menu", 40_000);
      assert.equal((golf.body as { model?: string }).model, "gpt-5.6-sol", "the menu's Enter switched the user's model");
      assert.equal(api.turnsWith("golf task").length, 1);
    });
  });
}
