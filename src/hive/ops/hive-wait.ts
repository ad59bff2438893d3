// hive_wait: block until targets are idle / waiting for input / exited / show a pattern.
//
// Wake-ups, in-process and event-driven: a status change recorded here (Crew.onAgentChanged)
// and the target sessions' own screen/exit events. Status written by *another* process (the
// `termhive status` CLI, a second MCP server) has no in-process event: SQLite cannot notify
// across processes, so the newest event id is polled every CROSS_PROCESS_POLL_MS (one indexed
// read of sqlite_sequence) — the one timer here, for that reason only.
//
// A pattern is matched off the event loop when the text is long (SafeRegex.execAsync), one
// check at a time: a wake-up during a check asks for one more after it, never a pile of them.
import type { SafeRegex } from "../../util/regex.js";
import { CallCancelledError, livenessProbe } from "../../terminal/waits/watch.js";
import { DisposableStore } from "../../util/lifecycle.js";
import type { Hive, ResolvedTarget, AgentRecord } from "../index.js";
import { detectStatus } from "../index.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import type { SessionRegistry } from "../../terminal/live/registry.js";
import type { Event } from "../../util/event.js";
import { stripAnsi } from "../../util/ansi.js";
import { drawnText } from "../../output/clean.js";
import { RegexTimeoutError } from "../../util/regex-worker.js";
import { ToolError } from "../../util/tool-error.js";

const CROSS_PROCESS_POLL_MS = 50;

export type WaitFor = "idle" | "waiting_for_input" | "pattern" | "exited";

export interface HiveWaitTarget {
  session: string;
  name: string;
  agents: { name: string; status: string; detail: string | null }[];
  met: boolean;
  detail: string;
}

export interface HiveWaitResult {
  matched: boolean;
  reason: "condition" | "timeout";
  for: WaitFor;
  mode: "any" | "all";
  elapsed_ms: number;
  targets: HiveWaitTarget[];
}

function endedHow(s: TerminalSession): string {
  return s.exitSignal !== null ? `its program was killed by signal ${s.exitSignal}` : `its program exited (exit status ${s.exitStatus ?? "unknown"})`;
}

export async function hiveWait(
  deps: { hive: Hive; registry: SessionRegistry; onAgentChanged: Event<AgentRecord>; held?: (agent: AgentRecord) => boolean },
  resolved: ResolvedTarget[],
  options: { for: WaitFor; pattern?: SafeRegex; mode: "any" | "all"; timeoutMs: number; signal?: AbortSignal },
): Promise<HiveWaitResult> {
  const started = Date.now();
  const sessions = new Map<string, TerminalSession | undefined>();
  const startOffsets = new Map<string, number>();
  for (const t of resolved) {
    const s = deps.registry.byId(t.sessionId);
    sessions.set(t.sessionId, s);
    // A pattern counts if it is on screen now or printed after the wait began.
    if (s) startOffsets.set(t.sessionId, s.transcript.end);
  }

  const checkOne = async (t: ResolvedTarget): Promise<HiveWaitTarget> => {
    const s = sessions.get(t.sessionId);
    const agents: AgentRecord[] = t.agents.map((n) => deps.hive.agents.find(n)).filter((a): a is AgentRecord => a !== undefined);
    const view = agents.map((a) => ({ name: a.name, status: a.status, detail: a.statusDetail }));
    const base = { session: t.sessionId, name: t.sessionName, agents: view };
    const alive = s !== undefined && s.alive && !s.goneReason;
    switch (options.for) {
      case "exited": {
        const met = !alive || (agents.length > 0 && agents.every((a) => a.status === "exited"));
        return { ...base, met, detail: met ? "exited" : "running" };
      }
      case "pattern": {
        if (!s || s.goneReason) return { ...base, met: false, detail: "session is gone" };
        const fresh = stripAnsi(s.printedText(startOffsets.get(t.sessionId) ?? s.transcript.end));
        const screen = s.screen.printedLines().join("\n");
        const m = (await options.pattern!.execAsync(fresh)) ?? (await options.pattern!.execAsync(screen));
        return { ...base, met: m !== null, detail: m ? `matched ${JSON.stringify(drawnText(m.text).slice(0, 200))}` : "no match yet" };
      }
      default: {
        if (agents.length > 0) {
          // `held`: idle on screen, but a message typed to it has not had its turn yet.
          const held = (a: AgentRecord) => options.for === "idle" && a.status === "idle" && deps.held !== undefined && deps.held(a);
          const hit = agents.find((a) => a.status === options.for && !held(a));
          return { ...base, met: hit !== undefined, detail: agents.map((a) => `${a.name}: ${a.status}${held(a) ? " (a message it was sent is not done yet)" : ""}`).join(", ") };
        }
        // A plain session without an agent: judge it as a shell would be judged.
        if (!alive) return { ...base, met: false, detail: "exited" };
        const d = detectStatus(deps.hive.profiles.get("shell"), { screenLines: s!.screen.printedLines(), quietMs: Date.now() - s!.lastOutputAt });
        return { ...base, met: d.status === options.for, detail: `${d.status} (${d.detail})` };
      }
    }
  };

  const evaluate = async (): Promise<HiveWaitTarget[] | undefined> => {
    const results = await Promise.all(resolved.map(checkOne));
    const met = options.mode === "all" ? results.every((r) => r.met) : results.some((r) => r.met);
    return met ? results : undefined;
  };

  /**
   * Why the wait can no longer be met, when it cannot: its targets' panes are gone (the tmux
   * server died, the pane was closed) for a condition only a live pane can meet. "exited" is met
   * by a gone pane, so it never fails here. Waiting out the timeout would only hide the cause.
   */
  const impossible = (afterCheck: boolean): string | undefined => {
    if (options.for === "exited") return undefined;
    const ended = (t: ResolvedTarget, s: TerminalSession | undefined): string | null => {
      // An unknown session can still show agent status written by another process; only a
      // pattern needs the pane itself.
      if (s === undefined) {
        if (options.for === "pattern") return "no such session";
      } else if (s.goneReason !== null) return s.goneReason;
      // A pane whose program exited (the pane kept for reading) takes no more turns: no status
      // will change and nothing more is printed. Judged after a check, so a pattern already in
      // its last output still matches. An agent recorded "exited" by any process counts too
      // (a wait here ends on an exit only another process saw).
      if (!afterCheck) return null;
      if (s !== undefined && !s.alive) return endedHow(s);
      const agents = t.agents.map((n) => deps.hive.agents.find(n)).filter((a): a is AgentRecord => a !== undefined);
      if (agents.length > 0 && agents.every((a) => a.status === "exited")) return `its program exited${agents[0]!.statusDetail ? ` (${agents[0]!.statusDetail})` : ""}`;
      return null;
    };
    const gone = resolved.map((t) => ({ t, why: ended(t, sessions.get(t.sessionId)) })).filter((g) => g.why !== null);
    const hopeless = options.mode === "all" ? gone.length > 0 : gone.length === resolved.length && gone.length > 0;
    if (!hopeless) return undefined;
    const why = gone.map(({ t, why }) => `${t.sessionName}: ${why}`).join("; ");
    return `hive_wait for ${options.for} cannot be met any more — ${why}`;
  };

  return new Promise((resolve, reject) => {
    let done = false;
    let lastCursor = deps.hive.events.latestCursor();
    const cleanups: (() => void)[] = [];
    const finish = (results: HiveWaitTarget[], matched: boolean) => {
      if (done) return;
      done = true;
      for (const c of cleanups) c();
      resolve({ matched, reason: matched ? "condition" : "timeout", for: options.for, mode: options.mode, elapsed_ms: Date.now() - started, targets: results });
    };
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      for (const c of cleanups) c();
      reject(error);
    };
    let checking = false;
    let again = false;
    const check = () => {
      if (done) return;
      if (checking) {
        again = true;
        return;
      }
      const cannot = impossible(false);
      if (cannot) return fail(new ToolError(cannot, "dead"));
      checking = true;
      evaluate()
        .then(
          (r) => {
            if (r) return finish(r, true);
            const ended = impossible(true);
            if (ended) fail(new ToolError(ended, "dead"));
          },
          (error: Error) => {
            // A pattern too costly even for the worker's time answers with that error (as
            // terminal_wait does); a store briefly locked is re-checked at the next wake-up.
            if (error instanceof RegexTimeoutError) fail(error);
          },
        )
        .finally(() => {
          checking = false;
          if (again) {
            again = false;
            check();
          }
        });
    };
    const onChange = () => check();
    const subscription = deps.onAgentChanged(onChange);
    cleanups.push(() => subscription.dispose());
    // Quiet-based shell detection (no agent) needs re-checks when output stops: the tracker's
    // own timers do that for agents; for plain sessions the screen events plus the poll suffice.
    for (const s of sessions.values()) {
      if (!s) continue;
      const wiring = new DisposableStore();
      wiring.add(s.onScreenChanged(onChange));
      if (options.for === "pattern") wiring.add(s.onOutput(onChange));
      wiring.add(s.onExited(onChange));
      wiring.add(s.onClosed(onChange));
      cleanups.push(() => wiring.dispose());
    }
    // A pane whose exit tmux has not reported (see livenessProbe) must still count as exited.
    const probes = options.for === "exited" ? [...sessions.values()].filter((s) => s !== undefined).map((s) => livenessProbe(s!)) : [];
    const poll = setInterval(() => {
      for (const probe of probes) void probe();
      try {
        const cursor = deps.hive.events.latestCursor();
        if (cursor !== lastCursor || options.for === "idle" || options.for === "waiting_for_input") {
          lastCursor = cursor;
          check();
        }
      } catch {
        // locked: try again next tick
      }
    }, CROSS_PROCESS_POLL_MS);
    cleanups.push(() => clearInterval(poll));
    const deadline = setTimeout(() => {
      Promise.all(resolved.map(checkOne)).then((results) => finish(results, false), fail);
    }, options.timeoutMs);
    cleanups.push(() => clearTimeout(deadline));
    const cancelled = () => fail(new CallCancelledError());
    options.signal?.addEventListener("abort", cancelled);
    cleanups.push(() => options.signal?.removeEventListener("abort", cancelled));
    if (options.signal?.aborted) return cancelled();
    check();
  });
}
