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
