// Issue 12's bench: the web dashboard of `termhive serve` in Debian's chromium (playwright-core).
// Latency from output in tmux to its text in the page (median), serve's CPU with 16 live panes
// in grid mode (% of one core), and the first page load (login redirect to first hive picture).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { chromium, type Browser, type Page } from "playwright-core";
import { RUNS, benchHome, cliArgs, loadavg, median, percentile, round, rssMb, wallMs, type Emit } from "./common.js";

const CHROMIUM = process.env.TERMHIVE_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const LOADS = 10;
const CPU_PANES = 16;
const CPU_SECONDS = Number(process.env.BENCH_DASHBOARD_CPU_SECONDS ?? 20);

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function pollPage<T>(page: Page, script: string, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = (await page.evaluate(script)) as T | null;
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`bench dashboard: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Records in the page when each marker `L<i>-<ns>` first shows in a terminal's DOM text: a
 * MutationObserver on xterm's rendered rows (its screen-reader text lags up to 1 s by design), the time taken as wall-clock ms like date's.
 */
const OBSERVE = `(() => {
  window.__seen = {};
  const scan = () => {
    const now = performance.timeOrigin + performance.now();
    for (const tree of document.querySelectorAll(".xterm-rows")) {
      for (const m of tree.textContent.matchAll(/L(\\d+)-(\\d{19})/g)) if (!(m[1] in window.__seen)) window.__seen[m[1]] = { at: now, printed: Number(m[2].slice(0, 16)) / 1e3 };
    }
  };
  new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

export async function benchDashboard(emit: Emit): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    emit({ bench: "dashboard", skipped: `chromium is not installed (${CHROMIUM})` });
    return;
  }
  const h = benchHome();
  const proc = spawn(process.execPath, cliArgs("serve", "--port", "0", "--no-grpc-tcp", "--json"), { env: h.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  let browser: Browser | undefined;
  let client: Client | undefined;
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: proc.stdout! }).once("line", resolve);
      proc.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const info = JSON.parse(line) as { url: string; port: number; token_path: string };
    const token = readFileSync(info.token_path, "utf8").trim();
    const base = `http://127.0.0.1:${info.port}`;
    client = new Client({ name: "bench-dashboard", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client!.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as { structuredContent?: Record<string, any>; _meta?: Record<string, any>; isError?: boolean; content: { text: string }[] };
      if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      return (r._meta?.["termhive/result"] ?? r.structuredContent ?? {});
    };
    await call("terminal_open", { name: "lat", command: "bash" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

    // First page load: a fresh browser context each time (no cache, no cookie).
    const loads: number[] = [];
    for (let i = 0; i < LOADS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${base}/?token=${token}`);
      await pollPage(page, `document.querySelector('#sessions tr[data-name="lat"]') !== null`, "the first hive picture");
      if (i > 0) loads.push(performance.now() - t0); // the first also warms serve's JIT and chromium
      await context.close();
    }
    emit({ bench: "dashboard: first page load", unit: "ms", median: round(median(loads)), max: round(Math.max(...loads)), runs: loads.length, target: "< 1000", method: "fresh browser context: GET /?token= → redirect → page, xterm.js bundle, WebSocket, first hive snapshot rendered (session listed)", loadavg: loadavg() });

    // Latency: output printed in the pane (date's timestamp, taken just before echo prints) to its text in the page's DOM.
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${base}/?token=${token}`);
    await pollPage(page, `document.querySelector('#sessions tr[data-name="lat"]') !== null`, "the session list");
    await page.locator('#sessions tr[data-name="lat"]').click();
    await pollPage(page, `document.querySelector('.term[data-name="lat"][data-drawn]') !== null`, "the terminal drawn");
    await page.evaluate(OBSERVE);
    const latency: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      await call("terminal_send", { session: "lat", text: `echo L${i}-$(date +%s%N)` });
      const seen = await pollPage<{ at: number; printed: number }>(page, `window.__seen[${i}] ?? null`, `marker ${i}`);
      if (i >= 3) latency.push(seen.at - seen.printed);
    }
    emit({ bench: "dashboard: output in tmux to text in the page", unit: "ms", median: round(median(latency)), p90: round(percentile(latency, 90)), runs: latency.length, target: "<= 100", method: "echo L<i>-$(date +%s%N) typed over MCP; page MutationObserver on xterm's rendered rows (.xterm-rows), wall clock vs date's", loadavg: loadavg() });

    // CPU: 16 panes of a tiled layout, each printing a line every 100 ms, all shown in grid mode.
    const layout = await call("hive_layout", { layout: "tiled", count: CPU_PANES });
    const names = (layout.panes as { name: string }[]).map((p) => p.name);
    for (const name of names) await call("terminal_send", { session: name, text: "while :; do date +%T.%N; sleep 0.1; done" });
    await pollPage(page, `document.querySelector('#sessions tr[data-name="${names[0]}"]') !== null`, "the layout listed");
    await page.locator(`#sessions tr[data-name="${names[0]}"]`).click();
    await page.getByLabel("Grid (the layout's panes)").check();
    await pollPage(page, `document.querySelectorAll("#terminals .term[data-drawn]").length === ${CPU_PANES}`, "16 terminals in the grid");
    await new Promise((r) => setTimeout(r, 2000));
    const c0 = cpuSeconds(proc.pid!);
    const t0 = wallMs();
    await new Promise((r) => setTimeout(r, CPU_SECONDS * 1000));
    const withPage = ((cpuSeconds(proc.pid!) - c0) / ((wallMs() - t0) / 1000)) * 100;
    await context.close();
    await new Promise((r) => setTimeout(r, 1000));
    const c1 = cpuSeconds(proc.pid!);
    const t1 = wallMs();
    await new Promise((r) => setTimeout(r, CPU_SECONDS * 1000));
    const withoutPage = ((cpuSeconds(proc.pid!) - c1) / ((wallMs() - t1) / 1000)) * 100;
    emit({
      bench: `dashboard: serve CPU with ${CPU_PANES} live panes in grid mode`, unit: "% of one core", value: round(withPage), target: "< 50",
      without_page: round(withoutPage), seconds: CPU_SECONDS, server_rss: rssMb(proc.pid!), loadavg: loadavg(),
      method: `${CPU_PANES} panes each printing a line every 100 ms; /proc/<serve pid>/stat user+system over the window; without_page: same panes, no page open`,
    });
  } finally {
    await browser?.close().catch(() => {});
    await client?.close().catch(() => {});
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await exited;
    }
    h.destroy();
  }
}
