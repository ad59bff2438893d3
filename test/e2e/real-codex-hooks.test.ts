// The real Codex CLI (pinned in scripts/agents) reports its status through its own hooks,
// trusted for the session on its command line: nothing is written to the user's config.toml,
// the user's own hooks are left as they are and still run, Codex's "Hooks need review" screen
// is waiting_for_input, and its notify is read only where its hooks are off. Judged by what
// reached the stand-in, what Codex itself says of the hooks (`codex app-server` hooks/list),
// and the files on disk.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexHookHash } from "../../src/hive/programs/codex-hooks.js";
import { ResponsesStandIn } from "./standins/openai-responses-api.js";
import { waitForRequest } from "./standins/agent-script.js";
import { AGENTS_BIN, agentIs, codexEnv, cursor, missingAgent, realField, screenOf, sendFirst, statusEvents, until } from "./real-agents.js";

const missing = missingAgent("codex");

/** The command line of the Codex process started for `agent` (found by termhive's hook arguments naming it). */
function codexArgv(agent: string): string[] {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    } catch {
      continue;
    }
    if (argv.some((a) => a.startsWith("hooks.state=")) && argv.some((a) => a.includes(`--agent ${agent}`)) && !/node$/.test(argv[0]!)) return argv;
  }
  throw new Error(`no codex process for ${agent}`);
}

/** What `codex app-server` says of the hooks a Codex with `args` and `env` has (JSON-RPC over stdio). */
async function hooksList(args: string[], env: Record<string, string>, cwd: string): Promise<{ key: string; trustStatus: string; currentHash: string; command: string; source: string }[]> {
  const p = spawn(join(AGENTS_BIN, "codex"), [...args, "app-server"], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "ignore"] });
  try {
    return await new Promise((resolve, reject) => {
      let buf = "";
      const send = (o: unknown) => p.stdin.write(JSON.stringify(o) + "\n");
      const timer = setTimeout(() => reject(new Error("codex app-server did not answer hooks/list in 30 s")), 30_000);
      p.on("error", reject);
      p.stdout.on("data", (d: Buffer) => {
        buf += d.toString("utf8");
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          const m = JSON.parse(buf.slice(0, i));
          buf = buf.slice(i + 1);
          if (m.id === 1) {
            send({ method: "initialized" });
            send({ id: 2, method: "hooks/list", params: { cwds: [cwd] } });
          } else if (m.id === 2) {
            clearTimeout(timer);
            if (m.error) reject(new Error(JSON.stringify(m.error)));
            else resolve(m.result.data[0].hooks);
          }
        }
      });
      send({ id: 1, method: "initialize", params: { clientInfo: { name: "termhive-test", version: "0" } } });
    });
  } finally {
    p.kill();
  }
}

/** A hook of the user's own: a script appending each payload to `log`. */
function userHook(dir: string, log: string): string {
  const script = join(dir, "user-hook.sh");
  writeFileSync(script, `#!/bin/sh\ncat >> '${log}'\necho >> '${log}'\n`);
  chmodSync(script, 0o755);
  return script;
}

describe("real Codex CLI: status from its own hooks", { skip: missing ?? false }, () => {
  const api = new ResponsesStandIn();
  const field = realField({
    standIns: [api],
    setUp: ({ h }) => ({ env: codexEnv(join(h.home, "codex-home"), api, "gpt-5.1-codex") }),
  });

  test("a turn is working from UserPromptSubmit and idle from Stop, trusted as Codex records trust; config.toml untouched, no review screen, notify not read", async () => {
    const { h, project, env } = field;
    const config = join(env.CODEX_HOME!, "config.toml");
    const before = readFileSync(config, "utf8");
    const since = await cursor(h);
    await h.ok("agent_spawn", { name: "cx", profile: "codex", cwd: project, env });
    await agentIs(h, "cx", "idle");
    await sendFirst(h, "cx", "alpha hooks sleep 2");
    const hookIdle = await until("the Stop hook's idle", async () =>
      (await statusEvents(h, "cx", since)).find((e) => e.data.source === "hook" && e.data.detail === "Stop hook: turn ended"), 40_000);
    const turn = api.turnsWith("alpha hooks sleep 2");
    assert.equal(turn.length, 1);
    const events = await statusEvents(h, "cx", since);
    const seq = events.map((e) => `${e.data.status}:${e.data.source}:${e.data.detail}`).join(" | ");
    // Only Codex's hook can say the prompt was taken before the answer came.
    assert.ok(events.some((e) => e.data.source === "hook" && e.data.detail === "UserPromptSubmit hook: prompt submitted" && e.at < turn[0]!.answeredAt!), seq);
    assert.ok(hookIdle.at >= turn[0]!.answeredAt!, `the Stop hook's idle came ${turn[0]!.answeredAt! - hookIdle.at} ms before the turn ended`);
    assert.ok(!events.some((e) => e.data.status === "waiting_for_input"), `Codex asked about hooks: ${seq}`);
    // Codex notes its own things there ([tui] screen_reader_detection_done); nothing of hooks.
    const after = readFileSync(config, "utf8");
    assert.ok(after.startsWith(before), after);
    assert.doesNotMatch(after.slice(before.length), /hooks|notify/, "termhive's hooks or their trust went into the user's config.toml");

    // Codex itself lists the hooks of the running agent's command line as trusted, with the hash termhive gave.
    const argv = codexArgv("cx");
    assert.ok(!argv.includes("--dangerously-bypass-hook-trust"), argv.join(" "));
    const listed = await hooksList(argv.slice(1), env, project);
    const ours = listed.filter((x) => x.source === "sessionFlags");
    assert.deepEqual(ours.map((x) => `${x.key}=${x.trustStatus}`).sort(), [
      "/<session-flags>/config.toml:stop:0:0=trusted", "/<session-flags>/config.toml:user_prompt_submit:0:0=trusted",
    ]);
    for (const x of ours) assert.ok(argv.some((a) => a.startsWith("hooks.state=") && a.includes(x.currentHash)), `${x.key}: Codex's hash ${x.currentHash} is not the one given`);

    // A second turn: the first turn's notify has run by its end (it fires at the first turn's end), and was not read.
    await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 });
    const sent = await h.ok("hive_message", { agents: { cx: "bravo hooks sleep 3\nits second line" } });
    // Delivered on Codex's word: its UserPromptSubmit hook reported exactly this text.
    assert.equal(sent.delivered, 1, JSON.stringify(sent));
    assert.equal(sent.deliveries[0].confirmedBy, "hook", JSON.stringify(sent));
    await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("bravo hooks sleep 3\nits second line"), "the second text");
    assert.equal(api.turnsWith("bravo hooks sleep 3\nits second line").length, 1);
    await until("the second turn's Stop", async () =>
      (await statusEvents(h, "cx", since)).filter((e) => e.data.detail === "Stop hook: turn ended").length >= 2 ? true : undefined, 40_000);
    const all = await statusEvents(h, "cx", since);
    assert.deepEqual(all.filter((e) => /agent-turn-complete/.test(e.data.detail ?? "")).map((e) => e.data), [], "Codex's notify was read though its hooks report");
  });

  test("an interrupted turn (Esc: Codex runs no Stop hook) is idle, not held working nor taken for a dialog", async () => {
    const { h } = field;
    await h.ok("hive_wait", { targets: "cx", for: "idle", timeout_s: 30 });
    const since = await cursor(h);
    await h.ok("hive_message", { agents: { cx: "charlie hooks sleep 30" } });
    await until("the turn's request", async () => (api.turnsWith("charlie hooks sleep 30").length ? true : undefined));
    await agentIs(h, "cx", "working", 10_000);
    await h.ok("terminal_send", { session: "cx", keys: ["Escape"] });
    const idle = await agentIs(h, "cx", "idle", 15_000).catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cx")}`));
    assert.equal(idle.detail, "interrupted");
    const seq = (await statusEvents(h, "cx", since)).map((e) => `${e.data.status}:${e.data.source}:${e.data.detail}`);
    assert.ok(!seq.some((s) => s.startsWith("waiting_for_input")), seq.join(" | "));
  });

  test("a hook of the user's that is new: the review screen is waiting_for_input; trusted by the person, it runs beside termhive's, and only Codex's own record of it is written", async () => {
    const { h, project, env } = field;
    const home = codexEnv(join(h.home, "codex-home-user"), api, "gpt-5.1-codex").CODEX_HOME!;
    const log = join(home, "user-hook.log");
    const command = userHook(home, log);
    const config = join(home, "config.toml");
    writeFileSync(config, readFileSync(config, "utf8") + `[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "${command}"\n`);
    const before = readFileSync(config, "utf8");
    const since = await cursor(h);
    await h.ok("agent_spawn", { name: "cxu", profile: "codex", cwd: project, env: { ...env, CODEX_HOME: home } });
    const review = await agentIs(h, "cxu", "waiting_for_input").catch(async (e) => assert.fail(`${e}\n${await screenOf(h, "cxu")}`));
    assert.match(review.detail ?? "", /^Hooks need review: .*2\. Trust all and continue/, review.detail ?? "");
    assert.match(await screenOf(h, "cxu"), /1 hook is new or changed/, "termhive's own hooks were counted as needing review");
    const queued = await h.ok("hive_message", { agents: { cxu: "delta user hooks" } });
    assert.equal(queued.queued, 1, JSON.stringify(queued));
    // The person chooses "2. Trust all and continue".
    await h.ok("terminal_send", { session: "cxu", keys: ["Down", "Enter"] });
    await waitForRequest(() => api.requests, (r) => !r.side && r.userText.includes("delta user hooks"), "the text queued behind the review screen", 40_000);
    await until("termhive's Stop hook", async () =>
      (await statusEvents(h, "cxu", since)).find((e) => e.data.source === "hook" && e.data.detail === "Stop hook: turn ended"), 40_000);
    await until("the user's own Stop hook", async () => (existsSync(log) && /"hook_event_name":"Stop"/.test(readFileSync(log, "utf8")) ? true : undefined));
    assert.equal(api.turnsWith("delta user hooks").length, 1);
    // Codex recorded its trust of the user's hook, with the hash it computes; nothing of termhive's.
    const after = readFileSync(config, "utf8");
    assert.ok(after.startsWith(before), after);
    const added = after.slice(before.length);
    assert.deepEqual([...added.matchAll(/^\[hooks\.state\."([^"]+)"\]\ntrusted_hash = "([^"]+)"$/gm)].map((m) => [m[1], m[2]]), [
      [`${config}:stop:0:0`, codexHookHash({ event: "Stop", command, timeoutS: 600 })],
    ], added);
    assert.doesNotMatch(added, /session-flags|UserPromptSubmit|notify/, added);
  });

  test("where Codex's hooks are off ([features] hooks = false), its notify reports the turn's end", async () => {
    const { h, project, env } = field;
    const home = codexEnv(join(h.home, "codex-home-off"), api, "gpt-5.1-codex").CODEX_HOME!;
    writeFileSync(join(home, "config.toml"), readFileSync(join(home, "config.toml"), "utf8") + "[features]\nhooks = false\n");
    const since = await cursor(h);
    await h.ok("agent_spawn", { name: "cxo", profile: "codex", cwd: project, env: { ...env, CODEX_HOME: home } });
    await agentIs(h, "cxo", "idle");
    await sendFirst(h, "cxo", "echo hooks off sleep 1");
    const notified = await until("the notify's idle", async () =>
      (await statusEvents(h, "cxo", since)).find((e) => e.data.source === "hook" && e.data.detail === "agent-turn-complete hook: turn ended"), 40_000);
    const turn = api.turnsWith("echo hooks off sleep 1");
    assert.equal(turn.length, 1);
    assert.ok(notified.at >= turn[0]!.answeredAt!);
    const seq = (await statusEvents(h, "cxo", since)).map((e) => e.data.detail ?? "");
    assert.ok(!seq.some((d) => /UserPromptSubmit hook|Stop hook/.test(d)), seq.join(" | "));
  });
});
