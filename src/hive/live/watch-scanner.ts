// Runs the hive's regex watchers over every session's new output, line by line, and records a
// `watch` event per hit. Driven by the registry's output events (no polling); the watcher list
// is re-read from the store at most once per WATCHERS_TTL_MS so watchers added by another
// termhive process start matching here too. The lines are taken from the transcript as the
// output comes, and matched after, in order, off the output event: paced (RegexPacer), so a
// costly watcher pattern over a flood of long lines never holds other clients' calls.
import type { SafeRegex } from "../../util/regex.js";
import type { Hive, WatcherRecord } from "../index.js";
import { compileWatchPattern } from "../index.js";
import type { Disposable } from "../../util/lifecycle.js";
import type { SessionRegistry } from "../../terminal/live/registry.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { replayTerminal } from "../../output/screen.js";
import { RegexPacer } from "../../util/regex-pacer.js";

const WATCHERS_TTL_MS = 1000;
/** A line longer than this is cut before matching (bounded regex work per line). */
const MAX_LINE = 4000;
/** Characters of lines taken and not yet matched, at most: past it, a flood's further lines are not matched. */
const MAX_PENDING_CHARS = 8 * 1024 * 1024;

interface Compiled {
  record: WatcherRecord;
  regex: SafeRegex;
  sessions: Set<string>;
}

/** One output chunk's whole lines, to match against the watchers that cover its session. */
interface Batch {
  sessionId: string;
  agent: string | null;
  lines: string[];
  chars: number;
  watchers: Compiled[];
}

export class WatchScanner {
  private compiled: Compiled[] = [];
  private loadedAt = 0;
  /** Watchers found not to compile, already reported by an event. */
  private readonly disabled = new Set<number>();
  /** Per session: transcript offset scanned up to (start of the unfinished line). */
  private readonly offsets = new Map<string, number>();
  private readonly subscription: Disposable;
  private readonly batches: Batch[] = [];
  private pendingChars = 0;
  private draining = false;
  private readonly pacer = new RegexPacer();

  constructor(
    private readonly hive: Hive,
    private readonly registry: SessionRegistry,
  ) {
    this.subscription = registry.onOutput(({ session, data }) => this.onOutput(session, data));
  }

  dispose(): void {
    this.subscription.dispose();
    this.batches.length = 0;
    this.pendingChars = 0;
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
    const lines: string[] = [];
    let chars = 0;
    // What the program printed (not the echo of input), each line as it stands once drawn:
    // a carriage return's overwrite and a backspace applied, escapes gone.
    const printed = replayTerminal(session.printedText(from, from + lastNl));
    for (let row = 0; row < printed.count; row++) {
      const line = printed.text(row).trimEnd().slice(0, MAX_LINE);
      if (line.trim() === "") continue;
      lines.push(line);
      chars += line.length;
    }
    if (lines.length === 0) return;
    if (this.pendingChars + chars > MAX_PENDING_CHARS) return;
    this.pendingChars += chars;
    this.batches.push({ sessionId: session.id, agent: agents[0] ?? null, lines, chars, watchers: relevant });
    void this.drain();
  }

  /** Matches the taken lines in order, one batch after another. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let batch = this.batches.shift(); batch; batch = this.batches.shift()) {
        this.pendingChars -= batch.chars;
        for (const line of batch.lines) {
          for (const c of batch.watchers) {
            try {
              const m = await this.pacer.exec(c.regex, line);
              if (m) this.hive.watchers.recordHit(c.record, { sessionId: batch.sessionId, agent: batch.agent, line, match: m.text });
            } catch {
              // A match stopped at its time limit, or the store briefly locked or gone: this hit is lost, the next lines are still matched.
            }
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }
}
