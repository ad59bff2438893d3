// The texts an agent program said it took: its UserPromptSubmit hook reports each prompt
// (Claude Code and Codex pass the exact text), and a message termhive typed counts as
// delivered once its text is among them (live/crew.ts, terminal/typing/delivery.ts). Only a digest is
// kept, for a few minutes: enough to match a typed text, nothing to read a conversation from.
import { createHash } from "node:crypto";
import type { HiveStore } from "./store.js";

/** Reports older than this are pruned: a delivery waits seconds for its report, never minutes. */
const KEEP_MS = 10 * 60_000;

/** The same text whatever line ends the program or the paste used, without the blank edges a TUI trims. */
export function promptDigest(text: string): string {
  return createHash("sha256").update(text.replace(/\r\n?/g, "\n").trim()).digest("hex");
}

export class PromptReports {
  constructor(private readonly store: HiveStore) {}

  /** The agent's program took a prompt with this digest now. */
  record(agent: string, digest: string): void {
    const now = Date.now();
    this.store.write(() => {
      this.store.db.prepare("DELETE FROM hook_prompts WHERE at < ?").run(now - KEEP_MS);
      this.store.db.prepare("INSERT INTO hook_prompts (agent, digest, at) VALUES (?, ?, ?)").run(agent, digest, now);
    });
  }

  /** Whether one of `agents` reported taking `text` at `since` or later. */
  reportedSince(agents: readonly string[], text: string, since: number): boolean {
    if (agents.length === 0) return false;
    const digest = promptDigest(text);
    const marks = agents.map(() => "?").join(",");
    return this.store.read(() =>
      this.store.db.prepare(`SELECT 1 FROM hook_prompts WHERE agent IN (${marks}) AND digest = ? AND at >= ? LIMIT 1`).get(...agents, digest, since) !== undefined,
    );
  }
}
