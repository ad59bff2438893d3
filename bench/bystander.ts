// One client's output stalls another client's echo (issue 30 §8): two server processes on one
// home, as two MCP clients (two editors, an agent and its lead) each start their own. Every
// process follows every pane of the home's tmux server, so the output of one client's session
// is also work for the other process: what that costs is what the other client's `echo` waits.
import { benchHome, cliArgs, emit, loadavg, median, round, timed, type Emit } from "./common.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROUNDS = Number(process.env.BENCH_BYSTANDER_ROUNDS ?? 10);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Proc {
  client: Client;
  pid: number;
  call(name: string, args: Record<string, unknown>): Promise<Record<string, any>>;
}

async function start(env: Record<string, string>): Promise<Proc> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(process.env.BENCH_SERVE_NODE_ARGS ?? "").split(" ").filter(Boolean), ...cliArgs("mcp")], env, stderr: "ignore" });
  const client = new Client({ name: "termhive-bench", version: "1" });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    async call(name, args) {
      const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as { _meta?: Record<string, any>; isError?: boolean; content: { text: string }[] };
      if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      return r._meta?.["termhive/result"] ?? {};
    },
  };
}

/** The bystander's echoes, back to back, while `work` runs; the longest is what a client felt. */
async function during(by: Proc, work: () => Promise<unknown>): Promise<number[]> {
  let running = true;
  const echo: number[] = [];
  const echoer = (async () => {
    for (let i = 0; running; i++) {
      const [ms, r] = await timed(() => by.call("terminal_run", { session: "bystander", command: `echo by${i}` }));
      if (r.output !== `by${i}`) throw new Error(`bystander echo read ${JSON.stringify(r.output)}`);
      echo.push(ms);
    }
  })();
  await sleep(30);
  await work();
  running = false;
  await echoer;
  return echo;
}

export async function benchBystander(out: Emit = emit): Promise<void> {
  const home = benchHome();
  const a = await start(home.env);
  // BENCH_BYSTANDER_SAME=1: the bystander's session in the same process instead.
  const b = process.env.BENCH_BYSTANDER_SAME ? a : await start(home.env);
  try {
    await a.call("terminal_open", { name: "victim", command: "bash" });
    await b.call("terminal_open", { name: "bystander", command: "bash" });
    const word = process.env.BENCH_BYSTANDER_RANDOM
      ? `python3 -c "import random,string; random.seed(1); print(''.join(random.choice(string.ascii_letters) for _ in range(120000)))"`
      : `python3 -c "print('x'*120000)"`;
    const cases: { name: string; setup?: () => Promise<void>; teardown?: () => Promise<void> }[] = [
      { name: "one 120 KB word in another process's session" },
      {
        name: "the same with a hive_watch (a+)+$ /i on all output",
        setup: async () => void (await a.call("hive_watch", { targets: "all", pattern: "(a+)+$", flags: "i", label: "evil" })),
      },
    ];
    for (const c of cases) {
      await c.setup?.();
      const max: number[] = [];
      const all: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const echo = await during(b, () => a.call("terminal_run", { session: "victim", command: word }));
        max.push(Math.max(...echo));
        all.push(...echo);
        await a.call("terminal_run", { session: "victim", command: "clear" });
      }
      out({
        bench: `bystander: ${c.name}`,
        unit: "ms",
        echo_max_median: round(median(max)),
        echo_max_max: round(Math.max(...max)),
        echo_median: round(median(all)),
        rounds: ROUNDS,
        target: "echo max <= 200 (word), <= 250 (watcher)",
        loadavg: loadavg(),
        method: "two `termhive mcp` processes on one home; the max of the bystander's back-to-back echoes per round, median over rounds",
      });
    }
  } finally {
    await a.client.close().catch(() => {});
    await b.client.close().catch(() => {});
    home.destroy();
  }
}
