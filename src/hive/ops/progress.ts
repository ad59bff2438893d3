// Progress notifications while a hive call waits (hive_wait, agent_spawn, hive_layout), so a
// client sees the call is alive and what it waits for — the way terminal_run reports.
/** The part of a call's context progress needs (service/CallContext has it). */
export interface ProgressSink {
  onProgress?: (elapsedMs: number, message: string) => void;
}

const PROGRESS_MS = 1000;

export async function withProgress<T>(ctx: ProgressSink | undefined, what: string, work: Promise<T>): Promise<T> {
  const report = ctx?.onProgress;
  if (!report) return work;
  const started = Date.now();
  const timer = setInterval(() => {
    const ms = Date.now() - started;
    report(ms, `${what} (${Math.round(ms / 1000)} s)`);
  }, PROGRESS_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
