// Runs the hive's regex watchers over every session's new output, line by line, and records a
// `watch` event per hit. Driven by the registry's output events (no polling); the watcher list
// is re-read from the store at most once per WATCHERS_TTL_MS so watchers added by another
// termhive process start matching here too.
import type { SafeRegex } from "../../util/regex.js";
import type { Hive, WatcherRecord } from "../index.js";
import { compileWatchPattern } from "../index.js";
import type { Disposable } from "../../terminal/events.js";
import type { SessionRegistry } from "../../terminal/registry.js";
import type { TerminalSession } from "../../terminal/session.js";
import { stripAnsi } from "../../util/ansi.js";

const WATCHERS_TTL_MS = 1000;
/** A line longer than this is cut before matching (bounded regex work per line). */
const MAX_LINE = 4000;

interface Compiled {
  record: WatcherRecord;
  regex: SafeRegex;
  sessions: Set<string>;
}

export class WatchScanner {
  private compiled: Compiled[] = [];
  private loadedAt = 0;
  /** Watchers found not to compile, already reported by an event. */
  private readonly disabled = new Set<number>();
  /** Per session: transcript offset scanned up to (start of the unfinished line). */
  private readonly offsets = new Map<string, number>();
  private readonly subscription: Disposable;

  constructor(
    private readonly hive: Hive,
    private readonly registry: SessionRegistry,
  ) {
    this.subscription = registry.onOutput(({ session, data }) => this.onOutput(session, data));
  }

  stop(): void {
    this.subscription.dispose();
  }

  /** Forget the cache (a watcher was added or removed here). */
  invalidate(): void {
    this.loadedAt = 0;
  }

  private load(): void {
    if (Date.now() - this.loadedAt < WATCHERS_TTL_MS) return;
    this.loadedAt = Date.now();
    const sessions = this.registry.all().map((s) => ({ id: s.id, name: s.name, alive: s.alive }));
    const out: Compiled[] = [];
    for (const record of this.hive.watchers.list()) {
      let regex: SafeRegex;
      try {
        regex = compileWatchPattern(record.pattern, record.flags);
      } catch (error) {
        if (!this.disabled.has(record.id)) {
          this.disabled.add(record.id);
          this.hive.watchers.recordDisabled(record, (error as Error).message);
        }
        continue;
      }
      try {
        const { targets } = this.hive.resolveTargets(record.target, sessions);
        out.push({ record, regex, sessions: new Set(targets.map((t) => t.sessionId)) });
      } catch {
        // A watcher whose targets no longer resolve (team removed) matches nothing until they do.
      }
    }
    this.compiled = out;
  }

  private onOutput(session: TerminalSession, data: Buffer): void {
    try {
      this.load();
      if (this.compiled.length === 0) return;
    } catch {
      return;
    }
    const relevant = this.compiled.filter((c) => c.sessions.has(session.id));
    const end = session.transcript.end;
    // First output seen from this session: start at this chunk (its decoded length, near enough).
    const from = Math.max(this.offsets.get(session.id) ?? end - data.toString("utf8").length, session.transcript.start);
    if (relevant.length === 0) {
      this.offsets.set(session.id, end);
      return;
    }
    const text = session.transcript.slice(from, end).text;
    const lastNl = text.lastIndexOf("\n");
    if (lastNl === -1) {
      this.offsets.set(session.id, from);
      return;
    }
    this.offsets.set(session.id, from + lastNl + 1);
    const agents = this.hive.agents.bySession(session.id).map((a) => a.name);
    for (const raw of text.slice(0, lastNl).split("\n")) {
      const line = stripAnsi(raw).replace(/\r/g, "").slice(0, MAX_LINE);
      if (line.trim() === "") continue;
      for (const c of relevant) {
        const m = c.regex.exec(line);
        if (m) this.hive.watchers.recordHit(c.record, { sessionId: session.id, agent: agents[0] ?? null, line, match: m.text });
      }
    }
  }
}
