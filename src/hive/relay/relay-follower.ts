// Applies what the in-pane `termhive` of a sandboxed agent left in its relay folder
// (sandbox/relay.ts): messages, self-reported statuses and hook statuses, always as the agent
// bound to that pane. Watched with fs.watch (an event per new file), drained once when a pane
// is first followed (requests left while no server ran). The program in the pane controls
// that folder and the pace of its events: nothing it does may stop this process, so every
// error here is caught and audited, and drains are paced.
import { watch, type FSWatcher } from "node:fs";
import { applyHookReport, parseStatusArgs, type Hive } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { makeRelayDir, relayDir, removeRelayDir, takeRelayRequests, type RelayRequest } from "../../sandbox/relay.js";
import type { AuditLog } from "../../audit.js";
import { traced } from "../../util/traced.js";
import { AGENT_STATUSES, type AgentStatus } from "../index.js";
import { RELAY_UNREAD_CAP, RelayMailPace } from "./relay-mail-bound.js";

/**
 * Drains of one folder are this far apart at least, and at least as far as the last one took:
 * a program renaming or making files in a loop sends thousands of events a second, and each
 * would be a pass over the folder; so its folder takes at most half of this process's time.
 * A request waits at most this long more.
 */
const DRAIN_GAP_MS = 50;
/** Audit lines about refused files, per drain; the rest are counted in one more line. */
const AUDIT_LINES_PER_DRAIN = 10;

export class RelayFollower {
  private readonly watchers = new Map<string, FSWatcher>();
  /** The pane's name, the sender of the mail of a pane no agent is bound to. */
  private readonly names = new Map<string, string>();
  private readonly scheduled = new Map<string, NodeJS.Timeout>();
  /** When the next drain of a folder may start. */
  private readonly nextDrainAt = new Map<string, number>();
  private readonly mailPace = new RelayMailPace();

  constructor(
    private readonly hive: Hive,
    private readonly home: string,
    /** Where a refused request file (over the bounds, malformed, not a request) is told. */
    private readonly audit?: AuditLog,
  ) {}

  /** Follows a local sandboxed pane's relay folder (other panes have none). */
  follow(session: TerminalSession): void {
    if (!session.meta.sandbox || session.meta.host || this.watchers.has(session.id)) return;
    this.names.set(session.id, session.name);
    const dir = relayDir(this.home, session.id);
    try {
      makeRelayDir(this.home, session.id);
      const watcher = watch(dir, () => this.schedule(session.id, dir));
      watcher.on("error", (error) => this.failed(session.id, "watching the relay folder", error));
      this.watchers.set(session.id, watcher);
    } catch (error) {
      this.failed(session.id, "watching the relay folder", error);
    }
    this.drain(session.id, dir);
  }

  unfollow(sessionId: string): void {
    this.watchers.get(sessionId)?.close();
    this.watchers.delete(sessionId);
    clearTimeout(this.scheduled.get(sessionId));
    this.scheduled.delete(sessionId);
    this.nextDrainAt.delete(sessionId);
  }

  /** The followed panes not in `live` are gone: what they left is applied, then their folder removed. */
  forgetGone(live: ReadonlySet<string>): void {
    for (const id of [...this.watchers.keys()]) {
      if (live.has(id)) continue;
      this.unfollow(id);
      const dir = relayDir(this.home, id);
      this.drain(id, dir);
      try {
        if (!removeRelayDir(dir)) this.audit?.write({ event: "relay-error", session: id, error: "the folder of a closed pane could not be removed whole; the next server that sees it gone tries again" });
      } catch (error) {
        this.failed(id, "removing the relay folder of a closed pane", error);
      }
      this.names.delete(id);
      this.nextDrainAt.delete(id);
      this.mailPace.forget(id);
    }
  }

  dispose(): void {
    for (const id of [...this.watchers.keys()]) this.unfollow(id);
  }

  /** An error of this follower: audited (and traced), never thrown into the event loop. */
  private failed(sessionId: string, what: string, error: unknown): void {
    traced(`${what} of session ${sessionId}`)(error);
    try {
      this.audit?.write({ event: "relay-error", session: sessionId, error: `${what}: ${error instanceof Error ? error.message : String(error)}` });
    } catch {
      // the audit log swallows its own failures; nothing more to tell
    }
  }

  private schedule(sessionId: string, dir: string): void {
    if (this.scheduled.has(sessionId) || !this.watchers.has(sessionId)) return;
    const wait = Math.max(0, (this.nextDrainAt.get(sessionId) ?? 0) - Date.now());
    this.scheduled.set(sessionId, setTimeout(() => {
      this.scheduled.delete(sessionId);
      this.drain(sessionId, dir);
    }, wait));
  }

  private drain(sessionId: string, dir: string): void {
    const started = Date.now();
    let more = false;
    try {
      const taken = takeRelayRequests(dir);
      const { requests, refused } = taken;
      more = taken.more;
      const agent = requests.length > 0 ? this.hive.agents.bySession(sessionId)[0]?.name : undefined;
      for (const request of requests) {
        let refusal: string | null;
        try {
          refusal = this.apply(sessionId, agent, request);
        } catch (error) {
          refusal = `not applied: ${error instanceof Error ? error.message : String(error)}`;
        }
        if (refusal) refused.push({ file: `(a ${request.kind} request)`, bytes: request.kind === "msg" ? Buffer.byteLength(request.text) : 0, reason: refusal });
      }
      for (const r of refused.slice(0, AUDIT_LINES_PER_DRAIN)) this.audit?.write({ event: "relay-refused", session: sessionId, file: r.file, bytes: r.bytes, reason: r.reason });
      if (refused.length > AUDIT_LINES_PER_DRAIN) this.audit?.write({ event: "relay-refused", session: sessionId, more: refused.length - AUDIT_LINES_PER_DRAIN, reason: "more refused in the same pass" });
    } catch (error) {
      this.failed(sessionId, "reading the relay folder", error);
    } finally {
      const took = Date.now() - started;
      this.nextDrainAt.set(sessionId, Date.now() + Math.max(DRAIN_GAP_MS, took));
    }
    // A bounded pass left some: the next one is due whether or not an event comes.
    if (more) this.schedule(sessionId, dir);
  }

  /** Applies one request; why it was not, or null. */
  private apply(sessionId: string, agent: string | undefined, r: RelayRequest): string | null {
    if (r.kind === "msg") {
      const overPace = this.mailPace.admit(sessionId, Buffer.byteLength(r.text));
      if (overPace) return overPace;
      // A pane no agent is bound to is named by its pane ("pane:" is no agent name): never taken for the user.
      this.hive.mailbox.send(agent ?? `pane:${this.names.get(sessionId) ?? sessionId}`, r.to, r.text, RELAY_UNREAD_CAP);
      return null;
    }
    if (!agent) return null; // statuses belong to an agent; a plain sandboxed pane has none
    if (r.kind === "status") {
      this.hive.applySelfStatus(agent, { ...parseStatusArgs(r.args), agent: undefined });
      return null;
    }
    // The request comes from inside the sandbox: checked again here.
    if (!(AGENT_STATUSES as readonly string[]).includes(r.status) || r.status === "starting") return null;
    applyHookReport(this.hive, agent, { ...r, status: r.status as AgentStatus });
    return null;
  }
}
