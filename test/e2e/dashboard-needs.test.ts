// Issue 25 §2: the dashboard's "Needs you" list and the notification's link to it, in a real
// browser (Debian's chromium through playwright-core) against the built `termhive serve`, with
// the fake assistant TUI asking. Judged by what the receiver got, what the page shows and the
// choice the fake's own log says it took.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium, type Browser, type Page } from "playwright-core";
import { logHas, logLines } from "./fake-agent-log.js";
import { spawnSync } from "node:child_process";
import { CLI } from "./harness.js";
import { serve, testEnv, type Served } from "./serve-process.js";
import { Receiver } from "../unit/hive/notify/receiver.js";

const CHROMIUM = process.env.TERMHIVE_CHROMIUM ?? "/usr/bin/chromium";
const FAKE = resolve("test/fixtures/fake-agent.mjs");
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const skip = existsSync(CHROMIUM) ? false : `chromium is not installed (${CHROMIUM})`;

type Result = { content: { text: string }[]; _meta?: Record<string, any>; structuredContent?: Record<string, any>; isError?: boolean };

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("dashboard: Needs you", { skip }, () => {
  let s: Served;
  let receiver: Receiver;
  let client: Client;
  let browser: Browser;
  let page: Page;

  const ok = async (name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> => {
    const r = (await client.callTool({ name, arguments: args })) as Result;
    if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join("\n")}`);
    return r._meta?.["termhive/result"] ?? r.structuredContent ?? {};
  };

  before(async () => {
    receiver = await Receiver.start([200]);
    s = await serve([], undefined, { TERMHIVE_NOTIFY_URL: `${receiver.url}/hook` });
    client = new Client({ name: "needs-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await client?.close().catch(() => {});
    await s?.stop();
    await receiver?.close();
  });

  test("the notification links to the agent's entry; its choice buttons answer through hive_answer", async () => {
    const log = join(s.home, "nd.log");
    await ok("agent_spawn", { name: "nd", command: `${process.execPath} ${FAKE} ${log} 1000`, profile: "claude" });
    await logHas(log, "ready");
    await ok("hive_wait", { targets: "nd", for: "idle", timeout_s: 20 });
    await ok("hive_message", { agents: { nd: "choose: from the browser" } });
    await logHas(log, "menu: choose: from the browser");
    await ok("hive_wait", { targets: "nd", for: "waiting_for_input", timeout_s: 20 });
    const question = (await ok("agent_list")).agents.find((a: { name: string }) => a.name === "nd").question;
    assert.ok(question, "agent_list shows the question");

    await receiver.waitFor(1);
    const notice = JSON.parse(receiver.received[0]!.body) as { text: string; termhive: { kind: string; link?: string; question?: string } };
    assert.equal(notice.termhive.kind, "waiting");
    const link = `http://127.0.0.1:${s.port}/#needs-nd`;
    assert.equal(notice.termhive.link, link, JSON.stringify(notice));
    assert.equal(notice.termhive.question, question.digest);
    assert.ok(notice.text.includes(link), notice.text);
    assert.ok(!receiver.received[0]!.body.includes(s.token!), "the link carries no token");

    // Signed in once (the token becomes a cookie), then the notification's link.
    await page.goto(`http://127.0.0.1:${s.port}/?token=${encodeURIComponent(s.token!)}`);
    await page.goto(link);
    const entry = page.locator('#needs .needs[data-agent="nd"]');
    await until("nd's entry, marked as the linked one", async () => (await entry.getAttribute("class"))?.includes("linked"));
    assert.equal(await entry.getAttribute("data-question"), question.digest);
    assert.equal(await entry.locator(".question").textContent(), "Which database should the service use?");
    assert.deepEqual(await entry.locator("button.choice").allTextContents(), ["1. Postgres", "2. SQLite", "3. None of these"]);

    await entry.locator("button.choice", { hasText: "SQLite" }).click();
    await logHas(log, "chose: SQLite");
    await until("the page says it was answered", async () => /nd: answered \(2\. SQLite\)/.test((await page.locator("#needs-results").textContent()) ?? ""));
    await until("nd's entry gone", async () => (await entry.count()) === 0);
    assert.deepEqual(logLines(log).filter((l) => l.startsWith("chose: ")), ["chose: SQLite"]);
  });

  test("a typed answer goes the same way; one that fits no choice is refused on the page, nothing typed", async () => {
    const log = join(s.home, "nd.log");
    await ok("hive_wait", { targets: "nd", for: "idle", timeout_s: 20 });
    await ok("hive_message", { agents: { nd: "order: from the browser" } });
    await logHas(log, "menu: order: from the browser");
    const entry = page.locator('#needs .needs[data-agent="nd"]');
    await until("nd's entry back", async () => (await entry.count()) === 1);
    await entry.locator("input.answer-text").fill("sideways");
    await entry.locator("button[type=submit]").click();
    await until("the refusal on the page", async () => /none of the choices/.test((await page.locator("#needs-results").textContent()) ?? ""));
    await entry.locator("input.answer-text").fill("oldest");
    await entry.locator("button[type=submit]").click();
    await logHas(log, "chose: Oldest first");
    assert.deepEqual(logLines(log).filter((l) => l.startsWith("chose: ")), ["chose: SQLite", "chose: Oldest first"]);
  });

  test("termhive answer goes through the running serve (gRPC HiveAnswer) and its result reads the same", async () => {
    const log = join(s.home, "nd.log");
    await ok("hive_wait", { targets: "nd", for: "idle", timeout_s: 20 });
    await ok("hive_message", { agents: { nd: "pick: over grpc" } });
    await logHas(log, "menu: pick: over grpc");
    const question = await until("nd's question", async () => (await ok("agent_list")).agents.find((a: { name: string }) => a.name === "nd").question ?? undefined);
    const r = spawnSync(process.execPath, [CLI, "answer", "nd", "Green", "--question", question.digest, "--json"], { env: testEnv(s.home), encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    await logHas(log, "chose: Green");
    const result = JSON.parse(r.stdout);
    assert.deepEqual(result.typed, { keys: ["Down", "Enter"] });
    assert.equal(result.choice, "Green");
    assert.equal(result.gone, true);
    assert.equal(result.now.question, null, JSON.stringify(result));
    const events = (await ok("hive_events", { since: 0, kinds: ["status"], targets: "nd", limit: 1000 })).events as { data: { question?: string } }[];
    assert.ok(events.some((e) => e.data.question === question.digest), "hive_events carries the digest");
  });

  test("a shell's [y/N] question gets y and n buttons; the answer's outcome follows the agent's status; Runs names the program", async () => {
    writeFileSync(join(s.home, "cc.claude.json"), "{}\n");
    await ok("agent_spawn", { name: "shy", command: "bash", profile: "shell" });
    await ok("hive_wait", { targets: "shy", for: "idle", timeout_s: 20 });
    await ok("hive_message", { agents: { shy: "read -p 'Ship it? [y/N] ' a; sleep 1; echo shipped-$a" } });
    await ok("hive_wait", { targets: "shy", for: "waiting_for_input", timeout_s: 20 });
    const entry = page.locator('#needs .needs[data-agent="shy"]');
    await until("shy's entry", async () => (await entry.count()) === 1);
    assert.deepEqual(await entry.locator("button.choice").allTextContents(), ["y", "n"]);
    await entry.locator("button.choice", { hasText: "y" }).click();
    const results = page.locator("#needs-results");
    await until("the page says it was answered", async () => /shy: answered/.test((await results.textContent()) ?? ""));
    await ok("hive_wait", { targets: "shy", for: "idle", timeout_s: 20 });
    assert.ok((await ok("terminal_read", { session: "shy", mode: "screen" })).output.includes("shipped-y"));
    await until("the outcome to say the agent is idle now", async () => /shy: answered.*; now idle/.test((await results.textContent()) ?? ""));

    // A pane started with a command line whose last argument is a file (as Claude Code's, with
    // its hooks' `--settings …/cc.claude.json`): the program is named, not that file.
    await ok("terminal_open", { name: "tailer", command: `tail -f ${join(s.home, "cc.claude.json")}` });
    const listed = await until("tailer listed as running", async () => (await ok("terminal_list")).sessions.find((x: { name: string; running: string | null }) => x.name === "tailer" && x.running !== null));
    assert.equal(listed.running, "tail", JSON.stringify(listed));
    const runs = page.locator('#sessions tr[data-name="tailer"] td').nth(1);
    await until("tailer's Runs cell", async () => (await runs.textContent())?.startsWith("tail"));
    assert.ok(!((await runs.textContent()) ?? "").includes(".json"), (await runs.textContent()) ?? "");
  });
});
