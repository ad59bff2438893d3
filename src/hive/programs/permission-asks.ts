// Permission requests an agent's hook holds open for the hive to answer (Claude Code's
// PermissionRequest hook, run as `termhive hook PermissionRequest --wait <s>`): the hook writes
// one row and polls it until hive_answer sets its decision or it expires; it then deletes it
// (timeout: the program falls back to its own dialog) or marks it taken (answered: the program
// gets the decision as the hook's JSON, and no dialog is typed into). Any termhive process may
// answer: the row is the meeting point, as the outbox is for queued messages.
import { questionDigest } from "./question.js";
import type { HiveStore } from "../store/store.js";

export interface PermissionAsk {
  id: number;
  agent: string;
  digest: string;
  tool: string;
  summary: string;
  createdAt: number;
  expiresAt: number;
  decision: "allow" | "deny" | null;
  message: string | null;
  takenAt: number | null;
}

type Row = { id: number; agent: string; digest: string; tool: string; summary: string; created_at: number; expires_at: number; decision: "allow" | "deny" | null; message: string | null; taken_at: number | null };

const fromRow = (r: Row): PermissionAsk => ({
  id: r.id, agent: r.agent, digest: r.digest, tool: r.tool, summary: r.summary, createdAt: r.created_at,
  expiresAt: r.expires_at, decision: r.decision, message: r.message, takenAt: r.taken_at,
});

/** The longest summary of a tool's input kept (a command line, a file path). */
const MAX_SUMMARY = 300;

/** What a person needs to judge a tool call: Bash's command, a file tool's path, else its input as JSON. */
export function summarizeToolInput(input: unknown): string {
  const o = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const text = typeof o.command === "string" ? o.command : typeof o.file_path === "string" ? o.file_path : typeof o.url === "string" ? o.url : JSON.stringify(input ?? {});
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat;
}

export class PermissionAsks {
  constructor(private readonly store: HiveStore) {}

  open(agent: string, tool: string, summary: string, waitMs: number, now = Date.now()): PermissionAsk {
    return this.store.write(() => {
      const db = this.store.db;
      // A newer ask supersedes the agent's older open ones (its program asks one thing at a time).
      db.prepare("DELETE FROM permission_asks WHERE agent = ? AND decision IS NULL").run(agent);
      const id = Number(db.prepare("INSERT INTO permission_asks (agent, digest, tool, summary, created_at, expires_at) VALUES (?, '', ?, ?, ?, ?)").run(agent, tool, summary, now, now + waitMs).lastInsertRowid);
      const digest = questionDigest(`permission #${id}\n${tool}\n${summary}`);
      db.prepare("UPDATE permission_asks SET digest = ? WHERE id = ?").run(digest, id);
      db.prepare("DELETE FROM permission_asks WHERE expires_at < ?").run(now - 3600_000);
      return fromRow(db.prepare("SELECT * FROM permission_asks WHERE id = ?").get(id) as Row);
    });
  }

  get(id: number): PermissionAsk | undefined {
    const row = this.store.db.prepare("SELECT * FROM permission_asks WHERE id = ?").get(id) as Row | undefined;
    return row && fromRow(row);
  }

  /** The agent's open ask (undecided, not expired), if any. */
  pending(agent: string, now = Date.now()): PermissionAsk | undefined {
    const row = this.store.db.prepare("SELECT * FROM permission_asks WHERE agent = ? AND decision IS NULL AND expires_at > ? ORDER BY id DESC LIMIT 1").get(agent, now) as Row | undefined;
    return row && fromRow(row);
  }

  /** Sets the decision of an open ask; false when it was decided, withdrawn or expired meanwhile. */
  decide(id: number, decision: "allow" | "deny", message: string | null, now = Date.now()): boolean {
    return this.store.write(() => this.store.db.prepare("UPDATE permission_asks SET decision = ?, message = ?, decided_at = ? WHERE id = ? AND decision IS NULL AND expires_at > ?").run(decision, message, now, id, now).changes === 1);
  }

  /** The hook read the decision: it is on its way to the program. */
  taken(id: number, now = Date.now()): void {
    this.store.write(() => this.store.db.prepare("UPDATE permission_asks SET taken_at = ? WHERE id = ?").run(now, id));
  }

  /** The hook gave up waiting (or the program went on): the ask is no longer open. */
  withdraw(id: number): void {
    this.store.write(() => this.store.db.prepare("DELETE FROM permission_asks WHERE id = ? AND decision IS NULL").run(id));
  }
}
