// Which Codex thread is the agent's own conversation, for its notify (read where Codex's hooks
// are off: its hooks fire for the main thread only). Codex (0.169) runs its notify program
// for every thread that ends a turn, and each new task starts a side thread that generates its
// title: that notify comes ~1 s before the real turn ends. Only a conversation is recorded in
// Codex's session files ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl; the
// title thread is ephemeral), so a thread with a rollout file is a main thread.
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Day folders searched, newest first: a session started before midnight still ends its turns after it. */
const DAYS_SEARCHED = 3;

const newestFirst = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((n) => /^\d+$/.test(n)).sort().reverse();
  } catch {
    return [];
  }
};

export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME || join(homedir(), ".codex");
}

/**
 * True when `threadId` has a rollout file in the newest day folders of `$CODEX_HOME/sessions`;
 * also true when there are no session files at all (history off, another layout): then nothing
 * tells the threads apart, and dropping every notify would be worse than the side thread's.
 */
export function isCodexMainThread(threadId: string, home: string = codexHome()): boolean {
  const sessions = join(home, "sessions");
  const days: string[] = [];
  for (const y of newestFirst(sessions)) {
    for (const m of newestFirst(join(sessions, y))) {
      for (const d of newestFirst(join(sessions, y, m))) {
        days.push(join(sessions, y, m, d));
        if (days.length >= DAYS_SEARCHED) break;
      }
      if (days.length >= DAYS_SEARCHED) break;
    }
    if (days.length >= DAYS_SEARCHED) break;
  }
  if (days.length === 0) return true;
  const suffix = `-${threadId}.jsonl`;
  return days.some((dir) => {
    try {
      return readdirSync(dir).some((f) => f.endsWith(suffix));
    } catch {
      return false;
    }
  });
}
