// Waiting until a freshly started program accepts input: a shell at its first prompt, an
// agent whose profile's ready pattern is on screen, or (no pattern) a screen gone quiet.
import type { AgentProfile } from "../../hive/index.js";
import { isReady } from "../../hive/index.js";
import type { TerminalSession } from "../../terminal/session.js";
import { watchSession } from "../../terminal/watch.js";

/** A program without a ready pattern counts as ready once its output has been quiet this long. */
const PLAIN_QUIET_MS = 150;

export async function waitReady(session: TerminalSession, profile: AgentProfile | undefined, timeoutMs: number): Promise<"ready" | "exited" | "timeout"> {
  const shell = session.meta.shell !== "other";
  const quiet = profile && profile.ready === null ? profile.quietIdleMs : PLAIN_QUIET_MS;
  const r = await watchSession(
    session,
    async (): Promise<"ready" | "exited" | undefined> => {
      if (!session.alive) return "exited";
      if (shell) return session.phase !== "starting" ? "ready" : undefined;
      const quietMs = Date.now() - session.lastOutputAt;
      if (profile?.ready) {
        await session.screen.settled();
        return isReady(profile, { screenLines: session.screen.snapshot().lines, quietMs }) ? "ready" : undefined;
      }
      return session.transcript.end > 0 && quietMs >= quiet ? "ready" : undefined;
    },
    { timeoutMs, quietMs: quiet },
  ).catch(() => "exited" as const);
  return r;
}
