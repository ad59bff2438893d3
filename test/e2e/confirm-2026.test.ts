// The safety gate's person-in-the-loop for a 2026-07-28 client (issue 34 §3): the refused call
// answers input_required with the question and a sealed requestState; the v2 client SDK asks its
// person (its elicitation/create handler) and retries. A yes runs the call once; a no, or a state
// for another call, altered, forged, expired, already used or from another home, runs nothing.
// Judged by what the pane ran: the command appends a line to a file.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI, Harness } from "./harness.js";
import { tempFolder } from "../temp-folder.js";
import { until } from "../until.js";

/** The runs the server stopped waiting for because their client cancelled them (its audit log). */
function cancelsIn(home: string): number {
  const log = join(home, "audit.jsonl");
  if (!existsSync(log)) return 0;
  return readFileSync(log, "utf8").split("\n").filter((line) => line.includes('"event":"cancelled"')).length;
}

const harnesses: Harness[] = [];
const clients: Client[] = [];

/** A gated command (git reset --hard in an empty temp dir, no repository) that appends a line to `file` when it runs. */
function risky(file: string, tag = "ran"): string {
  return `(d=$(mktemp -d) && cd "$d" && GIT_DIR=/nonexistent git reset --hard; rmdir "$d"); echo ${tag} >> '${file}'; echo GATE-$((6*7))-RAN`;
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

async function home(env: Record<string, string> = {}): Promise<Harness> {
  const base = tempFolder("termhive-confirm26-");
  const userHome = join(base, "user");
  mkdirSync(userHome);
  writeFileSync(join(userHome, ".bashrc"), "");
  const h = new Harness(base, { HOME: userHome, ...env });
  harnesses.push(h);
  await h.connect();
  await h.ok("terminal_open", { name: "sh", command: "bash" });
  return h;
}

type Answer = "accept" | "decline";

/** A v2 client in the 2026 era on `h`'s home; `answer` is its person (undefined: it cannot ask). */
async function modern(h: Harness, answer: Answer | undefined, options: { manual?: boolean; env?: Record<string, string> } = {}) {
  const asked: string[] = [];
  const client = new Client(
    { name: "termhive-e2e-2026", version: "1.0.0" },
    {
      versionNegotiation: { mode: "auto" },
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
      ...(options.manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  if (answer) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push((request.params as { message: string }).message);
      return answer === "accept" ? { action: "accept", content: {} } : { action: "decline" };
    });
  }
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], env: { ...h.serverEnv(), ...options.env }, stderr: "pipe" }));
  clients.push(client);
  assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
  return { client, asked };
}

function text(result: unknown): string {
  return ((result as { content?: { text: string }[] }).content ?? []).map((c) => c.text).join("\n");
}

type Round = { resultType?: string; inputRequests?: Record<string, { method: string; params: { message: string } }>; requestState?: string; isError?: boolean; content?: { text: string }[] };

/** One leg of a tools/call, by hand: what the server answers, input_required included. */
async function leg(client: Client, args: Record<string, unknown>, extra: { inputResponses?: Record<string, unknown>; requestState?: string } = {}): Promise<Round> {
  return (await client.request({ method: "tools/call", params: { name: "terminal_run", arguments: args, ...extra } }, { allowInputRequired: true, timeout: 60_000 })) as Round;
}

const YES = { termhive_confirm: { action: "accept", content: {} } };

/** A state sealed with `key` like termhive's (the SDK codec's v1 shape), carrying `payload` and expiring at `exp`. */
function sealWith(key: Buffer, payload: unknown, exp: number): string {
  const body = Buffer.from(JSON.stringify({ p: payload, exp })).toString("base64url");
  return `v1.${body}.${createHmac("sha256", key).update(`v1.${body}`).digest("base64url")}`;
}

function payloadOf(state: string): unknown {
  return (JSON.parse(Buffer.from(state.split(".")[1]!, "base64url").toString()) as { p: unknown }).p;
}

describe("a 2026 client's person confirms a refused command through input_required", () => {
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const h of harnesses) await h.destroy();
  });

  test("accept: the client asks its person once and the command runs exactly once, with progress", async () => {
    const h = await home();
    const { client, asked } = await modern(h, "accept");
    const file = join(h.home, "ran.txt");
    const progress: string[] = [];
    const result = await client.callTool(
      { name: "terminal_run", arguments: { session: "sh", command: `sleep 1.3; ${risky(file)}` } },
      { onprogress: (p) => progress.push(p.message ?? ""), timeout: 60_000 },
    );
    assert.equal(result.isError, undefined, text(result));
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /git reset --hard/);
    assert.match(text(result), /^GATE-42-RAN$/m);
    assert.deepEqual(lines(file), ["ran"]);
    // The retry's own wait reports progress like any run.
    assert.ok(progress.some((m) => /waiting for sleep 1\.3/.test(m)), JSON.stringify(progress));
    const key = statSync(join(h.home, "confirm.key"));
    assert.equal(key.mode & 0o777, 0o600);
  });

  test("the same for hive_message: the person's yes delivers the refused text once", async () => {
    const h = await home();
    const { client, asked } = await modern(h, "accept");
    const file = join(h.home, "ran.txt");
    await h.ok("agent_register", { name: "a1", session: "sh", profile: "shell" });
    const sent = await client.callTool({ name: "hive_message", arguments: { agents: { a1: risky(file) }, when: "now" } }, { timeout: 60_000 });
    assert.equal(sent.isError, undefined, text(sent));
    assert.equal(asked.length, 1);
    assert.equal((await h.ok("terminal_wait", { session: "sh", pattern: "^GATE-42-RAN$", timeout_s: 10 })).matched, true);
    assert.deepEqual(lines(file), ["ran"]);
  });

  test("decline: refused, the person's no named, nothing typed", async () => {
    const h = await home();
    const { client, asked } = await modern(h, "decline");
    const file = join(h.home, "ran.txt");
    const result = await client.callTool({ name: "terminal_run", arguments: { session: "sh", command: risky(file) } });
    assert.equal(result.isError, true);
    assert.equal(asked.length, 1);
    assert.match(text(result), /declined it \(git-reset-hard .*\)\. Nothing was sent/);
    assert.deepEqual(lines(file), []);
    const all = (await h.ok("terminal_read", { session: "sh", mode: "all" })).output as string;
    assert.doesNotMatch(all, /GATE-42-RAN|reset --hard/);
  });

  test("a requestState for another command, altered, forged, expired or from another home runs nothing", async () => {
    const h = await home();
    const { client } = await modern(h, "accept", { manual: true });
    const file = join(h.home, "ran.txt");
    const first = { session: "sh", command: risky(file, "first") };
    const round = await leg(client, first);
    assert.equal(round.resultType, "input_required", JSON.stringify(round));
    assert.match(round.inputRequests!.termhive_confirm!.params.message, /git reset --hard/);
    const state = round.requestState!;
    assert.equal(typeof state, "string");
    assert.deepEqual(lines(file), [], "asked, not run");

    const other = { session: "sh", command: risky(file, "other") };
    const key = readFileSync(join(h.home, "confirm.key"));
    const otherHome = await home();
    const foreign = (await leg((await modern(otherHome, "accept", { manual: true })).client, first)).requestState!;
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ["another command", other, state, /confirms another call/],
      ["another session", { ...first, session: "elsewhere" }, state, /confirms another call/],
      ["altered", first, state.slice(0, -2) + (state.endsWith("A") ? "BB" : "AA"), /not sealed by this termhive home/],
      ["forged", first, "v1.eyJwIjp7fX0.AAAA", /not sealed by this termhive home|malformed/],
      ["garbage", first, "hello", /malformed/],
      ["expired", first, sealWith(key, payloadOf(state), Math.floor(Date.now() / 1000) - 5), /expired/],
      ["another home", first, foreign, /not sealed by this termhive home/],
    ];
    for (const [what, args, requestState, why] of cases) {
      const answer = await leg(client, args, { inputResponses: YES, requestState });
      assert.equal(answer.isError, true, `${what}: ${JSON.stringify(answer)}`);
      assert.match(text(answer), /^refused: /, what);
      assert.match(text(answer), why, what);
      assert.match(text(answer), /Nothing was sent/, what);
    }
    assert.deepEqual(lines(file), [], "nothing ran");
    // No answer with the state: refused too.
    assert.match(text(await leg(client, first, { requestState: state })), /no answer from the person/);

    // The real state with the person's yes runs it once; sent again, it is refused.
    const yes = await leg(client, first, { inputResponses: YES, requestState: state });
    assert.equal(yes.isError, undefined, JSON.stringify(yes));
    assert.match(text(yes), /^GATE-42-RAN$/m);
    const again = await leg(client, first, { inputResponses: YES, requestState: state });
    assert.equal(again.isError, true);
    assert.match(text(again), /already used/);
    assert.deepEqual(lines(file), ["first"]);
  });

  test("the retry may reach another termhive process on the same home (the key is the home's)", async () => {
    const h = await home();
    const asking = await modern(h, "accept", { manual: true });
    const answering = await modern(h, "accept", { manual: true });
    const file = join(h.home, "ran.txt");
    const args = { session: "sh", command: risky(file) };
    const state = (await leg(asking.client, args)).requestState!;
    const yes = await leg(answering.client, args, { inputResponses: YES, requestState: state });
    assert.equal(yes.isError, undefined, JSON.stringify(yes));
    assert.deepEqual(lines(file), ["ran"]);
    // Used in one process, refused in the other.
    assert.match(text(await leg(asking.client, args, { inputResponses: YES, requestState: state })), /already used/);
    assert.deepEqual(lines(file), ["ran"]);
  });

  test("a 2026 client that cannot ask, or TERMHIVE_ELICIT=off: the refusal names confirm: true, nobody is asked", async () => {
    const h = await home();
    const file = join(h.home, "ran.txt");
    const cannot = await modern(h, undefined);
    const off = await modern(h, "accept", { env: { TERMHIVE_ELICIT: "off" } });
    for (const { client, asked } of [cannot, off]) {
      const result = await client.callTool({ name: "terminal_run", arguments: { session: "sh", command: risky(file) } });
      assert.equal(result.isError, true);
      assert.match(text(result), /refused by the safety gate.*confirm: true/s);
      assert.equal(asked.length, 0);
    }
    assert.deepEqual(lines(file), []);
    // With ELICIT=off no state is taken either: a retry carrying one is refused.
    const manualOff = await modern(h, "accept", { manual: true, env: { TERMHIVE_ELICIT: "off" } });
    const round = await leg(manualOff.client, { session: "sh", command: risky(file) });
    assert.equal(round.resultType, undefined);
    assert.equal(round.isError, true);
    assert.match(text(await leg(manualOff.client, { session: "sh", command: risky(file) }, { inputResponses: YES, requestState: "v1.x.y" })), /TERMHIVE_ELICIT=off/);
    assert.deepEqual(lines(file), []);
    assert.equal((await off.client.callTool({ name: "terminal_run", arguments: { session: "sh", command: risky(file), confirm: true } })).isError, undefined);
    assert.deepEqual(lines(file), ["ran"]);
  });

  test("a cancelled call ends at the client at once, the server stops waiting, and the command goes on running in the pane, in both eras", async () => {
    const h = await home();
    const { client } = await modern(h, undefined);
    for (const era of ["2025", "2026"]) {
      const file = join(h.home, `late-${era}.txt`);
      const go = join(h.home, `go-${era}`);
      // It starts, then waits for the test's go: the call is cancelled while the command runs, and
      // the server's wait ends then (its audit says so before the command has ended), not at timeout_s.
      const command = `echo STARTED-$((1+${era})); while [ ! -e '${go}' ]; do sleep 0.05; done; echo late >> '${file}'; echo LATE-$((40+${era}))`;
      const abort = new AbortController();
      const call = { name: "terminal_run", arguments: { session: "sh", command, timeout_s: 60 } };
      const options = { signal: abort.signal, timeout: 60_000 };
      const started = era === "2025" ? h.client.callTool(call, undefined, options) : client.callTool(call, options);
      assert.equal((await h.ok("terminal_wait", { session: "sh", pattern: `^STARTED-${1 + Number(era)}$`, timeout_s: 20 })).matched, true);
      abort.abort("the person pressed Esc");
      await assert.rejects(started, /abort|cancel|Esc/i, era);
      const stopped = await until(`the server to record the ${era} run's cancel`, () => (cancelsIn(h.home) === Number(era) - 2024 ? true : undefined));
      assert.equal(stopped, true);
      assert.deepEqual(lines(file), [], "cancelled before the command ended");
      writeFileSync(go, "");
      assert.equal((await h.ok("terminal_wait", { session: "sh", pattern: `^LATE-${40 + Number(era)}$`, timeout_s: 20 })).matched, true, era);
      assert.deepEqual(lines(file), ["late"], era);
    }
  });
});
