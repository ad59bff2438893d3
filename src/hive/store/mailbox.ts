// The mailbox: messages between agents (or from a person/orchestrator to an agent), persisted,
// so a message left for an agent survives its restart and any termhive process can deliver it.
// Reading marks messages read; typing a message into the recipient's pane is the service's
// choice, not this file's.
import type { HiveStore } from "./store.js";
import type { EventLog } from "./event-log.js";
import type { Agents } from "./agents.js";
import { HiveError } from "./errors.js";

/** Largest message kept; a mailbox is for instructions and notes, not file transfers. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

export interface MailMessage {
  id: number;
  from: string;
  to: string;
  text: string;
  createdAt: number;
  readAt: number | null;
}

interface MessageRow {
  id: number;
  sender: string;
  recipient: string;
  text: string;
  created_at: number;
  read_at: number | null;
}

const toMessage = (r: MessageRow): MailMessage => ({
  id: r.id,
  from: r.sender,
  to: r.recipient,
  text: r.text,
  createdAt: r.created_at,
  readAt: r.read_at,
});

/** How much unread mail one sender may leave one recipient (relayed mail from a sandbox: hive/relay/relay-follower.ts). */
export interface UnreadCap {
  messages: number;
  bytes: number;
}

export interface ReadOptions {
  /** Only unread messages (default true). */
  unreadOnly?: boolean;
  /** Mark the returned messages read (default true). */
  markRead?: boolean;
  /** At most this many, oldest first (default 50, max 500). */
  limit?: number;
}

export class Mailbox {
  constructor(
    private readonly store: HiveStore,
    private readonly events: EventLog,
    private readonly agents: Agents,
  ) {}

  /**
   * Leaves a message for a registered agent. `from` is free text (an agent name, "user",
   * "orchestrator"): a message from outside any agent is normal. With `cap`, refused (nothing
   * kept) when `from`'s unread mail to `to` would pass it.
   */
  send(from: string, to: string, text: string, cap?: UnreadCap): MailMessage {
    if (typeof from !== "string" || from.trim() === "") throw new HiveError("invalid", "a message needs a sender ('from')");
    if (typeof text !== "string" || text.length === 0) throw new HiveError("invalid", "a message needs a non-empty text");
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > MAX_MESSAGE_BYTES) {
      throw new HiveError("invalid", `message is ${bytes} bytes; the limit is ${MAX_MESSAGE_BYTES}`);
    }
    return this.store.write(() => {
      const recipient = this.agents.get(to);
      if (cap) this.checkCap(from, to, bytes, cap);
      const createdAt = Date.now();
      const info = this.store.db
        .prepare("INSERT INTO messages (sender, recipient, text, created_at) VALUES (?, ?, ?, ?)")
        .run(from, to, text, createdAt);
      const message: MailMessage = { id: Number(info.lastInsertRowid), from, to, text, createdAt, readAt: null };
      this.events.append({
        kind: "message",
        agent: to,
        sessionId: recipient.sessionId,
        // Same shape as a cascade's message event (hive/messages/message-log.ts): a mail is
        // delivered once it is in the recipient's mailbox; typing it into the pane is extra.
        data: { via: "mail", level: "agent", state: "delivered", message: message.id, from, to, preview: text.slice(0, 120) },
      });
      return message;
    });
  }

  /** Checked under the write lock: two processes applying one sender's mail cannot both pass the cap. */
  private checkCap(from: string, to: string, bytes: number, cap: UnreadCap): void {
    const row = this.store.db
      .prepare("SELECT count(*) AS n, coalesce(sum(length(CAST(text AS BLOB))), 0) AS b FROM messages WHERE recipient = ? AND sender = ? AND read_at IS NULL")
      .get(to, from) as { n: number; b: number };
    if (row.n + 1 > cap.messages || row.b + bytes > cap.bytes) {
      throw new HiveError("invalid", `${to} has ${row.n} unread messages (${Math.ceil(row.b / 1024)} KiB) from ${from}, the most one sender may leave unread (${cap.messages} / ${Math.ceil(cap.bytes / 1024)} KiB); nothing was kept`);
    }
  }

  /** An agent's messages, oldest first; marks them read unless told not to. */
  read(agent: string, options: ReadOptions = {}): MailMessage[] {
    const unreadOnly = options.unreadOnly ?? true;
    const markRead = options.markRead ?? true;
    const limit = Math.min(Math.max(1, Math.floor(options.limit ?? 50)), 500);
    const run = () => {
      this.agents.get(agent);
      const rows = this.store.db
        .prepare(
          `SELECT * FROM messages WHERE recipient = ? ${unreadOnly ? "AND read_at IS NULL" : ""} ORDER BY id LIMIT ?`,
        )
        .all(agent, limit) as MessageRow[];
      const messages = rows.map(toMessage);
      if (markRead) {
        const now = Date.now();
        const mark = this.store.db.prepare("UPDATE messages SET read_at = ? WHERE id = ? AND read_at IS NULL");
        for (const m of messages) {
          if (m.readAt === null) {
            mark.run(now, m.id);
            m.readAt = now;
          }
        }
      }
      return messages;
    };
    // Marking read is a write: take the write lock so two readers cannot both claim "unread".
    return markRead ? this.store.write(run) : this.store.read(run);
  }

  unreadCount(agent: string): number {
    return this.store.read(() => {
      this.agents.get(agent);
      const row = this.store.db
        .prepare("SELECT count(*) AS n FROM messages WHERE recipient = ? AND read_at IS NULL")
        .get(agent) as { n: number };
      return row.n;
    });
  }
}
