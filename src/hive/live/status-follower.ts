// The status tracker's following job: statuses other processes write (`termhive hook`,
// `termhive status`, a second server) have no in-process event. The store's newest event id is
// read when its WAL file changes and at least every FOLLOW_MS while sessions are tracked (one
// indexed read); a followed status is checked against the screen (a dialog on screen beats a
// hook's idle) before the displays show it and it is announced. It also keeps each session's
// agents as last read (agentsOf), valid until a write of this process or another's.
import { watch, type FSWatcher } from "node:fs";
import type { AgentRecord } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import type { StatusPort } from "./status-port.js";

/** The longest another process's status waits to be seen where the WAL file gives no change event. */
const FOLLOW_MS = 250;

/** The sessions the tracker follows, as this job needs them. */
export interface FollowedSessions {
  ids(): readonly string[];
  session(sessionId: string): TerminalSession | undefined;
  /** Judges the session's screen now (ScreenDetection.evaluate). */
  judge(sessionId: string): void;
}

export class StoreFollower {
  private follower: NodeJS.Timeout | null = null;
  private followedCursor = 0;
  private walWatcher: FSWatcher | null = null;
  private walWake: NodeJS.Immediate | null = null;
  /**
   * Per tracked session, its agents as last read from the store: a screen changes many times a
   * second in every pane, the agents bound to it hardly ever. Kept only while following the
   * store, and dropped whole when this process changes an agent (HiveStore.writesTo) or another
   * process commits anything (data_version, looked at when followStore wakes: on the WAL
   * file's change, FOLLOW_MS at worst). A status judged on a view that another process's
   * write made stale is not written (setStatus's `judged`): it is judged again on the row.
   */
  private readonly views = new Map<string, readonly AgentRecord[]>();
  private viewsAt = { ours: -1, others: -1 };
  private othersVersion = -1;

  constructor(
    private readonly port: Pick<StatusPort, "hive" | "isNews" | "title" | "announce">,
    private readonly sessions: FollowedSessions,
  ) {}

  /** Starts following statuses other processes write (once, while this process tracks sessions). */
  ensureFollowing(): void {
    if (this.follower) return;
    try {
      this.followedCursor = this.port.hive.events.latestCursor();
      this.noticeOthersWrites();
    } catch {
      return; // store unavailable: the next schedule retries
    }
    this.follower = setInterval(() => this.followStore(), FOLLOW_MS);
    this.follower.unref();
    this.watchWal();
  }

  stop(): void {
    if (this.follower) clearInterval(this.follower);
    this.follower = null;
    this.unwatchWal();
  }

  /** The session's agents (see `views`): the caller judges them, never changes them. */
  agentsOf(sessionId: string): readonly AgentRecord[] {
    const ours = this.port.hive.store.writesTo("agents");
    if (ours !== this.viewsAt.ours || this.othersVersion !== this.viewsAt.others) {
      this.views.clear();
      this.viewsAt = { ours, others: this.othersVersion };
    }
    const kept = this.views.get(sessionId);
    if (kept) return kept;
    let agents: AgentRecord[];
    try {
      agents = this.port.hive.agents.bySession(sessionId);
    } catch {
      return []; // store closed or locked: the next event retries
    }
    // Without following, another process's change would go unseen: read every time then.
    if (this.follower && this.sessions.session(sessionId)) this.views.set(sessionId, agents);
    return agents;
  }

  /** The session's kept view goes (it was judged stale, or the session is no longer followed). */
  forget(sessionId: string): void {
    this.views.delete(sessionId);
  }

  /**
   * Another process's write lands in the store's write-ahead log: watching that file wakes the
   * follower at once instead of at its next tick (a Stop hook's idle reaches hive_wait up to
   * FOLLOW_MS sooner). The tick stays, for a file system without change events.
   */
  private watchWal(): void {
    if (this.walWatcher) return;
    try {
      this.walWatcher = watch(`${this.port.hive.store.path}-wal`, { persistent: false }, () => {
        if (this.walWake) return;
        // One look per burst of writes (a transaction writes several pages).
        this.walWake = setImmediate(() => {
          this.walWake = null;
          this.followStore();
        });
      });
      this.walWatcher.on("error", () => this.unwatchWal());
    } catch {
      this.walWatcher = null; // no WAL file or no inotify: the tick alone
    }
  }

  private unwatchWal(): void {
    this.walWatcher?.close();
    this.walWatcher = null;
    if (this.walWake) clearImmediate(this.walWake);
    this.walWake = null;
  }

  /** Another process committed since the last look: the views may be stale (see `views`). */
  private noticeOthersWrites(): void {
    this.othersVersion = this.port.hive.store.dataVersion();
  }

  /** Looks at the store once: what other processes wrote for the followed sessions is shown and announced. */
  followStore(): void {
    const followed = this.sessions.ids();
    if (followed.length === 0) return;
    let events;
    try {
      const moved = this.port.hive.events.latestCursor() !== this.followedCursor;
      const r = moved ? this.port.hive.events.since(this.followedCursor, { kinds: ["status"], sessionIds: [...followed], limit: 1000 }) : undefined;
      // After the events are read: every commit they came from counts, so the views below are newer.
      this.noticeOthersWrites();
      if (!r) return;
      this.followedCursor = r.cursor;
      events = r.events;
    } catch {
      return;
    }
    const sessions = new Set(events.map((e) => e.sessionId).filter((id): id is string => id !== null && id !== undefined));
    for (const id of sessions) {
      const session = this.sessions.session(id);
      if (!session) continue;
      // The screen first: a hook's idle that came while a dialog is up (Claude Code's
      // SessionStart under its start-up question) is replaced by the dialog before anyone
      // hears of it, so no waiter or queued message takes the agent for idle meanwhile.
      this.sessions.judge(id);
      const fresh = this.agentsOf(id).filter((a) => this.port.isNews(a));
      if (fresh.length === 0) continue;
      void this.port.title(session).finally(() => {
        for (const a of fresh) this.port.announce(a);
      });
    }
  }
}
