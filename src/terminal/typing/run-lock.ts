// One command at a time per session, across every termhive process: terminal_run holds a
// lock kept with the pane (shared state "lock") from before it types until it returns. A
// second run — from this process or another — is refused naming what runs. A holder that
// died (kill -9) frees it at once on this host (its pid is gone), and in any case when it
// expires: the run's own timeout plus a margin, so it cannot stay held for ever.
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Backend } from "../../backends/backend.js";
import type { TerminalSession } from "../session/session.js";
import { busyError } from "./busy.js";
import { ToolError } from "../../util/tool-error.js";
import { decodeShared, encodeShared, ownerAlive } from "../model/shared-codec.js";
import { traced } from "../../util/traced.js";

const LOCK_KEY = "lock";
/** Beyond the run's timeout: the time to type the command and render its result. */
const EXPIRY_MARGIN_MS = 60_000;
/** Swaps tried (the first from "", then from what each found) before giving up as busy. */
const ATTEMPTS = 4;

interface Lock {
  token: string;
  host: string;
  pid: number;
  expires: number;
  command: string;
  startedAt: number;
}

export type Release = () => Promise<void>;

/** Takes the session's run lock or throws a "busy" ToolError naming the run that holds it. */
export async function acquireRunLock(backend: Backend, session: TerminalSession, command: string, timeoutMs: number): Promise<Release> {
  const host = hostname();
  const now = Date.now();
  const mine = encodeShared({
    token: randomBytes(6).toString("hex"),
    host,
    pid: process.pid,
    expires: now + timeoutMs + EXPIRY_MARGIN_MS,
    command: command.length > 200 ? command.slice(0, 200) + "…" : command,
    startedAt: now,
  } satisfies Lock);
  // Most runs find the lock free: swap from "" at once (one round trip, not a read and then
  // a swap); a held lock is what the swap answers, and is judged as a read would have been.
  let current = "";
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const held = decodeShared<Lock>(current);
    if (held && !stale(held, host)) throw busy(session, held);
    current = await backend.shared.swapShared(session.paneId, LOCK_KEY, current, mine);
    if (current === mine) {
      return async () => {
        // Only our own value is removed: an expired lock may have been taken over since.
        await backend.shared.swapShared(session.paneId, LOCK_KEY, mine, "").catch(traced("releasing a run lock"));
      };
    }
  }
  throw busy(session, decodeShared<Lock>(current) ?? {});
}

function stale(lock: Partial<Lock>, host: string): boolean {
  return typeof lock.expires !== "number" || lock.expires < Date.now() || !ownerAlive(lock.host, lock.pid, host);
}

function busy(session: TerminalSession, held: Partial<Lock>): ToolError {
  return busyError(session, held.command ? `\`${held.command}\`` : "another terminal_run", typeof held.startedAt === "number" ? held.startedAt : undefined, {
    typedBy: `typed by another terminal_run${held.pid === process.pid ? "" : ", in another termhive process"}`,
  });
}
