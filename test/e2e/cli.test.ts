// The CLI verbs, with and without a running `termhive serve` (--json outputs parsed).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { CLI, Harness } from "./harness.js";
import { destroyHome, newHome, serve, testEnv, type Served } from "./serve-process.js";

function cli(home: string, ...args: string[]): { status: number | null; json: any; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: testEnv(home), encoding: "utf8", timeout: 60_000 });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, json, stdout: r.stdout, stderr: r.stderr };
}

function verbs(mode: "direct" | "served", home: () => string): void {
  test(`${mode}: open, run, send, read, ls, close`, () => {
    const opened = cli(home(), "open", "--name", "c1", "--json", "bash");
    assert.equal(opened.status, 0, opened.stderr + opened.stdout);
    assert.equal(opened.json.name, "c1");

    const ran = cli(home(), "run", "c1", "--json", "echo", "cli-$((20+1))");
    assert.equal(ran.status, 0, ran.stderr);
    assert.equal(ran.json.output, "cli-21");
    assert.equal(ran.json.exit_code, 0);

    const failed = cli(home(), "run", "c1", "false");
    assert.equal(failed.status, 1, "exit status is the command's");
    assert.match(failed.stdout, /exit 1/);

    const sent = cli(home(), "send", "c1", "--json", "echo", "sent-by-cli");
    assert.equal(sent.status, 0, sent.stderr);
    assert.ok(sent.json.sent_bytes > 0);

    let read: ReturnType<typeof cli> | undefined;
    for (let i = 0; i < 50; i++) {
      read = cli(home(), "read", "c1", "--mode", "all", "--json");
      if (/^sent-by-cli/m.test(read.json?.output ?? "")) break;
    }
    assert.match(read!.json.output, /^sent-by-cli/m);

    const ls = cli(home(), "ls", "--json");
    assert.equal(ls.status, 0);
    const row = ls.json.sessions.find((s: { name: string }) => s.name === "c1");
    assert.equal(row.alive, true);

    const attach = cli(home(), "attach", "c1", "--json");
    assert.equal(attach.status, 0, attach.stderr);
    assert.deepEqual(attach.json.argv.slice(1), ["-S", `${home()}/tmux.sock`, "attach", "-t", row.pane]);

    const closed = cli(home(), "close", "c1", "--json");
    assert.equal(closed.json.closed, true);
  });

  test(`${mode}: closing a session whose program ended says its exit code, as terminal_close does`, () => {
    const opened = cli(home(), "open", "--name", "ended", "--json", "--", "sh", "-c", "exit 4");
    assert.equal(opened.status, 0, opened.stderr + opened.stdout);
    let listed: ReturnType<typeof cli> | undefined;
    for (let i = 0; i < 50; i++) {
      listed = cli(home(), "ls", "--json");
      if (listed.json?.sessions.some((s: { name: string; alive: boolean }) => s.name === "ended" && !s.alive)) break;
    }
    const closed = cli(home(), "close", "ended");
    assert.equal(closed.status, 0, closed.stderr);
    assert.equal(closed.stdout, "closed ended (exit 4)\n");
  });

  test(`${mode}: termhive agents lists the hive's agents (one a line, tab-separated); an unknown team is a clear error`, async () => {
    const opened = cli(home(), "open", "--name", "ag1", "--json", "bash");
    assert.equal(opened.status, 0, opened.stderr + opened.stdout);
    const mcp = new Harness(home(), { SHELL: "/bin/bash" });
    await mcp.connect();
    try {
      // No profile: nothing reads its screen, so the status it reported is the one listed (a
      // shell profile would read the idle prompt and report that instead).
      await mcp.ok("agent_register", { name: "lister", session: "ag1" });
      await mcp.ok("hive_status", { agent: "lister", status: "working", detail: "listing" });
    } finally {
      await mcp.close();
    }
    const json = cli(home(), "agents", "--json");
    assert.equal(json.status, 0, json.stderr + json.stdout);
    const agent = json.json.agents.find((a: { name: string }) => a.name === "lister");
    assert.equal(agent.status, "working");
    assert.equal(agent.alive, true);
    const text = cli(home(), "agents");
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^lister\t\tworking \(listing\)\tag1\t$/m);
    const none = cli(home(), "agents", "--team", "nobody-here");
    assert.equal(none.status, 1);
    assert.match(none.stderr, /unknown team 'nobody-here'/);
    cli(home(), "close", "ag1");
  });

  test(`${mode}: an unknown session → exit 1 and a JSON error`, () => {
    const r = cli(home(), "run", "ghost", "--json", "true");
    assert.equal(r.status, 1);
    assert.equal(r.json.code, "not_found");
    assert.match(r.json.error, /unknown session "ghost"/);
  });
}

describe("CLI without a server (in-process, straight to tmux)", () => {
  const home = newHome();
  after(() => destroyHome(home));
  verbs("direct", () => home);

  test("doctor reports tmux, shells, home and a live round trip", () => {
    const r = cli(home, "doctor", "--json");
    const checks = Object.fromEntries(r.json.checks.map((c: { check: string; ok: boolean }) => [c.check, c]));
    assert.equal(checks.tmux.ok, true);
    assert.equal(checks.bash.ok, true);
    assert.equal(checks.TERMHIVE_HOME.ok, true);
    assert.equal(checks["round trip"].ok, true, checks["round trip"].detail);
    assert.match(checks["round trip"].detail, /in-process/);
    assert.equal(r.status, r.json.ok ? 0 : 1);
  });

  // npm start run from a script (stdin no terminal) said nothing; stdout stays the protocol's.
  test("start says how to register a client on stderr, also when stdin is no terminal; mcp does not", () => {
    const start = spawnSync(process.execPath, [CLI, "start"], { env: testEnv(home), input: "", encoding: "utf8", timeout: 60_000 });
    assert.match(start.stderr, /Register it with Claude Code: +claude mcp add -s user termhive -- \S*cli\.js mcp/, start.stderr);
    assert.equal(start.stdout, "");
    const mcp = spawnSync(process.execPath, [CLI, "mcp"], { env: testEnv(home), input: "", encoding: "utf8", timeout: 60_000 });
    assert.doesNotMatch(mcp.stderr, /Register it/);
    assert.equal(mcp.stdout, "");
  });
});

describe("CLI against a running termhive serve (gRPC unix socket)", () => {
  let s: Served;
  before(async () => {
    s = await serve(["--no-grpc-tcp"]);
  });
  after(async () => s?.stop());
  verbs("served", () => s.home);

  test("doctor round-trips through the server when one runs", () => {
    const opened = cli(s.home, "open", "--name", "c2", "--json", "bash");
    assert.equal(opened.status, 0, opened.stderr + opened.stdout);
    const doctor = cli(s.home, "doctor", "--json");
    const rt = doctor.json.checks.find((c: { check: string }) => c.check === "round trip");
    assert.match(rt.detail, /via termhive serve/);
    assert.equal(rt.ok, true, rt.detail);
    cli(s.home, "close", "c2");
  });
});
