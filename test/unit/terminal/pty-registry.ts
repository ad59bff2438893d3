// A session registry on the node-pty backend (real programs in real ptys, no tmux server
// shared with other tests), in a throwaway home removed when the test ends.
import assert from "node:assert/strict";
import { AuditLog } from "../../../src/audit.js";
import { PtyBackend } from "../../../src/backends/pty/pty-backend.js";
import { loadConfig } from "../../../src/config.js";
import { SessionRegistry } from "../../../src/terminal/live/registry.js";
import { removeTempFolder, tempFolder } from "../../temp-folder.js";

/** `backend`: a PtyBackend (or a subclass a test holds some calls of) the registry runs on. */
export function ptyRegistry(t: { after(fn: () => unknown): void }, backend: PtyBackend = new PtyBackend()): SessionRegistry {
  const home = tempFolder("termhive-unit-");
  const config = loadConfig({ TERMHIVE_HOME: home, TERMHIVE_SHELL: "/bin/bash", HOME: home, PATH: process.env.PATH });
  const registry = new SessionRegistry(backend, config, new AuditLog(home, config.auditMaxBytes));
  t.after(async () => {
    for (const session of registry.all()) await registry.close(session).catch(() => {});
    await backend.stop().catch(() => {});
    removeTempFolder(home);
  });
  return registry;
}

/** Polls `condition` until it holds, or fails naming `what` once the deadline has passed. */
export async function until(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
