// How long the outbox dispatcher holds SQLite's write lock per claim (issue 22's leftover): the
// claim is one BEGIN IMMEDIATE transaction, and while it runs every other termhive process on
// the same hive.db waits to write. In-process, on the node-pty backend: one agent pane showing a
// 45-line screen, a queued message its agent may not take yet (a typed turn holds it), so each
// drain runs the whole check and leaves the message queued. Medians over many drains.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog } from "../src/audit.js";
import { PtyBackend } from "../src/backends/pty/pty-backend.js";
import { loadConfig } from "../src/config.js";
import { Hive, ProfileRegistry } from "../src/hive/index.js";
import { Crew } from "../src/hive/live/crew.js";
import { buildLayout } from "../src/hive/launch/layout-builder.js";
import { OutboxDispatcher } from "../src/hive/messages/outbox-dispatcher.js";
import { loadSafetyConfig } from "../src/safety/index.js";
import { InputPolicy } from "../src/terminal/typing/input-policy.js";
import { SessionRegistry } from "../src/terminal/live/registry.js";
import { typeText } from "../src/terminal/typing/typing.js";
import { loadavg, median, percentile, round, type Emit } from "./common.js";

const DRAINS = 2000;

export async function benchOutboxClaim(emit: Emit): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "termhive-bench-claim-"));
  const backend = new PtyBackend();
  const env = { TERMHIVE_HOME: home, TERMHIVE_SHELL: "/bin/bash", HOME: home, PATH: process.env.PATH };
  const config = loadConfig(env);
  const audit = new AuditLog(home, config.auditMaxBytes);
  const registry = new SessionRegistry(backend, config, audit);
  const crew = new Crew({ registry, policy: new InputPolicy(config, audit, loadSafetyConfig(env), backend), home, ensureRoomFor: async () => undefined, openHive: () => Hive.open({ home, profiles: new ProfileRegistry() }) });
  try {
    for (const profile of ["claude", "shell"]) {
      const layout = await buildLayout(crew, { panes: [{ name: `q-${profile}`, agent: `q-${profile}`, profile }], rows: 50, cols: 200 });
      const session = registry.byId(layout.panes[0]!.session)!;
      await typeText(session, "seq 1 100000 | tail -n 45", true);
      for (const deadline = Date.now() + 10_000; !session.screen.snapshot().lines.some((l) => l.trim() === "100000"); ) {
        if (Date.now() > deadline) throw new Error("the pane never showed seq's last line");
        await new Promise((r) => setTimeout(r, 20));
      }
      const hive = crew.hive;
      const agent = `q-${profile}`;
      hive.agents.setStatus(agent, "idle", { source: "self" });
      hive.store.write(() => hive.turns.begin([agent]));
      hive.outbox.add({ sessionId: session.id, agents: [agent], text: "echo never", level: "agent", source: `agent:${agent}`, submit: true });
      const dispatcher = new OutboxDispatcher(hive, registry, crew.onAgentChanged, async () => {
        throw new Error("nothing is typed in this bench");
      }, () => undefined);
      const claim = hive.outbox.claim.bind(hive.outbox);
      const held: number[] = [];
      hive.outbox.claim = (...args: Parameters<typeof claim>) => {
        const start = performance.now();
        try {
          return claim(...args);
        } finally {
          held.push((performance.now() - start) * 1000);
        }
      };
      for (let i = 0; i < DRAINS; i++) await dispatcher.drain(session.id);
      dispatcher.dispose();
      hive.outbox.claim = claim;
      emit({
        bench: `outbox claim: write lock held per claim (${profile} profile, 45-line screen)`, unit: "µs", median: round(median(held)), p90: round(percentile(held, 90)), runs: held.length,
        still_queued: hive.outbox.list(agent).length,
        method: "wall time of Outbox.claim (one BEGIN IMMEDIATE transaction) in OutboxDispatcher.drain, the agent idle but held by a typed turn so the check runs in full and nothing is typed",
        loadavg: loadavg(),
      });
    }
  } finally {
    crew.close();
    for (const s of registry.all()) await registry.close(s).catch(() => undefined);
    await backend.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}
