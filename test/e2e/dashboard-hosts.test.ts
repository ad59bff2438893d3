// Issue 35 §4: the dashboard says where each agent runs, in a real browser (Debian's chromium
// through playwright-core) against the built `termhive serve`, with one agent on this machine
// and one on an ssh host (a real OpenSSH server on loopback with a HOME of its own, its
// sessions under bubblewrap with the checkout hidden: test/fixtures/sshd).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium, type Browser, type Page } from "playwright-core";
import { serve, type Served } from "./serve-process.js";
import { sshdAvailable, startLoopbackHost, type LoopbackHost } from "../fixtures/sshd/sshd.js";
import { until } from "../until.js";

const CHROMIUM = process.env.TERMHIVE_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const skip = !existsSync(CHROMIUM) ? `chromium is not installed (${CHROMIUM})` : !sshdAvailable() ? "sshd (openssh-server) is not installed: apt-get install -y openssh-server" : false;

type Result = { content: { text: string }[]; _meta?: Record<string, any>; structuredContent?: Record<string, any>; isError?: boolean };

describe("dashboard: where each agent runs", { skip }, () => {
  let host: LoopbackHost;
  let s: Served;
  let client: Client;
  let browser: Browser;
  let page: Page;

  const ok = async (name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> => {
    const r = (await client.callTool({ name, arguments: args })) as Result;
    if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join("\n")}`);
    return r._meta?.["termhive/result"] ?? r.structuredContent ?? {};
  };
  const row = (agent: string) => page.locator(`#agents li.agent[data-agent="${agent}"]`);

  before(async () => {
    host = await startLoopbackHost();
    s = await serve([], undefined, { TERMHIVE_SSH: host.sshCommand });
    client = new Client({ name: "dashboard-hosts-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    await ok("agent_spawn", { name: "away", team: "crew", profile: "shell", command: "bash", host: host.alias });
    await ok("agent_spawn", { name: "home", team: "crew", profile: "shell", command: "bash" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await client?.close().catch(() => {});
    await s?.stop();
    await host?.stop();
  });

  test("the agent on the host is shown with its host, the local one without; a dropped host's agent stays, with its host", async () => {
    await page.goto(`http://127.0.0.1:${s.port}/?token=${encodeURIComponent(s.token!)}`);
    await until("both agents on the page", async () => ((await row("away").count()) === 1 && (await row("home").count()) === 1 ? true : undefined), 20_000, 50);
    assert.equal(await row("away").locator(".host").textContent(), ` on ${host.alias}`);
    assert.equal(await row("home").locator(".host").count(), 0, (await row("home").textContent()) ?? "");
    // The page agrees with agent_list.
    const listed = new Map<string, any>((await ok("agent_list")).agents.map((a: { name: string }) => [a.name, a]));
    assert.equal(listed.get("away")?.host, host.alias);
    assert.equal(listed.get("home")?.host, undefined);

    await host.drop();
    await until("away out of reach", async () => ((await ok("agent_list")).agents.find((a: { name: string }) => a.name === "away")?.alive === false ? true : undefined), 30_000, 100);
    // The page's next snapshot (its status may move; the row and its host stay, never exited).
    await until("the page's snapshot after the drop", async () => ((await row("away").locator(".status").getAttribute("data-status")) !== null ? true : undefined), 10_000, 50);
    assert.equal(await row("away").locator(".host").textContent(), ` on ${host.alias}`);
    assert.notEqual(await row("away").locator(".status").getAttribute("data-status"), "exited");
    await host.back();
  });
});
