// Waiting until a freshly started agent accepts input: its profile's ready pattern on screen,
// or (no pattern) a screen gone quiet; a shell at its first prompt. The wait itself is the
// one every open path uses (terminal/waits/ready.ts); the hive adds what its profiles know.
import type { AgentProfile } from "../index.js";
import { isReady } from "../index.js";
import { waitUntilReady, type Readiness } from "../../terminal/waits/ready.js";
import type { TerminalSession } from "../../terminal/session/session.js";

/** A program without a ready pattern counts as ready once its output has been quiet this long. */
const PLAIN_QUIET_MS = 150;

export function waitReady(session: TerminalSession, profile: AgentProfile | undefined, timeoutMs: number): Promise<Readiness> {
  const quietMs = profile && profile.ready === null ? profile.quietIdleMs : PLAIN_QUIET_MS;
  const readyWhen = profile?.ready ? (screenLines: string[], quiet: number) => isReady(profile, { screenLines, quietMs: quiet }) : undefined;
  return waitUntilReady(session, { timeoutMs, quietMs, readyWhen });
}

/** At most this long is waited for the quiet an idle rule asks for (Claude's input prompt: 300 ms). */
const IDLE_QUIET_CAP_MS = 1_000;

/**
 * A ready screen can match before the quiet its idle rule asks for has passed (the prompt is on
 * screen, drawn a moment ago): the status read then is "working (output is changing)", and the
 * first message to the agent is queued as busy. Waiting out that quiet (the same rules, only
 * later) makes the spawn's answer the status a message meets.
 */
export async function quietForIdle(session: TerminalSession, profile: AgentProfile): Promise<void> {
  const needs = Math.min(IDLE_QUIET_CAP_MS, Math.max(0, ...profile.rules.filter((r) => r.status === "idle").map((r) => r.minQuietMs)));
  if (needs === 0 || session.meta.shell !== "other") return;
  await waitUntilReady(session, { timeoutMs: needs * 3, quietMs: needs, readyWhen: (_lines, quiet) => quiet >= needs });
}
