// Load figures (issue 15 §1/§4, issue 9 §6): a flood's peak memory and the event loop under
// hostile input. JSON lines like the other sections. (The soak is in soak.ts.)
//
// Event-loop delay is measured from outside, through the protocol: the server's own
// monitorEventLoopDelay is not reachable over stdio, and a probe inside would need a knob in
// the server for the bench's sake. An MCP `ping` on the same connection is answered by the
// server's event loop alone (no tmux, no shell), so while a hostile call runs, the longest
// ping round trip bounds the longest stall the server had. A bystander session's `echo` on the
// same server, sent meanwhile, is what another client of that server would feel.
import { benchHome, emit, loadavg, median, percentile, round, rssMb, startServer, timed, type Server } from "./common.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * 500 MB of `yes` in one session, framed by a first and a last line: the result must show both,
 * and the server's peak memory (VmHWM) must stay bounded — the transcript keeps a capped window.
 */
export async function benchFlood(): Promise<void> {
  const mb = Number(process.env.BENCH_FLOOD_MB ?? 500);
  const s = await startServer();
  try {
    await s.call("terminal_open", { name: "flood", command: "bash" });
    const before = rssMb(s.transport.pid!);
    const command = `echo FIRST-LINE; yes | head -c ${mb * 1_000_000}; echo LAST-LINE`;
    // The bench helper's 120 s request limit is too short for 500 MB on a busy machine.
    const [ms, result] = await timed(() => s.client.callTool({ name: "terminal_run", arguments: { session: "flood", command, timeout_s: 3600 } }, undefined, { timeout: 3_600_000 }));
    const r = (result as { _meta?: Record<string, any> })._meta?.["termhive/result"] ?? {};
    const lines = String(r.output).split("\n");
    const memory = rssMb(s.transport.pid!);
    emit({
      bench: `flood: ${mb} MB of yes in one session`,
      unit: "MB",
      peak_rss_mb: memory.peak_rss_mb,
      rss_after_mb: memory.rss_mb,
      rss_before_mb: before.rss_mb,
      target: "<= 200",
      first_line_kept: lines[0] === "FIRST-LINE",
      last_line_kept: lines[lines.length - 1] === "LAST-LINE",
      result_tokens: r.tokens,
      duration_ms: round(ms),
      loadavg: loadavg(),
      method: "fresh server, one bash session, one terminal_run; peak = VmHWM of the server process",
    });
  } finally {
    await s.stop();
  }
}

interface Probe {
  stop(): Promise<{ ping: number[]; echo: number[]; wrong: number }>;
}

/** Pings the server and runs `echo` in a bystander session, back to back, until stopped. */
function probe(s: Server): Probe {
  let running = true;
  const ping: number[] = [];
  const echo: number[] = [];
  let wrong = 0;
  const pinger = (async () => {
    while (running) {
      const [ms] = await timed(() => s.client.ping());
      ping.push(ms);
      await sleep(5);
    }
  })();
  const echoer = (async () => {
    for (let i = 0; running; i++) {
      const [ms, r] = await timed(() => s.call("terminal_run", { session: "bystander", command: `echo by${i}` }));
      if (r.output !== `by${i}`) wrong++;
      echo.push(ms);
      await sleep(10);
    }
  })();
  return {
    async stop() {
      running = false;
      await Promise.all([pinger, echoer]);
      return { ping, echo, wrong };
    },
  };
}

interface HostileCase {
  name: string;
  /** Set-up not measured (a watcher added, cat started). */
  setup?: (s: Server) => Promise<void>;
  run: (s: Server) => Promise<unknown>;
  teardown?: (s: Server) => Promise<void>;
}

const py = (code: string) => `python3 -c ${JSON.stringify(code)}`;

let watcherId: number | undefined;

const CASES: HostileCase[] = [
  {
    name: "hive_watch (a+)+$ /i over 200 lines it cannot match",
    setup: async (s) => {
      const w = await s.call("hive_watch", { targets: "victim", pattern: "(a+)+$", flags: "i", label: "evil" });
      watcherId = w.added?.id;
    },
    run: (s) => s.call("terminal_run", { session: "victim", command: py("for i in range(200): print('a'*40 + chr(33))") }),
    teardown: async (s) => void (watcherId !== undefined && (await s.call("hive_watch", { remove: watcherId }))),
  },
  {
    // (a+)+b$ never matches the a's nor the typed command line, so the whole 2 s is scanning.
    name: "terminal_wait (?i)(a+)+b$ over 5000 a's then !",
    setup: async (s) => void (await s.call("terminal_send", { session: "victim", text: py("print('a'*5000 + chr(33))"), enter: true })),
    run: (s) => s.call("terminal_wait", { session: "victim", pattern: "(?i)(a+)+b$", timeout_s: 2 }),
  },
  {
    // Linear but costly (~1.3 s of re2js): run off the event loop (util/regex-worker.ts).
    name: "terminal_wait (.*a){20}b over a 100 KB line",
    setup: async (s) => void (await s.call("terminal_send", { session: "victim", text: py("print('a'*100000 + 'b')"), enter: true })),
    run: (s) => s.call("terminal_wait", { session: "victim", pattern: "(.*a){20}b", timeout_s: 30 }),
  },
  { name: "terminal_read filter (.*a){20}b over a 100 KB line", run: (s) => s.call("terminal_read", { session: "victim", mode: "all", filter: "(.*a){20}b" }) },
  { name: "one 100 KB word", run: (s) => s.call("terminal_run", { session: "victim", command: py("print('x'*100000)") }) },
  {
    name: "1 MB typed into cat",
    setup: async (s) => {
      await s.call("terminal_run", { session: "victim", command: "clear" });
      await s.call("terminal_send", { session: "victim", text: "cat", enter: true });
    },
    run: (s) => s.call("terminal_send", { session: "victim", text: "q".repeat(1_000_000), enter: false }),
    teardown: async (s) => {
      await s.call("terminal_send", { session: "victim", keys: ["C-c"] });
      await s.call("terminal_wait", { session: "victim", for: "completion", timeout_s: 120 });
      await s.call("terminal_run", { session: "victim", command: "clear" });
    },
  },
  { name: "1 MB: one long word", run: (s) => s.call("terminal_run", { session: "victim", command: py("print('x'*1000000)") }) },
  { name: "1 MB: ten 100 KB lines", run: (s) => s.call("terminal_run", { session: "victim", command: py("for i in range(10): print('ab '*33333)") }) },
  { name: "1 MB: 200k short lines", run: (s) => s.call("terminal_run", { session: "victim", command: "yes abcd | head -n 200000" }) },
  // Last: random bytes leave the terminal in any state (charsets, modes, an alternate screen).
  { name: "1 MB: random bytes", run: (s) => s.call("terminal_run", { session: "victim", command: "head -c 1000000 /dev/urandom; echo" }) },
];

/**
 * Each hostile input in turn on one server, while the same server is pinged and a bystander
 * session runs echo. Targets (issue 9 §6): ≤ 50 ms of event loop per shape, echo ≤ 20 ms.
 */
export async function benchHostile(): Promise<void> {
  const s = await startServer();
  try {
    await s.call("terminal_open", { name: "victim", command: "bash" });
    await s.call("terminal_open", { name: "bystander", command: "bash" });
    // Quiet baseline: what a ping and an echo cost with nothing else going on.
    const quiet = probe(s);
    await sleep(2000);
    const base = await quiet.stop();
    emit({ bench: "hostile: quiet baseline", unit: "ms", ping_median: round(median(base.ping)), echo_median: round(median(base.echo)), loadavg: loadavg() });
    for (const c of CASES) {
      await c.setup?.(s);
      const p = probe(s);
      await sleep(50);
      const [ms, result] = await timed(() => c.run(s).catch((error: Error) => ({ error: error.message })));
      const seen = await p.stop();
      await c.teardown?.(s);
      emit({
        bench: `hostile: ${c.name}`,
        unit: "ms",
        call_ms: round(ms),
        event_loop_max_ms: round(Math.max(...seen.ping)),
        ping_median_ms: round(median(seen.ping)),
        ping_p99_ms: round(percentile(seen.ping, 99)),
        echo_max_ms: round(Math.max(...seen.echo)),
        echo_median_ms: round(median(seen.echo)),
        echoes: seen.echo.length,
        echo_wrong: seen.wrong,
        target: "event loop <= 50, echo <= 20",
        ...describe(result),
        method: "max round trip of MCP ping on the same connection (event loop only) while the call ran; echo = terminal_run in another session of the same server",
      });
    }
  } finally {
    await s.stop();
  }
}

/** What the hostile call itself returned, to tell a measured run from one that did not happen. */
function describe(result: unknown): Record<string, unknown> {
  const r = result as { error?: string; exit_code?: number; reason?: string; raw_tokens?: number; sent_bytes?: number; matched?: boolean };
  if (r.error) return { error: r.error };
  return { result: { exit_code: r.exit_code, reason: r.reason, raw_tokens: r.raw_tokens, sent_bytes: r.sent_bytes, matched: r.matched } };
}
