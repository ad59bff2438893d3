// Reading what the fake agent TUI (test/fixtures/fake-agent.mjs) actually accepted: its log,
// one line per event (ready / accepted: / ignored: / done:), appended and flushed as it goes.
import { existsSync, readFileSync } from "node:fs";

export function logLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l !== "") : [];
}

/** Resolves once the fake's log has a line equal to `line`; fails naming what it has. */
export async function logHas(file: string, line: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!logLines(file).includes(line)) {
    if (Date.now() > deadline) throw new Error(`${file} never got ${JSON.stringify(line)}; it has: ${logLines(file).join(" | ")}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A hive event as hive_events returns it. */
export type HiveEvent = { id: number; at: number; kind: string; agent: string; data: Record<string, any> };
