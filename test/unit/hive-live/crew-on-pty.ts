// A crew (src/hive/live) on the node-pty backend for unit tests: real bash panes, a real
// hive.db in a temp TERMHIVE_HOME, no tmux. Everything goes when the test ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog } from "../../../src/audit.js";
import { PtyBackend } from "../../../src/backends/pty/pty-backend.js";
import { loadConfig } from "../../../src/config.js";
import { Hive, ProfileRegistry } from "../../../src/hive/index.js";
import { Crew } from "../../../src/hive/live/crew.js";
import { loadSafetyConfig } from "../../../src/safety/index.js";
import { InputPolicy } from "../../../src/terminal/typing/input-policy.js";
import { SessionRegistry } from "../../../src/terminal/live/registry.js";

export function crewOnPty(t: { after(fn: () => unknown): void }): { crew: Crew; audit: string; home: string } {
  const home = mkdtempSync(join(tmpdir(), "termhive-crew-"));
  const backend = new PtyBackend();
  const env = { TERMHIVE_HOME: home, TERMHIVE_SHELL: "/bin/bash", HOME: home, PATH: process.env.PATH };
  const config = loadConfig(env);
  const audit = new AuditLog(home, config.auditMaxBytes);
  const registry = new SessionRegistry(backend, config, audit);
  const crew = new Crew({
    registry,
    policy: new InputPolicy(config, audit, loadSafetyConfig(env), backend),
    home,
    ensureRoomFor: async () => undefined,
    openHive: () => Hive.open({ home, profiles: new ProfileRegistry() }),
  });
  t.after(async () => {
    crew.close();
    for (const session of registry.all()) await registry.close(session).catch(() => undefined);
    await backend.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  });
  return { crew, audit: join(home, "audit.jsonl"), home };
}
