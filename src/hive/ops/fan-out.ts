// hive_send and hive_read: one text typed, or one read made, into every target's pane at once;
// each target answers for itself (one failing pane is its own error, not the call's).
import { checkMessageSize, type ResolvedTarget, type TargetSpec } from "../index.js";
import type { Crew } from "../live/crew.js";
import type { TerminalCall, TerminalPort } from "./terminal-port.js";

export interface PerTarget<T> {
  session: string;
  name: string;
  agents: string[];
  ok: boolean;
  result?: T;
  error?: string;
}

async function fanOut<T>(targets: ResolvedTarget[], work: (t: ResolvedTarget) => Promise<T>): Promise<PerTarget<T>[]> {
  return Promise.all(targets.map(async (t) => {
    const base = { session: t.sessionId, name: t.sessionName, agents: t.agents };
    try {
      return { ...base, ok: true, result: await work(t) };
    } catch (error) {
      return { ...base, ok: false, error: (error as Error).message };
    }
  }));
}

export interface HiveSendInput {
  targets: TargetSpec;
  text: string;
  enter?: boolean;
  skip_duplicates?: boolean;
  confirm?: boolean;
}

/** `lastSent`: the text last typed per session, for skip_duplicates (kept by the caller across calls). */
export async function sendToTargets(crew: Pick<Crew, "resolve">, terminal: Pick<TerminalPort, "send">, lastSent: Map<string, string>, input: HiveSendInput, ctx: TerminalCall) {
  checkMessageSize(input.text, "text");
  const { targets, unavailable } = await crew.resolve(input.targets);
  const results = await fanOut(targets, async (t) => {
    if (input.skip_duplicates && lastSent.get(t.sessionId) === input.text) return { skipped: "duplicate" as const, sent_bytes: 0 };
    const r = await terminal.send({ session: t.sessionId, text: input.text, enter: input.enter ?? true, confirm: input.confirm }, ctx);
    lastSent.set(t.sessionId, input.text);
    return r;
  });
  return { results, unavailable, sent: results.filter((r) => r.ok && !(r.result as { skipped?: string }).skipped).length, failed: results.filter((r) => !r.ok).length };
}

export interface HiveReadInput {
  targets: TargetSpec;
  filter?: string;
  lines?: number;
  mode?: "auto" | "new" | "screen" | "all";
  context?: number;
  max_tokens?: number;
}

export async function readTargets(crew: Pick<Crew, "resolve">, terminal: Pick<TerminalPort, "read" | "regex">, input: HiveReadInput, ctx: TerminalCall) {
  // Checked once before any target is read, so a bad filter is one clear error, not one per target.
  if (input.filter !== undefined) terminal.regex(input.filter, "filter");
  const { targets, unavailable } = await crew.resolve(input.targets);
  const results = await fanOut(targets, async (t) => {
    const r = await terminal.read({ session: t.sessionId, mode: input.mode ?? "screen", filter: input.filter, context: input.context, max_tokens: input.max_tokens }, ctx);
    if (input.lines === undefined) return r;
    // Per-target limit: the last N lines of what the read returned.
    const all = r.output.split("\n");
    return { ...r, output: all.slice(-input.lines).join("\n"), truncated_lines: Math.max(0, all.length - input.lines) };
  });
  return { results, unavailable, failed: results.filter((r) => !r.ok).length };
}
