// Issue 4's bench: the hive through the MCP door (stdio), real tmux, a private TERMHIVE_HOME.
//   cascade (hive_message) to 32 agents in 4 teams ≤ 100 ms; hive_read of 32 sessions ≤ 100 ms;
//   a status change seen by hive_wait ≤ 100 ms after the screen changes; 64 sessions: RSS ≤ 200 MB.
import { rmSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DIALOG_SETTLE_MS } from "../src/hive/rules/precedence.js";
import { RUNS, benchHome, loadavg, median, percentile, round, rssMb, startServer, timed, wallMs, type Emit } from "./common.js";

const AGENTS = 32;
const TEAMS = 4;

// A fake agent with Claude Code's chrome: an idle "> " input line; while the signal file
// exists it shows the numbered permission dialog (waiting_for_input in the claude profile).
// It writes the wall-clock time (performance.timeOrigin + now, ms) of each screen change to
// <signal>.t right after handing the bytes to the pty.
// A Claude-like screen: its permission dialog takes the input box's place, as Claude Code draws it.
const FAKE_AGENT = String.raw`const fs = require("node:fs");
const sig = process.argv[2];
const out = (s) => process.stdout.write(s);
let shown = null;
const render = (asking) => {
  out("\x1b[2J\x1b[H" + "fake agent\r\n" + (asking ? "Do you want to proceed?\r\n❯ 1. Yes\r\n  2. No\r\n" : "  ? for shortcuts\r\n> "));
  const t = performance.timeOrigin + performance.now();
  if (asking) fs.writeFileSync(sig + ".t", String(t));
  shown = asking;
};
render(false);
setInterval(() => { const asking = fs.existsSync(sig); if (asking !== shown) render(asking); }, 2);
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchHive(emit: Emit): Promise<void> {
  const h = benchHome();
  const s = await startServer(h);
  try {
    const pid = s.transport.pid!;
    // 32 plain bash panes in one tiled window, 8 agents in each of 4 teams.
    const panes = Array.from({ length: AGENTS }, (_, i) => ({ name: `a${i}`, agent: `a${i}`, team: `t${i % TEAMS}`, command: "bash", profile: "shell" }));
    const [layoutMs, layout] = await timed(() => s.call("hive_layout", { layout: "tiled", panes, rows: 200, cols: 480 }));
    const notReady = (layout.panes as { ready: string }[]).filter((p) => p.ready !== "ready").length;
    emit({ bench: "hive_layout tiled, 32 bash agents in 4 teams (one call)", unit: "ms", value: round(layoutMs), not_ready: notReady, loadavg: loadavg() });

    // Cascade: each team its own text, one agent per team its own, everything else broadcast.
    const cascade: number[] = [];
    const delivered: number[] = [];
    let lastMarkers: Record<string, string> = {};
    for (let i = 0; i < RUNS + 3; i++) {
      const teams = Object.fromEntries(Array.from({ length: TEAMS }, (_, t) => [`t${t}`, `echo CASC-${i}-t${t}`]));
      const agents = Object.fromEntries(Array.from({ length: TEAMS }, (_, t) => [`a${t}`, `echo CASC-${i}-a${t}`]));
      const [ms, r] = await timed(() => s.call("hive_message", { teams, agents }));
      if (i >= 3) {
        cascade.push(ms);
        delivered.push(r.delivered as number);
      }
      lastMarkers = Object.fromEntries(Array.from({ length: AGENTS }, (_, a) => [`a${a}`, a < TEAMS ? `CASC-${i}-a${a}` : `CASC-${i}-t${a % TEAMS}`]));
      // Let the shells run the echo so the next run types into an idle prompt.
      await sleep(30);
    }
    // Every pane must have printed its own text of the last run (a line of its own, not the typed command).
    const missing: string[] = [];
    for (const [agent, marker] of Object.entries(lastMarkers)) {
      const w = await s.call("terminal_wait", { session: agent, pattern: `^${marker}$`, timeout_s: 5 });
      if (!w.matched) missing.push(agent);
    }
    emit({
      bench: "hive_message cascade to 32 agents in 4 teams", unit: "ms", median: round(median(cascade)), p90: round(percentile(cascade, 90)), runs: cascade.length, target: "<= 100",
      delivered_min: Math.min(...delivered), delivered_max: Math.max(...delivered), panes_missing_text: missing,
      method: "wall time of one hive_message call (MCP stdio round trip) with 4 team texts + 4 agent texts = 32 deliveries; 3 warm-up runs; each pane's own last marker then verified as an output line",
      loadavg: loadavg(),
    });

    // Parallel read of the 32 sessions' screens.
    const read: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const [ms, r] = await timed(() => s.call("hive_read", { targets: "all", mode: "screen" }));
      const ok = (r.results as { ok: boolean }[]).filter((x) => x.ok).length;
      if (ok !== AGENTS) throw new Error(`hive_read: ${ok}/${AGENTS} ok`);
      if (i >= 3) read.push(ms);
    }
    emit({ bench: "hive_read of 32 sessions (screen)", unit: "ms", median: round(median(read)), p90: round(percentile(read, 90)), runs: read.length, target: "<= 100", method: "wall time of one hive_read {targets: all, mode: screen} call, all 32 results ok; 3 warm-up runs", loadavg: loadavg() });

    // Status change → hive_wait.
    const script = join(h.home, "fake-agent.cjs");
    const sig = join(h.home, "signal");
    writeFileSync(script, FAKE_AGENT);
    await s.call("agent_spawn", { name: "bot", command: `${process.execPath} ${script} ${sig}`, profile: "claude", ready_timeout_s: 10 });
    const seen: number[] = [];
    const callRtt: number[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      rmSync(sig, { force: true });
      const idle = await s.call("hive_wait", { targets: "bot", for: "idle", timeout_s: 10 });
      if (!idle.matched) throw new Error(`bot not idle: ${JSON.stringify(idle)}`);
      rmSync(`${sig}.t`, { force: true });
      const waiting = s.call("hive_wait", { targets: "bot", for: "waiting_for_input", timeout_s: 10 });
      await sleep(20); // the wait is in the server's hands before the screen changes
      writeFileSync(sig, "");
      const w = await waiting;
      const returned = wallMs();
      if (!w.matched) throw new Error(`hive_wait missed the permission prompt: ${JSON.stringify(w)}`);
      const written = Number(readFileSync(`${sig}.t`, "utf8"));
      // The round trip of an answer-only call, to show how much of the figure is the MCP door.
      const [rtt] = await timed(() => s.call("hive_wait", { targets: "bot", for: "waiting_for_input", timeout_s: 1 }));
      if (i >= 2) {
        seen.push(returned - written);
        callRtt.push(rtt);
      }
    }
    emit({
      bench: "status change seen by hive_wait", unit: "ms", median: round(median(seen)), p90: round(percentile(seen, 90)), runs: seen.length,
      // A drawn question is announced only once it has stood still for DIALOG_SETTLE_MS (a key
      // sent on hearing "waiting" must be taken), so the figure's own part is what lies past it.
      target: `<= ${DIALOG_SETTLE_MS + 100} (the ${DIALOG_SETTLE_MS} ms settle + 100)`, past_settle_ms: round(median(seen) - DIALOG_SETTLE_MS),
      already_met_call_rtt_ms: round(median(callRtt)),
      method: "fake agent (claude profile) draws a permission dialog when a signal file appears and records performance.timeOrigin+now() right after writing it; figure = time the pending hive_wait {for: waiting_for_input} result reached the client minus that timestamp (same clock); 2 warm-up runs. already_met_call_rtt_ms: a hive_wait whose condition already holds (the door's own cost)",
      loadavg: loadavg(),
    });

    // 64 open sessions: the 32 agents, the bot and 31 more bash sessions.
    for (let i = 0; i < 31; i++) await s.call("terminal_open", { name: `x${i}`, command: "bash" });
    const count = ((await s.call("terminal_list", {})).sessions as unknown[]).length;
    await s.call("hive_read", { targets: "all", mode: "screen" });
    emit({ bench: "server RSS with 64 open sessions", unit: "MB", value: rssMb(pid).rss_mb, ...rssMb(pid), sessions: count, target: "<= 200", method: "VmRSS/VmHWM of the server process (/proc/<pid>/status) after 32 tiled agents + 1 fake agent + 31 bash sessions, the cascade/read/wait runs and one hive_read of all", loadavg: loadavg() });
  } finally {
    await s.stop();
    h.destroy();
  }
}
