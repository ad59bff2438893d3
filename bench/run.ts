// `npm run bench`: figures as JSON lines, measured through the MCP SDK client over stdio
// against the built server and a private tmux server. Medians over ≥ 30 runs where the
// issue asks for medians.
import { spawnSync } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { benchTokens } from "./tokens.js";
import { benchHive } from "./hive.js";
import { benchHiveReal } from "./hive-real.js";
import { benchRestore } from "./restore.js";
import { benchDoors } from "./doors.js";
import { benchDashboard } from "./dashboard.js";
import { benchOpen } from "./open.js";
import { benchOpenSlowRc, benchThrowaway } from "./open-slow-rc.js";
import { benchRemote } from "./remote.js";
import { benchHiveHosts } from "./hive-hosts.js";
import { benchRemoteHook } from "./remote-hook.js";
import { benchWatchRatio } from "./watch-ratio.js";
import { benchFlood, benchHostile } from "./load.js";
import { benchSoak } from "./soak.js";
import { benchBystander } from "./bystander.js";
import { benchPure } from "./pure.js";
import { benchOutboxClaim } from "./outbox-claim.js";
import { benchHivePace } from "./hive-pace.js";
import { RUNS, cliArgs, emit, median, round, rssMb, startServer, timed } from "./common.js";
import { benchPaneCli } from "./pane-cli.js";
import { benchEras } from "./eras.js";

const CPU_PROBE = join(dirname(fileURLToPath(import.meta.url)), "startup-cpu-probe.js");
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);

/** Server process CPU time (user+system) in seconds, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

async function benchStartup(): Promise<void> {
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const home = mkdtempSync(join(tmpdir(), "termhive-bench-"));
    const t0 = performance.now();
    const transport = new StdioClientTransport({ command: process.execPath, args: cliArgs("mcp"), env: { ...(process.env as Record<string, string>), TERMHIVE_HOME: home }, stderr: "ignore" });
    // The same start, with a probe noting the server's CPU time as it writes the tool list.
    const cpuFile = join(home, "cpu-ms");
    const probed = new StdioClientTransport({
      command: process.execPath, args: ["--import", CPU_PROBE, ...cliArgs("mcp")], stderr: "ignore",
      env: { ...(process.env as Record<string, string>), TERMHIVE_HOME: home, TERMHIVE_BENCH_CPU_FILE: cpuFile },
    });
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(transport);
    await client.listTools();
    samples.push(performance.now() - t0);
    await client.close();
    const probeClient = new Client({ name: "bench", version: "1" });
    await probeClient.connect(probed);
    await probeClient.listTools();
    await probeClient.close();
    cpu.push(Number(readFileSync(cpuFile, "utf8")));
    rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
  // Node's own start on this machine, for scale: the part of the figure termhive cannot cut.
  // (NODE_EXTRA_CA_CERTS, set on some machines, makes Node read a CA bundle before any script.)
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore" });
    floor.push(performance.now() - t0);
  }
  emit({
    bench: "server start to first tool list", unit: "ms", median: round(median(samples)), runs: samples.length, target: "<= 250",
    node_floor_ms: round(median(floor)), node_extra_ca_certs: process.env.NODE_EXTRA_CA_CERTS ? "set" : "unset",
    method: "spawn of the bin as npx starts it → MCP initialize → tools/list answered; node_floor_ms: spawn → exit of `node -e 0`",
  });
  emit({
    bench: "server CPU time to first tool list", unit: "ms", median: round(median(cpu)), runs: cpu.length,
    method: "user+system CPU (process.cpuUsage) of the server as it writes its first tools/list answer, noted by bench/startup-cpu-probe.ts; steadier than wall clock on a loaded machine",
  });
}

async function benchCore(): Promise<void> {
  const s = await startServer();
  try {
    await s.call("terminal_open", { name: "b", command: "bash" });
    const echo: number[] = [];
    for (let i = 0; i < RUNS + 5; i++) {
      const [ms, r] = await timed(() => s.call("terminal_run", { session: "b", command: "echo hi" }));
      if (r.output !== "hi" || r.exit_code !== 0) throw new Error(`echo hi returned ${JSON.stringify(r)}`);
      if (i >= 5) echo.push(ms); // the first runs warm up V8 and the shell's caches
    }
    emit({ bench: 'terminal_run "echo hi"', unit: "ms", median: round(median(echo)), runs: echo.length, target: "<= 5" });

    await s.call("terminal_open", { name: "py", command: "python3" });
    const py: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const [ms, r] = await timed(() => s.call("terminal_run", { session: "py", command: "1+1" }));
      if (r.output !== "2") throw new Error(`1+1 returned ${JSON.stringify(r)}`);
      if (i >= 3) py.push(ms);
    }
    emit({ bench: "python3 REPL 1+1 via terminal_run", unit: "ms", median: round(median(py)), runs: py.length, target: "<= 10" });

    const names = Array.from({ length: 10 }, (_, i) => `p${i}`);
    for (const name of names) await s.call("terminal_open", { name, command: "bash" });
    const parallel: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const [ms] = await timed(() => Promise.all(names.map((name) => s.call("terminal_run", { session: name, command: "echo x" }))));
      parallel.push(ms);
    }
    emit({ bench: "10 sessions running echo in parallel (wall)", unit: "ms", median: round(median(parallel)), runs: parallel.length, target: "<= 40" });

    // Completion latency: how long past the command's own 2 s the result arrives, one run
    // at a time in one session (the figure; parallel runs would measure contention).
    const late: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const [ms, r] = await timed(() => s.call("terminal_run", { session: "b", command: "sleep 2; echo done" }));
      if (r.output !== "done") throw new Error(`sleep returned ${JSON.stringify(r)}`);
      late.push(ms - 2000);
    }
    emit({ bench: "completion latency past sleep 2", unit: "ms", median: round(median(late)), runs: late.length, target: "<= 10" });

    // Not the memory figure (that one is benchSeq's, on a server of its own): this
    // server has run everything above in 12 sessions.
    emit({ bench: "core: shared server memory after the runs above", unit: "MB", ...rssMb(s.transport.pid!), sessions: 12, method: "VmRSS/VmHWM of the server process" });
  } finally {
    await s.stop();
  }
}

const SEQ_RUNS = 5;

/**
 * The figure: `seq 1 200000` to completion, and the server's peak resident memory
 * while doing it. A fresh server started as `npx termhive mcp` starts it, one bash
 * session, five runs, none left out; the peak is VmHWM, the highest RSS the process ever
 * had, read after the last run.
 */
async function benchSeq(): Promise<void> {
  const s = await startServer();
  try {
    await s.call("terminal_open", { name: "b", command: "bash" });
    const times: number[] = [];
    for (let i = 0; i < SEQ_RUNS; i++) {
      const [ms, r] = await timed(() => s.call("terminal_run", { session: "b", command: "seq 1 200000", timeout_s: 60 }));
      const lines = String(r.output).split("\n");
      if (r.exit_code !== 0 || lines[0] !== "1" || lines[lines.length - 1] !== "200000") throw new Error(`seq returned ${JSON.stringify(r).slice(0, 300)}`);
      times.push(ms);
    }
    const memory = rssMb(s.transport.pid!);
    emit({
      bench: "seq 1 200000 complete",
      unit: "ms",
      median: round(median(times)),
      max: round(Math.max(...times)),
      runs: times.length,
      target: "<= 600",
      peak_rss_mb: memory.peak_rss_mb,
      rss_after_mb: memory.rss_mb,
      rss_target: "<= 120",
      method: "fresh server (the package's bin, with its #! node flags), one bash session, 5 runs; peak = VmHWM of the server process over its whole life",
    });
  } finally {
    await s.stop();
  }
}

async function benchIdle(): Promise<void> {
  const s = await startServer();
  try {
    for (let i = 0; i < 20; i++) await s.call("terminal_open", { name: `idle${i}`, command: "bash" });
    const pid = s.transport.pid!;
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const used = cpuSeconds(pid) - before;
    emit({ bench: `idle server CPU with 20 sessions over ${IDLE_SECONDS} s`, unit: "s", value: round(used), target: "<= 0.2" });
  } finally {
    await s.stop();
  }
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === "startup") await benchStartup();
  if (!only || only === "startup" || only === "eras") await benchEras(emit);
  if (!only || only === "core") await benchCore();
  if (!only || only === "open") await benchOpen(emit);
  if (!only || only === "open" || only === "open-slow-rc") await benchOpenSlowRc(emit);
  if (!only || only === "throwaway") await benchThrowaway(emit);
  if (!only || only === "core" || only === "seq") await benchSeq();
  if (!only || only === "pure") benchPure(emit);
  if (!only || only === "tokens") for (const record of await benchTokens()) emit({ bench: "tokens", ...record });
  if (!only || only === "idle") await benchIdle();
  if (!only || only === "hive") await benchHive(emit);
  if (!only || only === "hive" || only === "outbox-claim") await benchOutboxClaim(emit);
  if (!only || only === "hive" || only === "hive-pace") await benchHivePace(emit);
  if (!only || only === "hive-real") await benchHiveReal(emit);
  if (!only || only === "hive-hosts") await benchHiveHosts(emit);
  if (!only || only === "restore") await benchRestore(emit);
  if (!only || only === "doors") await benchDoors(emit);
  if (!only || only === "watch-ratio") await benchWatchRatio(emit);
  if (!only || only === "dashboard") await benchDashboard(emit);
  if (!only || only === "flood") await benchFlood();
  if (!only || only === "hostile") await benchHostile();
  if (!only || only === "hostile" || only === "bystander") await benchBystander(emit);
  if (!only || only === "soak") await benchSoak();
  if (!only || only === "remote") await benchRemote(emit);
  if (!only || only === "remote" || only === "remote-hook") await benchRemoteHook(emit);
  if (!only || only === "pane-cli") benchPaneCli(emit);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
