// Applies what the in-pane `termhive` of a sandboxed agent left in its relay folder
// (sandbox/relay.ts): messages, self-reported statuses and hook statuses, always as the agent
// bound to that pane. Watched with fs.watch (an event per new file), drained once when a pane
// is first followed (requests left while no server ran).
import { watch, type FSWatcher } from "node:fs";
import { hookIsStale, hookWaitingLeftToScreen, parseStatusArgs, type Hive } from "../index.js";
import type { TerminalSession } from "../../terminal/session.js";
import { makeRelayDir, relayDir, removeRelayDir, takeRelayRequests, type RelayRequest } from "../../sandbox/relay.js";
import type { AuditLog } from "../../audit.js";
import { traced } from "../../util/traced.js";
import { AGENT_STATUSES, type AgentStatus } from "../index.js";

export class RelayFollower {
  private readonly watchers = new Map<string, FSWatcher>();

  constructor(
    private readonly hive: Hive,
    private readonly home: string,
    /** Where a refused request file (over the bounds, malformed, not a request) is told. */
    private readonly audit?: AuditLog,
  ) {}

  /** Follows a local sandboxed pane's relay folder (other panes have none). */
  follow(session: TerminalSession): void {
    if (!session.meta.sandbox || session.meta.host || this.watchers.has(session.id)) return;
    const dir = makeRelayDir(this.home, session.id);
    try {
      const watcher = watch(dir, () => this.drain(session.id, dir));
      watcher.on("error", traced(`watching the relay folder of ${session.name}`));
      this.watchers.set(session.id, watcher);
    } catch (error) {
      traced(`watching the relay folder of ${session.name}`)(error);
    }
    this.drain(session.id, dir);
  }

  unfollow(sessionId: string): void {
    this.watchers.get(sessionId)?.close();
    this.watchers.delete(sessionId);
  }

  /** The followed panes not in `live` are gone: what they left is applied, then their folder removed. */
  forgetGone(live: ReadonlySet<string>): void {
    for (const id of [...this.watchers.keys()]) {
      if (live.has(id)) continue;
      this.unfollow(id);
      const dir = relayDir(this.home, id);
      this.drain(id, dir);
      removeRelayDir(dir);
    }
  }

  dispose(): void {
    for (const id of [...this.watchers.keys()]) this.unfollow(id);
  }

  private drain(sessionId: string, dir: string): void {
    const { requests, refused } = takeRelayRequests(dir);
    for (const r of refused) this.audit?.write({ event: "relay-refused", session: sessionId, file: r.file, bytes: r.bytes, reason: r.reason });
    if (requests.length === 0) return;
    const agent = this.hive.agents.bySession(sessionId)[0]?.name;
    for (const request of requests) {
      try {
        this.apply(agent, request);
      } catch (error) {
        traced(`a relayed ${request.kind} from session ${sessionId}`)(error);
      }
    }
  }

  private apply(agent: string | undefined, r: RelayRequest): void {
    if (r.kind === "msg") {
      this.hive.mailbox.send(agent ?? "user", r.to, r.text);
      return;
    }
    if (!agent) return; // statuses belong to an agent; a plain sandboxed pane has none
    if (r.kind === "status") {
      this.hive.applySelfStatus(agent, { ...parseStatusArgs(r.args), agent: undefined });
      return;
    }
    // The request comes from inside the sandbox: checked again here.
    if (!(AGENT_STATUSES as readonly string[]).includes(r.status) || r.status === "starting") return;
    // A hook's end reported for a turn older than the message typed since: not this turn's end.
    if (r.status === "idle" && hookIsStale(this.hive.turns.get(agent), r.firedAt)) return;
    if (hookWaitingLeftToScreen(this.hive.profiles.find(this.hive.agents.get(agent).profile), r.status)) return;
    this.hive.agents.setStatus(agent, r.status as AgentStatus, { detail: r.detail, source: "hook" });
    if (r.endsTurn) this.hive.turns.cancel([agent]);
  }
}
