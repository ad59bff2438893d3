// termhive msg / inbox / status as an agent's pane (and its hooks, every turn) runs them: no
// termhive server, a bare env, a fresh process per call. They are the CLI forms of hive_mail /
// hive_inbox / hive_status, so --json gives the verb's result; they reach the hive store alone
// (a tmux on PATH that leaves a mark when run is never run).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Hive } from "../../src/hive/index.js";
import { CLI } from "./harness.js";
import { runCli } from "./cli-field.js";

describe("the in-pane commands with no server running", () => {
  let root: string;
  let home: string;
  let bin: string;
  const tmuxRan = () => existsSync(join(root, "tmux-ran"));
  const pane = (env: Record<string, string>, ...args: string[]) => runCli(args, { cwd: root, env: { HOME: root, PATH: bin, TERMHIVE_HOME: home, ...env } });

  before(() => {
    root = mkdtempSync(join(tmpdir(), "termhive-pane-cli-"));
    home = join(root, "home");
    bin = join(root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "tmux"), `#!/bin/sh\ntouch ${JSON.stringify(join(root, "tmux-ran"))}\nexit 1\n`);
    chmodSync(join(bin, "tmux"), 0o755);
    const hive = Hive.open({ home });
    hive.agents.register({ name: "worker", sessionId: "s-worker" });
    hive.agents.register({ name: "lead", sessionId: "s-lead" });
    hive.close();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("--json gives each verb's result; the pane's agent (by TERMHIVE_SESSION) is the sender and the reader", () => {
    const inWorker = { TERMHIVE_SESSION: "s-worker" };
    const status = pane(inWorker, "status", "waiting", "a", "question", "--json");
    assert.equal(status.status, 0, status.stderr);
    assert.deepEqual(
      { name: status.json.agent.name, status: status.json.agent.status, detail: status.json.agent.detail, source: status.json.agent.source },
      { name: "worker", status: "waiting_for_input", detail: "a question", source: "self" },
    );
    const sent = pane(inWorker, "msg", "lead", "done", "with", "it", "--json");
    assert.equal(sent.status, 0, sent.stderr);
    assert.deepEqual([sent.json.message.from, sent.json.message.to, sent.json.message.text], ["worker", "lead", "done with it"]);
    const read = pane({ TERMHIVE_AGENT: "lead" }, "inbox", "--json");
    assert.equal(read.status, 0, read.stderr);
    assert.equal(read.json.agent, "lead");
    assert.deepEqual(read.json.messages.map((m: { id: number; text: string }) => [m.id, m.text]), [[sent.json.message.id, "done with it"]]);
    assert.equal(read.json.unread_left, 0);
    // The human text is what it always was.
    assert.equal(pane({ TERMHIVE_AGENT: "lead" }, "inbox", "--all", "--peek").stdout, `#${sent.json.message.id} from worker: done with it\n`);
    assert.equal(pane(inWorker, "status", "idle").stdout, "worker: idle\n");
    assert.equal(tmuxRan(), false, "an in-pane command ran tmux");
  });

  test("they load neither gRPC nor a terminal backend: only the hive store's package", () => {
    // A module hook that names every module the process resolves (node:module register). It
    // writes to a file synchronously: hooks run on their own thread, whose stderr writes can
    // be lost when the process exits first (seen once under load: a run that "loaded nothing").
    const resolvedLog = join(root, "resolved.log");
    const hooks = join(root, "hooks.mjs");
    writeFileSync(hooks, `import { appendFileSync } from "node:fs";\nexport async function resolve(spec, ctx, next) { const r = await next(spec, ctx); appendFileSync(${JSON.stringify(resolvedLog)}, "RESOLVED " + r.url + "\\n"); return r; }\n`);
    const register = join(root, "register.mjs");
    writeFileSync(register, `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    for (const args of [["status", "working"], ["msg", "worker", "hi"], ["inbox"]]) {
      writeFileSync(resolvedLog, "");
      const r = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, CLI, ...args], { cwd: root, env: { HOME: root, PATH: bin, TERMHIVE_HOME: home, TERMHIVE_AGENT: "worker" }, encoding: "utf8", timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      const resolved = readFileSync(resolvedLog, "utf8");
      assert.match(resolved, /^RESOLVED .*\/dist\/bundle\/cli\.js$/m, "the hook saw the entry point");
      const packages = [...new Set([...resolved.matchAll(/^RESOLVED .*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]))];
      assert.deepEqual(packages, ["better-sqlite3"], `termhive ${args.join(" ")} loaded ${packages.join(", ")}`);
    }
    assert.equal(tmuxRan(), false, "an in-pane command ran tmux");
  });

  test("errors: one line, exit 1 for an answer (no agent, unknown agent), 2 for a bad argument; --json gives {error, code}", () => {
    const unbound = pane({}, "inbox");
    assert.equal(unbound.status, 1);
    assert.equal(unbound.stderr, "termhive: no agent is bound to this pane (TERMHIVE_SESSION); pass --agent <name>\n");
    const ghost = pane({}, "msg", "ghost", "hi", "--json");
    assert.equal(ghost.status, 1);
    assert.equal(ghost.json.code, "not_found");
    assert.match(ghost.json.error, /unknown agent 'ghost'/);
    const bad = pane({}, "status", "sleeping", "--agent", "worker");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^termhive: unknown status "sleeping"[^\n]*\n$/);
    // The verb's schema checks the input, as at every door: nothing is left.
    const long = pane({}, "msg", "lead", "x".repeat(64 * 1024 + 1));
    assert.equal(long.status, 1);
    assert.match(long.stderr, /^termhive: text: /);
    assert.deepEqual(pane({}, "inbox", "--agent", "lead", "--all", "--peek", "--json").json.messages.map((m: { text: string }) => m.text), ["done with it"]);
    assert.equal(tmuxRan(), false, "an in-pane command ran tmux");
  });
});
