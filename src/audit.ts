// Append-only JSONL audit log: every input (secrets redacted), lifecycle event and completion.
// Capped: past TERMHIVE_AUDIT_MAX_MB the log moves to audit.jsonl.1 (replacing the older one),
// so it takes at most twice the cap on disk.
import { appendFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { redactCredentialsDeep } from "./redact.js";

export type AuditEvent = Record<string, unknown> & { event: string };

export class AuditLog {
  readonly path: string;
  private readonly maxBytes: number;
  /** Why the last write failed; reported once on stderr, and once more when writes work again. */
  private failing: string | null = null;

  /** `maxBytes`: TERMHIVE_AUDIT_MAX_MB, read by config.ts. */
  constructor(home: string, maxBytes: number) {
    this.path = join(home, "audit.jsonl");
    this.maxBytes = maxBytes;
  }

  write(entry: AuditEvent): void {
    // Credential shapes are masked in every entry (typed input, commands, answers), as the
    // README promises; secrets given by value are masked by the callers, who know them.
    const line = JSON.stringify({ ts: new Date().toISOString(), pid: process.pid, ...redactCredentialsDeep(entry) }) + "\n";
    try {
      this.rotateIfFull(Buffer.byteLength(line));
      // One write per line with O_APPEND: lines from several termhive processes never interleave.
      appendFileSync(this.path, line, { mode: 0o600 });
      if (this.failing !== null) {
        this.failing = null;
        process.stderr.write(`termhive: the audit log ${this.path} is written again\n`);
      }
    } catch (error) {
      // The audit log must never break a tool call (disk full, home removed); the call's own
      // result still stands. Said once, not per call.
      const reason = (error as NodeJS.ErrnoException).code === "ENOSPC" ? "the disk is full" : (error as Error).message;
      if (this.failing === null) process.stderr.write(`termhive: cannot write the audit log ${this.path}: ${reason}; entries are lost until it works again\n`);
      this.failing = reason;
    }
  }

  private rotateIfFull(adding: number): void {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return; // no log yet
    }
    // Two processes may both see it full: the second rename moves a nearly empty file, harmless.
    if (size > 0 && size + adding > this.maxBytes) renameSync(this.path, `${this.path}.1`);
  }
}
