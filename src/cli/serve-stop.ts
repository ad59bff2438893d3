// Stops this home's background `termhive serve` (the one `termhive dashboard` starts): found
// by its record (<home>/serve.json), ended with SIGTERM, which it answers by closing its
// doors and removing the record.
import { readServeRecord, type ServeRecord } from "../dashboard/serve-record.js";

const STOP_TIMEOUT_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** The serve that was stopped, or undefined when none ran; throws when it would not stop. */
export async function stopServe(home: string): Promise<ServeRecord | undefined> {
  const record = readServeRecord(home);
  if (!record || record.pid === process.pid) return undefined;
  process.kill(record.pid, "SIGTERM");
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive(record.pid)) {
    if (Date.now() > deadline) throw new Error(`termhive serve (pid ${record.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return record;
}

export function stoppedText(home: string, record: ServeRecord | undefined): string {
  return record ? `stopped termhive serve (pid ${record.pid}, port ${record.port})` : `no termhive serve is running for ${home}`;
}
