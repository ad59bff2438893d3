// The hive's state and events for every open page, computed once per tick whatever the
// number of pages: a snapshot (sessions, agents, teams, queue) every second, sooner when an
// agent's status changes, and new events polled from the store (other termhive processes
// append there too). Runs only while a page is connected.
import { Emitter } from "../util/event.js";
import type { Disposable } from "../util/lifecycle.js";
import type { HiveService } from "../service/hive-service.js";
import type { TermhiveService } from "../service/service.js";
import type { AgentView, EventView, ServerMessage, SessionView } from "./protocol.js";

type HiveSnapshot = Extract<ServerMessage, { t: "hive" }>;

const SNAPSHOT_MS = 1_000;
const EVENTS_MS = 250;
/** A status change is shown after this little (several changes in a burst make one snapshot). */
const CHANGE_DEBOUNCE_MS = 15;
/** Events a newly opened page is given, and kept here for pages catching up. */
export const EVENT_RING = 200;

export class HiveFeed {
  private readonly updated = new Emitter<void>();
  /** A new snapshot or new events: pages re-send what changed. */
  readonly onUpdate = this.updated.event;
  private changes: Disposable | undefined;
  private users = 0;
  private timers: NodeJS.Timeout[] = [];
  private changeTimer: NodeJS.Timeout | undefined;
  private snapshot: HiveSnapshot | undefined;
  /** Bumped with each new snapshot: pages are sent one when theirs is older. */
  private version = 0;
  private ring: EventView[] = [];
  private cursor: number | undefined;
  private running: Promise<void> | undefined;
  private rerun = false;
  private readonly onChange = () => {
    if (this.changeTimer) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      void this.refresh(true);
    }, CHANGE_DEBOUNCE_MS);
  };

  constructor(
    private readonly service: TermhiveService,
    private readonly hive: HiveService,
  ) {}

  /** The latest snapshot and events, once there are any. */
  latest(): { snapshot: HiveSnapshot | undefined; version: number; events: readonly EventView[] } {
    return { snapshot: this.snapshot, version: this.version, events: this.ring };
  }

  acquire(): void {
    if (this.users++ > 0) return;
    this.changes = this.hive.onAgentChanged(this.onChange);
    this.timers = [
      setInterval(() => void this.refresh(true), SNAPSHOT_MS),
      setInterval(() => void this.refresh(false), EVENTS_MS),
    ];
    for (const t of this.timers) t.unref();
    void this.refresh(true);
  }

  release(): void {
    if (--this.users > 0) return;
    this.changes?.dispose();
    this.changes = undefined;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (this.changeTimer) clearTimeout(this.changeTimer);
    this.changeTimer = undefined;
  }

  /** One refresh at a time; a request during one runs once more after it (never piles up). */
  private refresh(withSnapshot: boolean): Promise<void> {
    if (this.running) {
      if (withSnapshot) this.rerun = true;
      return this.running;
    }
    this.running = this.work(withSnapshot)
      .catch((error: unknown) => {
        this.snapshot = { ...(this.snapshot ?? emptySnapshot()), at: Date.now(), error: (error as Error).message };
        this.version++;
        this.updated.fire();
      })
      .finally(() => {
        this.running = undefined;
        if (this.rerun && this.users > 0) {
          this.rerun = false;
          void this.refresh(true);
        }
      });
    return this.running;
  }

  private async work(withSnapshot: boolean): Promise<void> {
    const hive = this.hive;
    let changed = false;
    if (withSnapshot) {
      this.snapshot = await this.takeSnapshot(hive);
      this.version++;
      changed = true;
    }
    if (this.cursor === undefined) this.cursor = Math.max(0, hive.hive.events.latestCursor() - EVENT_RING);
    const teamOf = new Map((this.snapshot?.agents ?? []).map((a) => [a.name, a.team]));
    const nameOf = new Map((this.snapshot?.sessions ?? []).map((v) => [v.session, v.name]));
    // Nothing new since the last read (most ticks): no query.
    for (let page = 0; page < 10 && hive.hive.events.latestCursor() !== this.cursor; page++) {
      const r = await hive.events({ since: this.cursor, limit: 500 });
      this.cursor = r.cursor;
      if (r.events.length > 0) {
        changed = true;
        this.ring.push(...r.events.map((e) => ({ id: e.id, at: e.at, kind: e.kind, agent: e.agent, team: e.agent ? (teamOf.get(e.agent) ?? null) : null, session: e.sessionId ? (nameOf.get(e.sessionId) ?? e.sessionId) : null, data: e.data })));
        if (this.ring.length > EVENT_RING) this.ring = this.ring.slice(-EVENT_RING);
      }
      if (!r.more) break;
    }
    if (changed) this.updated.fire();
  }

  private async takeSnapshot(hive: HiveService): Promise<HiveSnapshot> {
    const { sessions } = await this.service.list();
    const panes = new Map(this.service.registry.all().map((s) => [s.id, s.pane]));
    const agents = (await hive.listAgents({})).agents;
    return {
      t: "hive",
      at: Date.now(),
      sessions: sessions.map((s): SessionView => {
        const pane = panes.get(s.session);
        return {
          session: s.session, name: s.name, alive: s.alive, running: s.running, foreground: s.foreground, idle_s: s.idle_s, tui: s.tui,
          pane: s.pane, window: pane?.windowId ?? s.pane, rows: pane?.rows ?? 24, cols: pane?.cols ?? 80,
        };
      }),
      agents: agents.map((a): AgentView => ({
        name: a.name, session: a.session, session_name: a.session_name, team: a.team, profile: a.profile, status: a.status,
        detail: a.detail, source: a.source, updated_at: a.updated_at, alive: a.alive, question: a.question,
        ...(a.host ? { host: a.host } : {}),
      })),
      teams: hive.listTeams().teams.map((t) => ({ name: t.name, parent: t.parent, description: t.description, members: t.members, children: t.children })),
      queue: (await hive.queue({})).queued,
    };
  }
}

function emptySnapshot(): HiveSnapshot {
  return { t: "hive", at: Date.now(), sessions: [], agents: [], teams: [], queue: [] };
}
