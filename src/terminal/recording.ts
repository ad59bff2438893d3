// asciinema v2 recording of a session's output. Several termhive processes may watch the same
// pane; only the one holding the lock file writes, so each byte is recorded once.
import { closeSync, existsSync, openSync, readFileSync, writeSync, writeFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { SecretHoldback } from "./secret-holdback.js";

export class CastRecorder {
  private fd: number | null = null;
  private startedAt = 0;
  private readonly lockPath: string;
  readonly path: string;

  private readonly outputs: SecretHoldback;

  /** `secrets`: values masked in the recorded output, also when split across chunks. */
  constructor(dir: string, secrets: () => readonly string[] = () => []) {
    this.path = join(dir, "output.cast");
    this.lockPath = join(dir, "recorder.lock");
    this.outputs = new SecretHoldback(secrets, (masked) => this.event("o", masked));
  }

  /** Takes the recording if nobody alive holds it. Returns whether this process records. */
  acquire(header: { cols: number; rows: number; command: string; createdMs: number }): boolean {
    if (!this.takeLock()) return false;
    if (existsSync(this.path)) {
      // Continue the existing cast: event times stay relative to its header.
      try {
        const first = readFileSync(this.path, "utf8").split("\n", 1)[0] ?? "{}";
        const parsed = JSON.parse(first) as { timestamp?: number };
        this.startedAt = (parsed.timestamp ?? header.createdMs / 1000) * 1000;
      } catch {
        this.startedAt = header.createdMs;
      }
      this.fd = openSync(this.path, "a", 0o600);
    } else {
      this.startedAt = header.createdMs;
      this.fd = openSync(this.path, "a", 0o600);
      const head = {
        version: 2,
        width: header.cols,
        height: header.rows,
        timestamp: Math.floor(header.createdMs / 1000),
        title: header.command,
        env: { TERM: "screen-256color", SHELL: header.command },
      };
      this.startedAt = head.timestamp * 1000;
      writeSync(this.fd, JSON.stringify(head) + "\n");
    }
    return true;
  }

  private takeLock(): boolean {
    try {
      writeFileSync(this.lockPath, String(process.pid), { flag: "wx", mode: 0o600 });
      return true;
    } catch {
      const holder = Number(readFileSync(this.lockPath, "utf8").trim());
      if (holder && holder !== process.pid && isAlive(holder)) return false;
      writeFileSync(this.lockPath, String(process.pid), { mode: 0o600 });
      return true;
    }
  }

  output(text: string): void {
    if (this.fd !== null) this.outputs.push(text);
  }

  resize(cols: number, rows: number): void {
    this.outputs.flush();
    this.event("r", `${cols}x${rows}`);
  }

  private event(kind: string, data: string): void {
    if (this.fd === null || !data) return;
    const t = Math.max(0, (Date.now() - this.startedAt) / 1000);
    writeSync(this.fd, JSON.stringify([Number(t.toFixed(6)), kind, data]) + "\n");
  }

  close(): void {
    if (this.fd === null) return;
    this.outputs.flush();
    closeSync(this.fd);
    this.fd = null;
    try {
      if (readFileSync(this.lockPath, "utf8").trim() === String(process.pid)) unlinkSync(this.lockPath);
    } catch {
      // already gone
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
