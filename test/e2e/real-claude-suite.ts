// Issue 23: the real Claude Code (pinned in scripts/agents) under the hive, offline against a
// loopback stand-in of the Messages API (standins/anthropic-agent-api.ts), in a HOME of the
// test's own. Judged by what reached the stand-in and what the tool did on disk, and by the
// hook payloads Claude Code itself sent (SessionStart's session_id), never by what termhive
// says it did.
// The suite runs once per way termhive is started (real-agents.ts STARTED_BY): real-claude.test.ts
// and real-claude-from-lead.test.ts, one file each (a file has 90 s on a loaded machine).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MessagesAgentStandIn } from "./standins/anthropic-agent-api.js";
import { waitForRequest } from "./standins/agent-script.js";
import { agentIs, agentNamed, claudeEnv, claudeUser, cursor, messageEvents, type StartedBy, missingAgent, projectDir, realField, screenOf, sendFirst, sentOnce, statusEvents, until, writeJson } from "./real-agents.js";

export const missing = missingAgent("claude");

export function realClaudeSuite(started: StartedBy): void {
  describe(`real Claude Code under the hive (termhive started by ${started.label})`, { skip: missing ?? false }, () => {
    const api = new MessagesAgentStandIn();
    const field = realField({
      standIns: [api],
      serverEnv: started.env,
      setUp: ({ h }) => {
        const auto = projectDir(h, "auto-proj");
        const manual = projectDir(h, "manual-proj");
        claudeUser(h.env.HOME!, [auto, manual]);
        // Another user keeps manual permission mode in their settings: 2.1.332 asks at start whether to make auto mode the default.
        const manualHome = projectDir(h, "manual-user");
        claudeUser(manualHome, [auto, manual]);
        writeJson(join(manualHome, ".claude", "settings.json"), { permissions: { defaultMode: "default" } });
        return { auto, manual, manualHome, env: claudeEnv(api) };
      },
    });

    test("spawn → idle (SessionStart hook with its session_id); a message reaches Claude Code once, working then idle from its hooks, never before the turn's end", async () => {
      const { h, auto, env } = field;
      const since = await cursor(h);
      const spawned = await h.ok("agent_spawn", { name: "cc", profile: "claude", cwd: auto, env });
      assert.equal(spawned.ready, "ready", JSON.stringify(spawned));
      await agentIs(h, "cc", "idle").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cc")}`));
      const start = await until("the SessionStart hook", async () =>
        (await statusEvents(h, "cc", since)).find((e) => e.data.source === "hook" && /SessionStart hook: session [0-9a-f-]{36}/.test(e.data.detail ?? "")));
      assert.equal(start.data.status, "idle");
      const c = await cursor(h);
      await sendFirst(h, "cc", "alpha task sleep 3");
      const w = await h.ok("hive_wait", { targets: "cc", for: "idle", timeout_s: 40 });
      const waited = Date.now();
      assert.equal(w.matched, true, JSON.stringify(w));
      const turn = api.turnsWith("alpha task sleep 3");
      assert.equal(turn.length, 1, `the stand-in got the text ${turn.length} times`);
      assert.ok(waited >= turn[0]!.answeredAt!, `hive_wait returned ${turn[0]!.answeredAt! - waited} ms before the turn ended`);
      const hookIdle = await until("the Stop hook's idle", async () =>
        (await statusEvents(h, "cc", c)).find((e) => e.data.status === "idle" && e.data.source === "hook"));
      assert.match(hookIdle.data.detail, /Stop hook/);
      assert.ok(hookIdle.at >= turn[0]!.answeredAt!);
      const seq = (await statusEvents(h, "cc", c)).map((e) => `${e.data.status}:${e.data.source}`);
      assert.ok(seq.includes("working:hook"), `UserPromptSubmit did not report the turn: ${seq.join(" ")}`);
    });

    test("a message sent mid-turn is queued and reaches Claude Code once, after the turn", async () => {
      const { h } = field;
      await h.ok("hive_wait", { targets: "cc", for: "idle", timeout_s: 30 });
      const since = await cursor(h);
      assert.equal(await sentOnce(h, "cc", { agents: { cc: "bravo task sleep 4" } }), 1);
      await agentIs(h, "cc", "working", 10_000);
      const second = await h.ok("hive_message", { agents: { cc: "charlie task" } });
      assert.equal(second.queued, 1, JSON.stringify(second));
      const charlie = await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("charlie task"), "the queued text", 40_000);
      const bravo = api.turnsWith("bravo task sleep 4");
      assert.equal(bravo.length, 1);
      assert.ok(charlie.at >= bravo[0]!.answeredAt!, "the queued text reached Claude Code before the running turn ended");
      await h.ok("hive_wait", { targets: "cc", for: "idle", timeout_s: 30 });
      assert.equal(api.turnsWith("charlie task").length, 1);
      const states = (await messageEvents(h, "cc", since)).filter((e) => e.data.preview === "charlie task").map((e) => e.data.state);
      assert.deepEqual(states, ["queued", "delivered"]);
    });

    // The message queued behind the question is typed only once the input box is back and still
    // (Claude Code's SessionStart hook says idle while the question is up; the box is redrawn a
    // moment after the answer), and counted delivered only when the text showed in the box.
    test("the start-up auto-mode question is waiting_for_input (also under SessionStart's idle); a message waits; then a permission dialog is waiting_for_input and answered", async () => {
      const { h, manual, manualHome, env } = field;
      await h.ok("agent_spawn", { name: "ccm", profile: "claude", cwd: manual, env: { ...env, HOME: manualHome } });
      const asked = await agentIs(h, "ccm", "waiting_for_input").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "ccm")}`));
      assert.match(asked.detail ?? "", /Make auto mode your default permission mode\? .*No, keep manual mode/, asked.detail ?? "");
      const made = join(manual, "made-by-claude");
      const sent = await h.ok("hive_message", { agents: { ccm: `delta please run: touch ${made}` } });
      assert.equal(sent.queued, 1, JSON.stringify(sent));
      // SessionStart's idle (it fires while the question is up) does not hide the question.
      await until("SessionStart's hook", async () => (await statusEvents(h, "ccm", 0)).find((e) => e.data.source === "hook") ?? undefined);
      // (The store may say idle for the moment between the hook's write and the screen's next look.)
      await agentIs(h, "ccm", "waiting_for_input", 5000);
      assert.equal(api.turnsWith("delta please run").length, 0, "the message was typed into the dialog");
      // The person keeps manual mode.
      await h.ok("terminal_send", { session: "ccm", keys: ["Down", "Enter"] });
      await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("delta please run"), "the text queued behind the question", 40_000)
        // On failure: what became of the queued message (typed but not verified, retried, …) and the screen.
        .catch(async (e) => assert.fail(`${e}\n${JSON.stringify(await agentNamed(h, "ccm"))}\n${JSON.stringify((await messageEvents(h, "ccm", 0)).map((m) => m.data))}\n${JSON.stringify((await statusEvents(h, "ccm", 0)).map((m) => [m.at, m.data.status, m.data.source]))}\n${await screenOf(h, "ccm")}`));
      const permission = await agentIs(h, "ccm", "waiting_for_input").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "ccm")}`));
      assert.doesNotMatch(permission.detail ?? "", /Make auto mode your default/, "still the start-up question's status");
      assert.match(permission.detail ?? "", /Do you want to proceed\?|permission/, permission.detail ?? "");
      assert.equal(existsSync(made), false, "the command ran before it was allowed");
      // The PermissionRequest hook reports the dialog a moment before Claude Code draws it; a "1"
      // typed before that lands in the input box. A person presses 1 when they see the dialog,
      // and again if the dialog is still there a few seconds later (on a loaded machine Claude
      // Code draws it a moment before it reads keys: seen once, the "1" was dropped).
      await until("the permission dialog on screen", async () => (/Do you want to proceed\?/.test(await screenOf(h, "ccm")) ? true : undefined));
      for (let press = 1; !existsSync(made); press++) {
        if (press > 3) assert.fail(`1 pressed 3 times, the command never ran\n${await screenOf(h, "ccm")}`);
        if (press > 1 && !/Do you want to proceed\?/.test(await screenOf(h, "ccm"))) break; // answered: the command is on its way
        await h.ok("terminal_send", { session: "ccm", text: "1", enter: false });
        await until("the allowed command's file", async () => (existsSync(made) ? true : undefined), 5000).catch(() => undefined);
      }
      await until("the allowed command's file", async () => (existsSync(made) ? true : undefined))
        .catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "ccm")}`));
      assert.equal((await h.ok("hive_wait", { targets: "ccm", for: "idle", timeout_s: 30 })).matched, true);
      assert.equal(api.turnsWith("delta please run").length, 1);
      // Reported delivered once, and only after the question was answered (a try whose text never
      // showed in the input box is undelivered and stays queued).
      const states = (await messageEvents(h, "ccm", 0)).map((e) => e.data.state);
      assert.equal(states.filter((s) => s === "delivered").length, 1, states.join(" "));
      assert.equal(states.at(-1), "delivered", states.join(" "));
    });

    test("an API error ends the turn: StopFailure reports error with the API's message", async () => {
      const { h } = field;
      await h.ok("hive_wait", { targets: "cc", for: "idle", timeout_s: 30 });
      const since = await cursor(h);
      assert.equal(await sentOnce(h, "cc", { agents: { cc: "echo please fail 400" } }), 1);
      const failed = await until("the StopFailure hook", async () =>
        (await statusEvents(h, "cc", since)).find((e) => e.data.source === "hook" && e.data.status === "error"));
      assert.match(failed.data.detail, /StopFailure hook: turn failed: API Error: 400 the stand-in was asked to fail/);
      assert.equal(api.turnsWith("echo please fail 400").length >= 1, true);
    });

    test("kill -9 of termhive: the next process pastes into Claude Code as the first did and drives it as before", async () => {
      const { h } = field;
      process.kill(h.pid, "SIGKILL");
      await h.connect();
      const sent = await h.ok("hive_message", { agents: { cc: "echo after restart\nsecond line" } });
      assert.equal(sent.delivered, 1, JSON.stringify(sent));
      assert.equal(sent.deliveries[0].method, "paste");
      // Delivered on Claude Code's own word: its UserPromptSubmit hook reported this text.
      assert.equal(sent.deliveries[0].confirmedBy, "hook", JSON.stringify(sent));
      await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("echo after restart"), "the text after the restart");
      const got = api.turnsWith("echo after restart");
      assert.equal(got.length, 1);
      assert.match(got[0]!.userText, /echo after restart\nsecond line/);
      assert.equal((await h.ok("hive_wait", { targets: "cc", for: "idle", timeout_s: 30 })).matched, true);
    });
  });
}
