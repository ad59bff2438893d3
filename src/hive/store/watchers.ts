// Watchers: a regex per target, persisted, so every termhive process (and a restarted one)
// watches the same things. The service runs them over new output lines and appends a `watch`
// event per hit; this file only stores them and refuses a pattern that would not compile.
//
// Patterns are JavaScript regexes. Flags are limited to i, m, s, u: `g` and `y` make a RegExp
// stateful (lastIndex), which would make one line's match depend on the previous line.
// Running them under a time bound (runaway backtracking) is the service's job — see DESIGN.md.
import { SafeRegex } from "../../util/regex.js";
import type { HiveStore } from "./store.js";
import type { EventLog } from "./event-log.js";
import type { TargetSpec } from "./targets.js";
import { HiveError, unknownName } from "./errors.js";

export const MAX_WATCH_PATTERN = 1000;
const ALLOWED_FLAGS = /^[imsu]*$/;

export interface WatcherRecord {
  id: number;
  target: TargetSpec;
  pattern: string;
  flags: string;
  label: string | null;
  createdAt: number;
}

interface WatcherRow {
  id: number;
  target: string;
  pattern: string;
  flags: string;
  label: string | null;
  created_at: number;
}

const toWatcher = (r: WatcherRow): WatcherRecord => ({
  id: r.id,
  target: JSON.parse(r.target) as TargetSpec,
  pattern: r.pattern,
  flags: r.flags,
  label: r.label,
  createdAt: r.created_at,
});

/** Compiles a watch pattern or throws an error naming it and what is wrong. */
export function compileWatchPattern(pattern: string, flags = ""): SafeRegex {
  if (typeof pattern !== "string" || pattern.length === 0) {
    throw new HiveError("invalid", "watch pattern must be a non-empty string");
  }
  if (pattern.length > MAX_WATCH_PATTERN) {
    throw new HiveError("invalid", `watch pattern is ${pattern.length} characters; the limit is ${MAX_WATCH_PATTERN}`);
  }
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    throw new HiveError("invalid", `watch flags '${flags}' are not allowed; use any of i, m, s, u once each`);
  }
  try {
    return new SafeRegex(pattern, "watch", flags);
  } catch (err) {
    throw new HiveError("invalid", (err as Error).message);
  }
}

export class Watchers {
  constructor(
    private readonly store: HiveStore,
    private readonly events: EventLog,
  ) {}

  /** Adds a watcher. The target spec is stored as given and resolved each time it is used,
   *  so "team:backend" keeps covering agents that join the team later. */
  add(input: { target: TargetSpec; pattern: string; flags?: string; label?: string | null }): WatcherRecord {
    const flags = input.flags ?? "";
    compileWatchPattern(input.pattern, flags);
    if (input.target === undefined || input.target === null) throw new HiveError("invalid", "a watcher needs a target");
    return this.store.write(() => {
      const createdAt = Date.now();
      const info = this.store.db
        .prepare("INSERT INTO watchers (target, pattern, flags, label, created_at) VALUES (?, ?, ?, ?, ?)")
        .run(JSON.stringify(input.target), input.pattern, flags, input.label ?? null, createdAt);
      const watcher: WatcherRecord = {
        id: Number(info.lastInsertRowid),
        target: input.target,
        pattern: input.pattern,
        flags,
        label: input.label ?? null,
        createdAt,
      };
      this.events.append({ kind: "lifecycle", data: { event: "watcher_added", watcher: watcher.id, pattern: input.pattern } });
      return watcher;
    });
  }

  list(): WatcherRecord[] {
    const rows = this.store.read(() => this.store.db.prepare("SELECT * FROM watchers ORDER BY id").all()) as WatcherRow[];
    return rows.map(toWatcher);
  }

  get(id: number): WatcherRecord {
    const row = this.store.read(() => this.store.db.prepare("SELECT * FROM watchers WHERE id = ?").get(id)) as WatcherRow | undefined;
    if (!row) throw unknownName("watcher", String(id), this.list().map((w) => String(w.id)));
    return toWatcher(row);
  }

  remove(id: number): WatcherRecord {
    return this.store.write(() => {
      const watcher = this.get(id);
      this.store.db.prepare("DELETE FROM watchers WHERE id = ?").run(id);
      this.events.append({ kind: "lifecycle", data: { event: "watcher_removed", watcher: id } });
      return watcher;
    });
  }

  /** Records a hit as a `watch` event (the service calls this when a watcher matches a line). */
  /** A stored watcher whose pattern no longer compiles (stored by an older termhive) is off, and says why once. */
  recordDisabled(watcher: WatcherRecord, reason: string): void {
    this.events.append({
      kind: "watch",
      sessionId: null,
      agent: null,
      data: { watcher: watcher.id, label: watcher.label, pattern: watcher.pattern, disabled: true, reason: reason.slice(0, 500) },
    });
  }

  recordHit(watcher: WatcherRecord, hit: { sessionId: string; agent?: string | null; line: string; match: string }): void {
    this.events.append({
      kind: "watch",
      sessionId: hit.sessionId,
      agent: hit.agent ?? null,
      // Lines are bounded so one huge line cannot bloat the event log.
      data: { watcher: watcher.id, label: watcher.label, pattern: watcher.pattern, line: hit.line.slice(0, 500), match: hit.match.slice(0, 200) },
    });
  }
}
