// One typist at a time per session, across every termhive process. A terminal_send of a long
// text types for seconds (bash takes ~19 s a MiB); a terminal_run or a hive message that
// started meanwhile cleared the input line and typed its own line while the send's keys were
// still arriving, so the two mixed on one line and the shell ran text the safety gate never
// judged as that line (a refused `curl … | sh` ran, seen in the user trial). Each typist now
// waits for the one before it: the gate judges the line as the previous typist left it, and
// nothing is typed into the middle of another text. A run holds its turn only while it types:
// a send during the command (an answer, Ctrl-C) goes at once.
// In this process the turns queue in order; another process's typist is seen through the
// pane's shared value "typist" (kept with the pane, as the run lock is): held, it is waited
// for — until its holder is gone (its pid, on this host) or its hold has run out.
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { TerminalSession } from "../session/session.js";
import { decodeShared, encodeShared, ownerAlive } from "../model/shared-codec.js";
import { traced } from "../../util/traced.js";

const last = new WeakMap<TerminalSession, Promise<void>>();

const TYPIST_KEY = "typist";
/** How long a turn may be held before another process takes it anyway (a holder stuck or frozen). */
const HOLD_MS = 60_000;
/** How often a typist waiting for another process's looks again (doubling up to the last). */
const LOOK_AGAIN_MS = [10, 20, 40, 80, 160] as const;

interface Typist {
  token: string;
  host: string;
  pid: number;
  expires: number;
}

export type InputTurnRelease = () => void;

/** Waits for the typists before this one; the returned release (idempotent) lets the next one type. */
export async function takeInputTurn(session: TerminalSession): Promise<InputTurnRelease> {
  const before = last.get(session) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  last.set(session, before.then(() => mine));
  await before;
  const releaseShared = await takeSharedTurn(session);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    releaseShared();
    release();
  };
}

/** `work` typed in its own turn. */
export async function inInputTurn<T>(session: TerminalSession, work: () => Promise<T>): Promise<T> {
  const release = await takeInputTurn(session);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * The turn among termhive processes; one round trip when nobody else types (the usual case).
 * A pane that does not answer a swap in SWAP_ANSWER_MS (tmux gone, a host frozen) is typed
 * into without it: the typing fails or waits there as before, with its own error or bound.
 */
async function takeSharedTurn(session: TerminalSession): Promise<() => void> {
  const host = hostname();
  const mine = encodeShared({ token: randomBytes(6).toString("hex"), host, pid: process.pid, expires: Date.now() + HOLD_MS } satisfies Typist);
  const release = () => void session.swapShared(TYPIST_KEY, mine, "").catch(traced("releasing the typing turn"));
  let current = "";
  for (let look = 0; ; look++) {
    const answer = await answeredSwap(session, current, mine, release);
    if (answer === undefined) return () => undefined;
    current = answer;
    if (current === mine) break;
    const held = decodeShared<Typist>(current);
    // Our own pid: a release that never reached the pane (this process types one turn at a time).
    const own = held?.host === host && held.pid === process.pid;
    // Gone, run out or not one of ours: taken from that value on the next swap.
    if (!held || own || typeof held.expires !== "number" || held.expires < Date.now() || !ownerAlive(held.host, held.pid, host)) continue;
    await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS[Math.min(look, LOOK_AGAIN_MS.length - 1)]));
    current = "";
  }
  // Not waited for: tmux runs this process's commands in order, so the next turn's swap comes after.
  return release;
}

/** How long a pane may take to answer the turn's swap before typing goes on without it. */
const SWAP_ANSWER_MS = 2_000;

/** The swap's answer, or undefined when none came in time (a late one that took the turn gives it back). */
async function answeredSwap(session: TerminalSession, expected: string, mine: string, release: () => void): Promise<string | undefined> {
  let late = false;
  let timer: NodeJS.Timeout | undefined;
  const swap = session.swapShared(TYPIST_KEY, expected, mine).then(
    (value) => {
      if (late && value === mine) release();
      return value;
    },
    () => undefined,
  );
  const unanswered = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      late = true;
      resolve(undefined);
    }, SWAP_ANSWER_MS);
  });
  const answer = await Promise.race([swap, unanswered]);
  clearTimeout(timer);
  return answer;
}
