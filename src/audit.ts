// Append-only JSONL audit log: every input (secrets redacted), lifecycle event and completion.
import { appendFileSync } from "node:fs";
import { join } from "node:path";

export type AuditEvent = Record<string, unknown> & { event: string };

export class AuditLog {
  readonly path: string;

  constructor(home: string) {
    this.path = join(home, "audit.jsonl");
  }

  write(entry: AuditEvent): void {
    // One write per line with O_APPEND: lines from several termhive processes never interleave.
    try {
      appendFileSync(this.path, JSON.stringify({ ts: new Date().toISOString(), pid: process.pid, ...entry }) + "\n", { mode: 0o600 });
    } catch {
      // The audit log must never break a tool call (disk full, home removed); the call's own result still stands.
    }
  }
}
