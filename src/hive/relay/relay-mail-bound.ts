// How much mail a sandboxed pane may relay (sandbox/relay.ts): its program can leave requests
// as fast as it can write files, and every message lands in hive.db. Two bounds: a pace per
// relay folder (kept by the server following it) and, in the store, the mail one sender may
// leave one recipient unread (held across processes and restarts). An agent's mail is a few
// notes a turn; both bounds are far above that.
import type { UnreadCap } from "../store/mailbox.js";

/** A relay folder's mail: a burst of this many messages / bytes, refilled at this pace per minute. */
export const RELAY_MAIL_BURST = 30;
export const RELAY_MAIL_BURST_BYTES = 1024 * 1024;
export const RELAY_MAIL_PER_MINUTE = 30;
export const RELAY_MAIL_BYTES_PER_MINUTE = 1024 * 1024;
/** Unread mail one sandboxed sender may leave one recipient. */
export const RELAY_UNREAD_CAP: UnreadCap = { messages: 200, bytes: 4 * 1024 * 1024 };

interface Bucket {
  messages: number;
  bytes: number;
  at: number;
}

export class RelayMailPace {
  private readonly buckets = new Map<string, Bucket>();

  /** Null when a message of `bytes` from this folder may go now (and counts it), else why not. */
  admit(folder: string, bytes: number, now = Date.now()): string | null {
    const b = this.buckets.get(folder) ?? { messages: RELAY_MAIL_BURST, bytes: RELAY_MAIL_BURST_BYTES, at: now };
    const minutes = Math.max(0, now - b.at) / 60_000;
    b.messages = Math.min(RELAY_MAIL_BURST, b.messages + minutes * RELAY_MAIL_PER_MINUTE);
    b.bytes = Math.min(RELAY_MAIL_BURST_BYTES, b.bytes + minutes * RELAY_MAIL_BYTES_PER_MINUTE);
    b.at = now;
    this.buckets.set(folder, b);
    if (b.messages < 1 || b.bytes < bytes) {
      return `over the relay's pace for mail (a burst of ${RELAY_MAIL_BURST} messages / ${RELAY_MAIL_BURST_BYTES / 1024} KiB, then ${RELAY_MAIL_PER_MINUTE} / ${RELAY_MAIL_BYTES_PER_MINUTE / 1024} KiB a minute)`;
    }
    b.messages -= 1;
    b.bytes -= bytes;
    return null;
  }

  forget(folder: string): void {
    this.buckets.delete(folder);
  }
}
