// One typist at a time per session, in this process. A terminal_send of a long text types for
// seconds (bash takes ~19 s a MiB); a terminal_run or a hive message that started meanwhile
// cleared the input line and typed its own line while the send's keys were still arriving,
// so the two mixed on one line and the shell ran text the safety gate never judged as that
// line (a refused `curl … | sh` ran, seen in the user trial). Each typist now waits for the
// one before it: the gate judges the line as the previous typist left it, and nothing is
// typed into the middle of another text. A run holds its turn only while it types: a send
// during the command (an answer, Ctrl-C) goes at once.
import type { TerminalSession } from "../session/session.js";

const last = new WeakMap<TerminalSession, Promise<void>>();

export type InputTurnRelease = () => void;

/** Waits for the typists before this one; the returned release (idempotent) lets the next one type. */
export async function takeInputTurn(session: TerminalSession): Promise<InputTurnRelease> {
  const before = last.get(session) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  last.set(session, before.then(() => mine));
  await before;
  return release;
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
