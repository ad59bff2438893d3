// WatchOutput's writer for one call: honours the stream's backpressure without dropping a
// byte. Chunks of one event-loop turn (during a flood, of 5 ms), and all chunks while the
// bytes handed to grpc-js and not yet sent reach IN_FLIGHT_LIMIT, wait here; adjacent chunks
// of one session are merged into one message (fewer, larger messages are what lets a reader
// keep up). The backlog is both — what waits here and what grpc-js/HTTP/2 still hold — so a
// reader that stays too far behind (TERMHIVE_GRPC_WATCH_BACKLOG_MB, 16 by default) is ended
// with RESOURCE_EXHAUSTED with that much held for it at most, rather than followed by
// unbounded memory or loss. (Counting only what waited here, as before, left grpc-js's own
// buffer — 16 messages of up to 1 MB — outside the cap, kept until the reader read again.)
import * as grpc from "@grpc/grpc-js";
import { BatchTimer } from "../util/batch-timer.js";

export interface OutputMessage {
  session: string;
  name: string;
  data: Buffer;
  transcript_end: number;
}

/** The largest message built by merging; well under grpc's default 4 MB receive limit. */
const MERGE_LIMIT = 1024 * 1024;

/** Bytes handed to grpc-js and not yet sent, at most (plus one message): enough to keep the socket busy. */
const IN_FLIGHT_LIMIT = 1024 * 1024;

interface Pending extends Omit<OutputMessage, "data"> {
  parts: Buffer[];
  bytes: number;
}

export class OutputQueue {
  private readonly pending: Pending[] = [];
  private queued = 0;
  /** Bytes written to the call whose write has not completed (grpc-js's buffer, HTTP/2's window). */
  private inFlight = 0;
  /** During a flood, a message at most this often: fewer, larger messages let a reader keep up. */
  private readonly batch = new BatchTimer(() => this.flush(), 5);
  private ended = false;

  constructor(
    private readonly call: grpc.ServerWritableStream<Record<string, unknown>, object>,
    /** How far a reader may fall behind before its stream is ended. */
    private readonly limit: number,
  ) {
    const end = () => this.stop();
    call.once("cancelled", end);
    call.once("close", end);
    call.once("finish", end);
  }

  push(message: OutputMessage): void {
    if (this.ended || message.data.length === 0) return;
    if (!this.full()) this.batch.schedule();
    const last = this.pending[this.pending.length - 1];
    if (last && last.session === message.session && last.bytes + message.data.length <= MERGE_LIMIT) {
      last.parts.push(message.data);
      last.bytes += message.data.length;
      last.transcript_end = message.transcript_end;
    } else {
      const { data, ...rest } = message;
      this.pending.push({ ...rest, parts: [data], bytes: data.length });
    }
    this.queued += message.data.length;
    if (this.queued + this.inFlight > this.limit) this.overflow();
  }

  private full(): boolean {
    return this.inFlight >= IN_FLIGHT_LIMIT;
  }

  private flush(): void {
    while (!this.full() && !this.ended && this.pending.length) {
      const { parts, bytes, ...rest } = this.pending.shift()!;
      this.queued -= bytes;
      this.inFlight += bytes;
      // Completes once HTTP/2 has sent the message: a reader that stops reading stops it here.
      this.call.write({ ...rest, data: parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes) }, () => {
        this.inFlight -= bytes;
        this.flush();
      });
    }
  }

  private overflow(): void {
    const behind = this.queued + this.inFlight;
    this.stop();
    this.call.emit("error", {
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: `the watcher fell ${Math.round(behind / 1048576)} MB behind the output it asked for; the stream was ended rather than drop bytes (read faster, or watch fewer sessions)`,
    });
  }

  private stop(): void {
    this.batch.cancel();
    this.ended = true;
    this.pending.length = 0;
    this.queued = 0;
  }
}
