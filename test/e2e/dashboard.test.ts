// The web dashboard (issue 12) in a real browser: Debian's chromium driven by playwright-core
// against the built `termhive serve`, real tmux sessions and the fake agent TUI
// (test/fixtures/fake-agent.mjs), judged by what the page's DOM shows (xterm.js in
// screen-reader mode keeps the terminal's text there), by the fake agent's own log and by
// files a typed command creates.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import WebSocket from "ws";
import { logHas, logLines } from "./fake-agent-log.js";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { CLI } from "./harness.js";
import { destroyHome, newHome, serve, testEnv, type Served } from "./serve-process.js";

const CHROMIUM = process.env.TERMHIVE_CHROMIUM ?? "/usr/bin/chromium";
const FAKE = resolve("test/fixtures/fake-agent.mjs");
// Without the background-networking flags chromium's own connections are refused here and it stalls.
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const skip = existsSync(CHROMIUM) ? false : `chromium is not installed (${CHROMIUM}); apt-get install chromium to run the dashboard tests`;

type Result = { content: { text: string }[]; structuredContent?: Record<string, any>; _meta?: Record<string, any>; isError?: boolean };

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("web dashboard", { skip }, () => {
  let s: Served;
  let client: Client;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let fakeLog: string;
  const base = () => `http://127.0.0.1:${s.port}`;

  const ok = async (name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> => {
    const r = (await client.callTool({ name, arguments: args })) as Result;
    if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join("\n")}`);
    return (r._meta?.["termhive/result"] ?? r.structuredContent ?? {});
  };
  /** The text of one session's terminal as xterm.js draws it (its DOM renderer's rows). */
  const screenText = (name: string) => page.locator(`.term[data-name="${name}"] .xterm-rows`).textContent();
  /** The same text for assistive tech (screen-reader mode; xterm updates it at most once a second). */
  const readerText = (name: string) => page.locator(`.term[data-name="${name}"] .xterm-accessibility-tree`).textContent();
  /** A fresh page token, read from the page as the browser gets it (the cookie goes with the request). */
  const pageToken = async (): Promise<string> => {
    const cookie = (await context.cookies())[0]!;
    const html = await (await fetch(`${base()}/`, { headers: { cookie: `${cookie.name}=${cookie.value}` } })).text();
    const token = /<meta name="termhive-page-token" content="([^"]+)">/.exec(html)?.[1];
    assert.ok(token, "the page carries a page token");
    return token;
  };
  const openSession = async (name: string) => {
    await page.locator(`#sessions tr[data-name="${name}"]`).click();
    await until(`the terminal of ${name} drawn`, async () => (await page.locator(`.term[data-name="${name}"][data-drawn]`).count()) === 1);
  };

  before(async () => {
    s = await serve();
    client = new Client({ name: "dashboard-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    fakeLog = join(s.home, "fa.log");
    await ok("agent_spawn", { name: "fa", team: "alpha", command: `${process.execPath} ${FAKE} ${fakeLog} 3000`, profile: "claude" });
    await logHas(fakeLog, "ready", 15_000);
    await ok("terminal_open", { name: "plain", command: "bash" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await client?.close().catch(() => {});
    await s?.stop();
  });

  test("without the token: 401 and no hive data, in the page or from the server", async () => {
    const anonymous = await browser.newContext();
    try {
      const p = await anonymous.newPage();
      const r = await p.goto(`${base()}/`);
      assert.equal(r?.status(), 401);
      const text = await p.locator("body").textContent();
      assert.match(text ?? "", /Not signed in/);
      assert.doesNotMatch(text ?? "", /fa|alpha|plain/);
      assert.equal((await p.goto(`${base()}/?token=wrong-${s.token}`))?.status(), 401);
      assert.deepEqual(await anonymous.cookies(), []);
    } finally {
      await anonymous.close();
    }
    assert.equal((await fetch(`${base()}/assets/app.js`)).status, 404);
    // The bearer token still guards /mcp; a dashboard cookie is no substitute for it.
    assert.equal((await fetch(`${base()}/mcp`, { method: "POST" })).status, 401);
  });

  test("/?token= sets an HttpOnly SameSite=Strict cookie and redirects to / without the token", async () => {
    const r = await page.goto(`${base()}/?token=${encodeURIComponent(s.token!)}`);
    assert.equal(r?.status(), 200);
    assert.equal(page.url(), `${base()}/`);
    const cookies = await context.cookies();
    assert.equal(cookies.length, 1, JSON.stringify(cookies));
    assert.equal(cookies[0]!.httpOnly, true);
    assert.equal(cookies[0]!.sameSite, "Strict");
    assert.ok(!cookies[0]!.value.includes(s.token!), "the cookie is not the bearer token");
    await until("the first hive snapshot", async () => (await page.locator("body[data-ready]").count()) === 1);
  });

  test("the overview shows the team tree, the agent's status, the sessions and what they run", async () => {
    const agent = page.locator('#agents li.team[data-team="alpha"] li.agent[data-agent="fa"]');
    await until("agent fa in team alpha, idle", async () => (await agent.locator(".status").getAttribute("data-status")) === "idle");
    assert.equal(await agent.locator(".status").textContent(), "idle");
    assert.match((await agent.textContent()) ?? "", /for \d+ (s|min)/);
    const plain = page.locator('#sessions tr[data-name="plain"]');
    await until("session plain listed", async () => (await plain.count()) === 1);
    assert.match((await plain.textContent()) ?? "", /bash|prompt/);
    assert.equal(await page.locator('#sessions tr[data-name="fa"]').count(), 1);
    assert.match((await page.locator("#queue").textContent()) ?? "", /Nothing queued/);
  });

  test("a command run over MCP appears in the page's terminal within a second", async () => {
    await openSession("plain");
    const marker = `mark-${Date.now()}`;
    const run = await ok("terminal_run", { session: "plain", command: `echo ${marker}` });
    assert.equal(run.output, marker);
    const shown = Date.now();
    await until("the marker in the terminal", async () => ((await screenText("plain"))?.split(marker).length ?? 0) >= 3, 1_000);
    assert.ok(Date.now() - shown <= 1_000);
  });

  test("a message typed in the page reaches the agent, and its status changes live", async () => {
    await page.locator("#message-to").selectOption("agent:fa");
    await page.getByLabel("Message", { exact: true }).fill("hello from the page");
    await page.getByRole("button", { name: "Send" }).click();
    await until("the delivery shown", async () => (await page.locator('#message-result li[data-agent="fa"]').textContent())?.includes("delivered"));
    await logHas(fakeLog, "accepted: hello from the page", 15_000);
    const status = page.locator('#agents li.agent[data-agent="fa"] .status');
    await until("fa shown working", async () => (await status.getAttribute("data-status")) === "working");
    // Working from the message it took (held against the screen for a moment), or from its spinner.
    assert.match((await page.locator('#agents li.agent[data-agent="fa"] .detail').textContent()) ?? "", /esc to interrupt|took a typed message/);
    // While fa works, a second message waits in the queue, shown as such, and goes once fa is idle.
    await page.getByLabel("Message", { exact: true }).fill("second message");
    await page.getByRole("button", { name: "Send" }).click();
    await until("the second message shown queued", async () => (await page.locator('#message-result li[data-agent="fa"].queued').count()) === 1);
    await until("the queue listing it", async () => (await page.locator("#queue").textContent())?.includes("second message"));
    await logHas(fakeLog, "done: hello from the page", 15_000);
    await logHas(fakeLog, "accepted: second message", 15_000);
    await until("the queue empty again", async () => (await page.locator("#queue").textContent())?.includes("Nothing queued"));
    await logHas(fakeLog, "done: second message", 15_000);
    assert.ok(!logLines(fakeLog).some((l) => l.startsWith("ignored:")), logLines(fakeLog).join(" | "));
    await until("fa shown idle again", async () => (await status.getAttribute("data-status")) === "idle");
    await until("the message event in the feed", async () => (await page.locator('#events li[data-kind="message"][data-agent="fa"]').count()) > 0);
    // The events feed filters by kind.
    await page.locator("#filter-kind").selectOption("status");
    assert.equal(await page.locator('#events li[data-kind="message"]').count(), 0);
    assert.ok((await page.locator('#events li[data-kind="status"]').count()) > 0);
    await page.locator("#filter-kind").selectOption("");
    // And by agent and team.
    await page.locator("#filter-team").selectOption("alpha");
    const rows = await page.locator("#events li").evaluateAll((els) => els.map((e) => e.getAttribute("data-agent")));
    assert.ok(rows.length > 0 && rows.every((a) => a === "fa"), JSON.stringify(rows));
    await page.locator("#filter-team").selectOption("");
    await page.locator("#filter-agent").selectOption("fa");
    assert.ok((await page.locator("#events li").count()) > 0);
    assert.equal(await page.locator('#events li:not([data-agent="fa"])').count(), 0);
    await page.locator("#filter-agent").selectOption("");
  });

  test("a watcher's hit reads as a line in the feed (pattern, session, the line as printed), not as its JSON", async () => {
    await ok("hive_watch", { targets: "plain", pattern: "WATCH-[0-9]+-HIT", label: "hits" });
    // The typed line holds $((40+2)), not the number: only the printed line matches.
    await ok("terminal_run", { session: "plain", command: "printf 'WATCH-%s-HIT\\tand more\\n' $((40+2))" });
    const row = page.locator('#events li[data-kind="watch"][data-session="plain"]');
    await until("the watch event in the feed", async () => (await row.count()) > 0);
    const text = (await row.first().textContent()) ?? "";
    assert.match(text, /watch — hits \(\/WATCH-\[0-9\]\+-HIT\/\) matched in plain: WATCH-42-HIT and more$/, text);
    assert.doesNotMatch(text, /[{}"]|\\[bt]/, text);
    // Lifecycle events read as words too (the watcher's removal).
    const { watchers } = await ok("hive_watch", {});
    await ok("hive_watch", { remove: watchers.find((w: { label: string }) => w.label === "hits").id });
    const removed = page.locator('#events li[data-kind="lifecycle"]', { hasText: "watcher removed" });
    await until("the removal in the feed", async () => (await removed.count()) > 0);
    assert.doesNotMatch((await removed.first().textContent()) ?? "", /[{}"]/);
  });

  test("the safety gate's refusal is shown and nothing reaches the agent", async () => {
    await page.locator("#message-to").selectOption("agent:fa");
    await page.getByLabel("Message", { exact: true }).fill("rm -rf /");
    await page.getByRole("button", { name: "Send" }).click();
    const refused = await until("the refusal", async () => {
      const text = await page.locator("#message-result .refused").textContent().catch(() => null);
      return text ?? undefined;
    });
    assert.match(refused, /safety gate/);
    assert.ok(!logLines(fakeLog).some((l) => l.includes("rm -rf")), logLines(fakeLog).join(" | "));
  });

  test("a paste end and a Ctrl-C inside a message typed in the page reach the agent as text, never as keys", async () => {
    const status = page.locator('#agents li.agent[data-agent="fa"] .status');
    await until("fa shown idle", async () => (await status.getAttribute("data-status")) === "idle");
    await page.locator("#message-to").selectOption("agent:fa");
    // The fake agent exits on a Ctrl-C it reads as a key; a paste end would let it read one.
    await page.getByLabel("Message", { exact: true }).fill("page\x1b[201~\x03 breakout");
    await page.getByRole("button", { name: "Send" }).click();
    await until("the delivery shown", async () => (await page.locator('#message-result li[data-agent="fa"]').textContent())?.includes("delivered"));
    await logHas(fakeLog, "accepted: page\u241b[201~\u2403 breakout", 15_000);
    await logHas(fakeLog, "done: page\u241b[201~\u2403 breakout", 15_000);
    assert.ok(!logLines(fakeLog).some((l) => l.startsWith("exit:")), logLines(fakeLog).join(" | "));
  });

  test("clicking an agent shows its mailbox, and new mail shows as it arrives", async () => {
    await ok("hive_mail", { to: "fa", text: "read the spec", from: "lead" });
    await page.locator('#agents li.agent[data-agent="fa"]').click();
    await until("the mailbox", async () => (await page.locator("#mailbox").textContent())?.includes("from lead: read the spec"));
    assert.equal(await page.locator("#message-to").inputValue(), "agent:fa", "the Message box is addressed to the agent picked");
    await ok("hive_mail", { to: "fa", text: "and the tests", from: "lead" });
    await until("the new mail", async () => (await page.locator("#mailbox").textContent())?.includes("from lead: and the tests"));
    // Shown, not read: the page peeks, so the agent's own inbox still has both unread.
    assert.equal((await ok("hive_inbox", { agent: "fa", peek: true })).messages.length, 2);
  });

  test("typing reaches the pane only after Take over", async () => {
    await openSession("plain");
    const stray = join(s.home, "stray-file");
    const real = join(s.home, "taken-over-file");
    await page.locator('.term[data-name="plain"] .xterm-screen').click();
    await page.keyboard.type(`touch ${stray}`);
    await page.keyboard.press("Enter");
    await page.getByLabel("Take over").check();
    await page.locator('.term[data-name="plain"] .xterm-screen').click();
    await page.keyboard.type(`touch ${real}`);
    await page.keyboard.press("Enter");
    await until("the file the typed command creates", async () => existsSync(real));
    assert.equal(existsSync(stray), false, "keys typed while read-only reached the pane");
    await page.getByLabel("Take over").uncheck();
  });

  test("a page on another loopback port, in the signed-in browser, gets nothing and types nothing", async () => {
    // A dev server an agent started from an untrusted repo: same host, another port. Browsers
    // count both as one site, so the dashboard's cookie goes with its requests.
    const victim = join(s.home, "attacked-file");
    const attackPage = `<!doctype html><meta charset="utf-8"><title>attack</title><script>
      const r = { opened: false, frames: [], closed: null, read: null };
      window.results = r;
      const ws = new WebSocket("ws://127.0.0.1:${s.port}/live");
      ws.onopen = () => {
        r.opened = true;
        const send = (m) => ws.send(JSON.stringify(m));
        send({ t: "watch", sessions: ["plain"] });
        send({ t: "takeover", session: "plain", on: true });
        send({ t: "input", session: "plain", data: "touch ${victim}\\r" });
        send({ t: "mailbox", id: 1, agent: "fa" });
      };
      ws.onmessage = (e) => r.frames.push(String(e.data).slice(0, 300));
      ws.onclose = (e) => (r.closed = e.code);
      ws.onerror = () => {};
      fetch("http://127.0.0.1:${s.port}/", { credentials: "include" }).then((x) => x.text()).then((t) => (r.read = t), (e) => (r.read = "refused: " + e.message));
    </script>`;
    const attacker = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(attackPage));
    await new Promise<void>((r) => attacker.listen(0, "127.0.0.1", r));
    const attackPort = (attacker.address() as AddressInfo).port;
    const evil = await context.newPage();
    try {
      assert.ok((await context.cookies()).length === 1, "the user is signed in to the dashboard in this browser");
      await evil.goto(`http://127.0.0.1:${attackPort}/`);
      type Results = { opened: boolean; frames: string[]; closed: number | null; read: string | null };
      const results = () => evil.evaluate(() => (globalThis as unknown as { results: Results }).results);
      // Done when the socket is refused, or when it was let in and its mailbox request answered.
      const seen = await until("the attack page's socket to be refused or answered", async () => {
        const r = await results();
        return (r.closed !== null || r.frames.some((f) => f.includes('"reply"'))) && r.read !== null ? r : undefined;
      });
      // Whatever the pane was sent has been read by its shell once a later command finishes there.
      assert.equal((await ok("terminal_run", { session: "plain", command: "echo after-the-attack" })).output, "after-the-attack");
      assert.equal(existsSync(victim), false, "the attack page typed a command into a pane");
      assert.equal(seen.opened, false, "the live channel accepted a socket from another origin");
      assert.deepEqual(seen.frames, [], "hive data reached the attack page");
      assert.match(seen.read ?? "", /^refused/, "the attack page read the dashboard page");
      assert.match(s.stderr(), new RegExp(`refused a live-channel connection .*Origin http://127\\.0\\.0\\.1:${attackPort}`));
    } finally {
      await evil.close();
      await new Promise((r) => attacker.close(r));
    }
    // Plain HTTP from a foreign origin is refused too, even with the right bearer token.
    for (const origin of [`http://127.0.0.1:${attackPort}`, `http://localhost:${s.port + 1}`, `https://127.0.0.1:${s.port}`, "null"]) {
      const r = await fetch(s.url, {
        method: "POST",
        headers: { origin, authorization: `Bearer ${s.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
      });
      assert.equal(r.status, 403, `POST /mcp from Origin ${origin}`);
    }
  });

  test("grid mode shows the panes of a layout side by side", async () => {
    await ok("hive_layout", { layout: "horizontal", panes: [{ name: "g1" }, { name: "g2" }] });
    await until("the layout's sessions listed", async () => (await page.locator('#sessions tr[data-name="g2"]').count()) === 1);
    await openSession("g1");
    await page.getByLabel("Grid (the layout's panes)").check();
    await until("both panes in the grid", async () => (await page.locator("#terminals.grid .term").count()) === 2);
    assert.deepEqual((await page.locator("#terminals .term").evaluateAll((els) => els.map((e) => e.getAttribute("data-name")))).sort(), ["g1", "g2"]);
    await ok("terminal_run", { session: "g2", command: "echo in-g2" });
    await until("g2's output in its grid cell", async () => ((await screenText("g2"))?.split("in-g2").length ?? 0) >= 3);
    await until("g2's output in the screen-reader text", async () => ((await readerText("g2"))?.split("in-g2").length ?? 0) >= 3);
    await page.getByLabel("Grid (the layout's panes)").uncheck();
  });

  test("the live channel refuses connections without the cookie or from another origin, and malformed frames", async () => {
    const cookie = (await context.cookies())[0]!;
    const url = `ws://127.0.0.1:${s.port}/live`;
    const token = await pageToken();
    const attempt = (headers: Record<string, string>, protocols: string[] = ["termhive-live", `termhive-page.${token}`]) =>
      new Promise<number>((resolveStatus, reject) => {
        const ws = new WebSocket(url, protocols, { headers });
        ws.on("unexpected-response", (_req, res) => resolveStatus(res.statusCode ?? 0));
        ws.on("open", () => (ws.close(), reject(new Error("the connection was accepted"))));
        ws.on("error", () => {});
      });
    assert.equal(await attempt({ origin: base() }), 401);
    assert.equal(await attempt({ cookie: `${cookie.name}=forged`, origin: base() }), 401);
    const signedIn = `${cookie.name}=${cookie.value}`;
    assert.equal(await attempt({ cookie: signedIn, origin: "http://evil.example" }), 403);
    // Exactly our origin: not another port, scheme or loopback name, and not none at all.
    for (const origin of [`http://127.0.0.1:${s.port + 1}`, `https://127.0.0.1:${s.port}`, `http://localhost:${s.port}`, "null"]) {
      assert.equal(await attempt({ cookie: signedIn, origin }), 403, origin);
    }
    assert.equal(await attempt({ cookie: signedIn }), 403, "no Origin");
    // The cookie alone is not enough: the page token is needed too, and a forged one fails.
    assert.equal(await attempt({ cookie: signedIn, origin: base() }, ["termhive-live"]), 401);
    assert.equal(await attempt({ cookie: signedIn, origin: base() }, ["termhive-live", `termhive-page.${token.slice(0, -2)}xx`]), 401);
    assert.equal(await attempt({ cookie: signedIn, origin: base() }, ["termhive-live", `termhive-page.x${token}`]), 401);
    assert.match(s.stderr(), /refused a live-channel connection/);
    assert.match(s.stderr(), /no valid page token/);

    const ws = new WebSocket(url, ["termhive-live", `termhive-page.${token}`], { headers: { cookie: signedIn, origin: base() } });
    const frames: any[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(d.toString())));
    await new Promise((r, j) => (ws.once("open", r), ws.once("error", j)));
    // Typing without taking the session over is refused, and types nothing.
    ws.send(JSON.stringify({ t: "input", session: "plain", data: "touch /tmp/never\r" }));
    await until("the read-only refusal", async () => frames.some((f) => f.t === "error" && /read-only/.test(f.message)));
    const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    ws.send("{not json");
    assert.equal(await closed, 1008);
    assert.ok(frames.some((f) => f.t === "error" && /refused: not JSON/.test(f.message)), JSON.stringify(frames.filter((f) => f.t === "error")));
    await until("the refusal logged", async () => /refused a malformed live-channel frame \(not JSON\)/.test(s.stderr()));
    assert.equal(s.proc.exitCode, null, "serve is still running");
  });

  test("a page that stops reading gets a fresh picture later, and serve stays responsive meanwhile", async () => {
    const cookie = (await context.cookies())[0]!;
    await ok("terminal_open", { name: "flood", command: "bash" });
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/live`, ["termhive-live", `termhive-page.${await pageToken()}`], { headers: { cookie: `${cookie.name}=${cookie.value}`, origin: base() } });
    let received = 0;
    const frames: { t: string; data?: string }[] = [];
    ws.on("message", (d) => {
      received += (d as Buffer).length;
      const f = JSON.parse(d.toString());
      if (f.t === "screen" || f.t === "out") frames.push(f);
    });
    await new Promise((r, j) => (ws.once("open", r), ws.once("error", j)));
    ws.send(JSON.stringify({ t: "watch", sessions: ["flood"] }));
    await until("the first picture", async () => frames.some((f) => f.t === "screen"));
    // The page stops reading: nothing more is taken off its socket.
    const socket = (ws as unknown as { _socket: import("node:net").Socket })._socket;
    socket.pause();
    const flood = await ok("terminal_run", { session: "flood", command: "seq 1 1000000 | sed 's/$/ padding-to-make-lines-longer/'; echo flood-done", timeout_s: 120, max_tokens: 100 });
    assert.equal(flood.exit_code, 0);
    // serve answers while the stalled page's frames pile up nowhere.
    assert.equal((await ok("terminal_run", { session: "plain", command: "echo still-here" })).output, "still-here");
    socket.resume();
    // What the page shows now: the last picture and the output after it. The flood's last line
    // (not the echo of the typed command, which holds "echo flood-done").
    const shown = () => {
      const last = frames.map((f) => f.t).lastIndexOf("screen");
      return frames.slice(last).map((f) => f.data ?? "").join("");
    };
    await until("flood-done in what the page was sent", async () => /\nflood-done\r?\n/.test(shown()), 30_000);
    const floodBytes = 1_000_000 * 35;
    assert.ok(received < floodBytes / 2, `the page was sent ${received} bytes of a ${floodBytes}-byte flood: not coalesced`);
    assert.ok(frames.filter((f) => f.t === "screen").length >= 2, "no fresh picture after falling behind");
    ws.close();
  });

  test("serve's banner gives the dashboard's URL with the token", async () => {
    const home = newHome();
    const proc = spawn(process.execPath, [CLI, "serve", "--port", "0", "--no-grpc-tcp"], { env: testEnv(home), stdio: ["ignore", "pipe", "pipe"] });
    try {
      const lines = createInterface({ input: proc.stdout! });
      const banner: string[] = [];
      for await (const line of lines) {
        banner.push(line);
        if (line.startsWith("Ctrl-C")) break;
      }
      const token = readFileSync(join(home, "token"), "utf8").trim();
      const port = /127\.0\.0\.1:(\d+)\/mcp/.exec(banner[0]!)?.[1];
      assert.ok(banner.includes(`Dashboard: http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`), banner.join("\n"));
    } finally {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await exited;
      await destroyHome(home);
    }
  });

  test("termhive dashboard prints the running serve's URL, and starts serve when none runs", async () => {
    const reuse = spawnSync(process.execPath, [CLI, "dashboard", "--no-open"], { env: s.env, encoding: "utf8" });
    assert.equal(reuse.status, 0, reuse.stderr);
    assert.equal(reuse.stdout.trim(), `Dashboard: ${base()}/?token=${encodeURIComponent(s.token!)}`);

    const home = newHome();
    let pid: number | undefined;
    try {
      const started = spawnSync(process.execPath, [CLI, "dashboard", "--no-open", "--port", "0"], { env: testEnv(home), encoding: "utf8" });
      assert.equal(started.status, 0, started.stderr);
      pid = Number(/Started termhive serve \(pid (\d+)/.exec(started.stdout)?.[1]);
      const url = /Dashboard: (\S+)/.exec(started.stdout)?.[1];
      assert.ok(pid > 0 && url, started.stdout);
      const login = await fetch(url!, { redirect: "manual" });
      assert.equal(login.status, 302);
      assert.match(login.headers.get("set-cookie") ?? "", /HttpOnly; SameSite=Strict/);
    } finally {
      if (pid) process.kill(pid, "SIGTERM");
      // serve removes its record as it stops; the home goes once it has.
      await until("the started serve to stop", async () => {
        try {
          process.kill(pid!, 0);
          return false;
        } catch {
          return true;
        }
      });
      await destroyHome(home);
    }
  });
});
