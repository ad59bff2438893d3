// asciinema v2 recording of a session's output. Several termhive processes may watch the same
// pane; only the one holding the lock file writes, so each byte is recorded once.
//
// A recording must never take the server down: a failed write (disk full, home removed)
// turns recording off for this session, says so once (onRecordingNotice → a hive event),
// and is retried every RETRY_MS of output; the first write that works again puts a marker
// with the number of bytes missed. Past TERMHIVE_RECORDING_MAX_MB the file rotates to
// output.cast.1 (the one before is dropped), so a session keeps at most twice the cap.
import { basename, join } from "node:path";
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { BatchTimer } from "../../util/batch-timer.js";
import { Emitter } from "../../util/event.js";
import { SecretHoldback } from "../model/secret-holdback.js";
import { processAlive } from "../../util/process.js";

export interface RecordingNotice {
  event: "recording_off" | "recording_on" | "recording_rotated";
  sessionId: string;
  path: string;
  reason?: string;
  /** recording_on: bytes of output that were not recorded while it was off. */
  missedBytes?: number;
}

const notices = new Emitter<RecordingNotice>();

/** Process-wide: hears every recorder's off/on/rotated changes (the hive turns them into events). */
export const onRecordingNotice = notices.event;

function notify(notice: RecordingNotice): void {
  try {
    notices.fire(notice);
  } catch {
    // a listener's failure is its own; the recording carries on
  }
}

const RETRY_MS = 2_000;
/** During a flood, output is recorded at most this often (one line, one write). */
const BATCH_SPACING_MS = 10;

interface Header {
  cols: number;
  rows: number;
  command: string;
  createdMs: number;
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "ENOSPC") return "the disk is full (no space left on device)";
  if (e.code === "EDQUOT") return "the disk quota is exhausted";
  return e.message ?? String(error);
}

export class CastRecorder {
  private fd: number | null = null;
  private startedAt = 0;
  private readonly lockPath: string;
  readonly path: string;
  private readonly sessionId: string;
  private readonly maxBytes: number;
  private size = 0;
  private torn = false;
  private header: Header | null = null;
  /** Set while recording is off after a failed write. */
  private failure: { reason: string; lastTry: number; missed: number } | null = null;

  private readonly outputs: SecretHoldback;
  /** Output not yet recorded, written as one event by `batch` (see util/batch-timer.ts). */
  private turn: string[] = [];
  private turnAt = 0;
  private readonly batch = new BatchTimer(() => this.endTurn(), BATCH_SPACING_MS);

  /**
   * `secrets`: values masked in the recorded output, also when split across chunks.
   * `maxBytes`: TERMHIVE_RECORDING_MAX_MB, read by config.ts.
   */
  constructor(dir: string, secrets: () => readonly string[], maxBytes: number) {
    this.path = join(dir, "output.cast");
    this.lockPath = join(dir, "recorder.lock");
    this.sessionId = basename(dir);
    this.maxBytes = maxBytes;
    this.outputs = new SecretHoldback(secrets, (masked) => this.event("o", masked, this.turnAt));
  }

  /** Takes the recording if nobody alive holds it. Returns whether this process records. */
  acquire(header: Header): boolean {
    this.header = header;
    try {
      if (!this.takeLock()) return false;
      this.open(header);
    } catch (error) {
      // Disk full at open: this process owns the recording but cannot write it yet.
      this.fail(error);
    }
    return true;
  }

  private open(header: Header): void {
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
      this.size = fstatSync(this.fd).size;
    } else {
      this.fd = openSync(this.path, "a", 0o600);
      this.size = 0;
      this.startedAt = Math.floor(header.createdMs / 1000) * 1000;
      this.append(this.headerLine(header));
    }
  }

  private headerLine(header: Header): string {
    const head = {
      version: 2,
      width: header.cols,
      height: header.rows,
      timestamp: Math.floor(header.createdMs / 1000),
      title: header.command,
      env: { TERM: "screen-256color", SHELL: header.command },
    };
    return JSON.stringify(head) + "\n";
  }

  private takeLock(): boolean {
    try {
      writeFileSync(this.lockPath, String(process.pid), { flag: "wx", mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(this.lockPath, "utf8").trim());
      if (holder && holder !== process.pid && processAlive(holder)) return false;
      writeFileSync(this.lockPath, String(process.pid), { mode: 0o600 });
      return true;
    }
  }

  output(text: string): void {
    if (this.fd === null && this.failure === null) return;
    if (this.turn.length === 0) this.turnAt = Date.now();
    this.turn.push(text);
    this.batch.schedule();
  }

  /** Writes the output held for the next batch now. */
  writePending(): void {
    this.batch.flush();
  }

  private endTurn(): void {
    this.batch.cancel();
    if (this.turn.length === 0) return;
    const text = this.turn.length === 1 ? this.turn[0]! : this.turn.join("");
    this.turn = [];
    if (this.fd !== null || this.failure !== null) this.outputs.push(text);
  }

  resize(cols: number, rows: number): void {
    this.endTurn();
    this.outputs.flush();
    this.event("r", `${cols}x${rows}`);
  }

  private line(kind: string, data: string, at = Date.now()): string {
    const t = Math.max(0, (at - this.startedAt) / 1000);
    return JSON.stringify([Number(t.toFixed(6)), kind, data]) + "\n";
  }

  /** `at`: when the data came (an output turn's first chunk), now by default. */
  private event(kind: string, data: string, at = Date.now()): void {
    if (!data || (this.fd === null && this.failure === null)) return;
    if (this.failure !== null && !this.retry()) {
      if (this.failure !== null) this.failure.missed += Buffer.byteLength(data);
      return;
    }
    try {
      const line = this.line(kind, data, at);
      const length = Buffer.byteLength(line);
      if (this.size + length > this.maxBytes && this.size > 0) this.rotate();
      this.append(line, length);
    } catch (error) {
      this.failure === null ? this.fail(error) : (this.failure.missed += Buffer.byteLength(data));
    }
  }

  /** Appends all of `line` or throws (a short write on a nearly full disk is retried, then fails). */
  private append(line: string, length = Buffer.byteLength(line)): void {
    let done = 0;
    try {
      // The string is written as it is (no Buffer of our own: a flood's lines are tens of KB
      // each, and each Buffer is memory the garbage collector must account for).
      done = writeSync(this.fd!, line);
      if (done < length) {
        const bytes = Buffer.from(line);
        while (done < length) done += writeSync(this.fd!, bytes, done);
      }
    } catch (error) {
      // Part of a line got in before the disk filled: cut it off so every line still parses.
      if (done > 0) {
        try {
          ftruncateSync(this.fd!, this.size);
        } catch {
          this.torn = true; // could not cut: the next write at least starts a new line
          this.size += done;
        }
      }
      throw error;
    }
    this.size += length;
  }

  private fail(error: unknown): void {
    this.failure = { reason: describe(error), lastTry: Date.now(), missed: 0 };
    notify({ event: "recording_off", sessionId: this.sessionId, path: this.path, reason: this.failure.reason });
  }

  /** While off: at most every RETRY_MS, tries to reopen and write the gap marker. True if recording again. */
  private retry(): boolean {
    const failure = this.failure!;
    if (Date.now() - failure.lastTry < RETRY_MS) return false;
    failure.lastTry = Date.now();
    try {
      if (this.fd === null) {
        if (!this.takeLock()) {
          // Another live process took the recording meanwhile: it records, this one stops.
          this.failure = null;
          return false;
        }
        this.open(this.header ?? { cols: 80, rows: 24, command: "", createdMs: Date.now() });
      }
      this.append((this.torn ? "\n" : "") + this.line("m", `termhive: ${failure.missed} bytes of output were not recorded (${failure.reason})`));
    } catch {
      return false;
    }
    this.torn = false;
    this.failure = null;
    notify({ event: "recording_on", sessionId: this.sessionId, path: this.path, missedBytes: failure.missed });
    return true;
  }

  /** output.cast → output.cast.1 (replacing the older one), and a fresh cast with a marker. */
  private rotate(): void {
    closeSync(this.fd!);
    this.fd = null;
    renameSync(this.path, `${this.path}.1`);
    this.fd = openSync(this.path, "a", 0o600);
    this.size = 0;
    const header = this.header ?? { cols: 80, rows: 24, command: "", createdMs: this.startedAt };
    // The new file keeps the original start time, so event times continue where the last left off.
    this.append(this.headerLine({ ...header, createdMs: this.startedAt }));
    this.append(this.line("m", `termhive: the recording passed ${+(this.maxBytes / 1024 / 1024).toFixed(3)} MB (TERMHIVE_RECORDING_MAX_MB); earlier output is in output.cast.1`));
    notify({ event: "recording_rotated", sessionId: this.sessionId, path: this.path });
  }

  close(): void {
    if (this.fd === null && this.failure === null) return;
    this.endTurn();
    this.outputs.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.failure = null;
    try {
      if (readFileSync(this.lockPath, "utf8").trim() === String(process.pid)) unlinkSync(this.lockPath);
    } catch {
      // already gone
    }
  }
}
