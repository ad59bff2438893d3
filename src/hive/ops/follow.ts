// Following agents from a call: hive_events (the event log from a cursor), hive_wait (until
// targets reach a status or show a pattern) and hive_watch (persisted pattern watchers).
import type { SafeRegex } from "../../util/regex.js";
import { ToolError } from "../../util/tool-error.js";
import type { AgentRecord, EventKind, TargetSpec } from "../index.js";
import type { Crew } from "../live/crew.js";
import { withProgress } from "./progress.js";
import { hiveWait, type HiveWaitResult, type WaitFor } from "./hive-wait.js";
import type { TerminalCall, TerminalPort } from "./terminal-port.js";

export async function eventsSince(crew: Pick<Crew, "sync" | "hive" | "descriptors">, input: { since?: number; targets?: TargetSpec; kinds?: EventKind[]; limit?: number }) {
  await crew.sync();
  // A limit without a cursor asks for the last N (trial 15: a lead got the hive's first 8 events).
  const newest = input.since === undefined && input.limit !== undefined;
  const r = crew.hive.eventsSince(input.since ?? 0, { targets: input.targets, sessions: crew.descriptors(), kinds: input.kinds, limit: input.limit, newest });
  return { events: r.events, cursor: r.cursor, more: r.more, missed: r.missed };
}

export interface HiveWaitInput {
  targets: TargetSpec;
  for: WaitFor;
  pattern?: string;
  mode?: "any" | "all";
  timeout_s?: number;
}

export async function waitForTargets(crew: Pick<Crew, "resolve" | "hive" | "registry" | "onAgentChanged">, terminal: Pick<TerminalPort, "regex">, input: HiveWaitInput, ctx?: TerminalCall): Promise<HiveWaitResult> {
  let pattern: SafeRegex | undefined;
  if (input.for === "pattern") {
    if (!input.pattern) throw new ToolError('for: "pattern" needs a pattern');
    pattern = terminal.regex(input.pattern, "pattern");
  }
  const { targets, unavailable } = await crew.resolve(input.targets);
  // Agents whose session is gone reach no pane: they are exited, and said so, never left out.
  const gone = unavailable.map((u) => ({ session: "", name: u.ref.replace(/^.*agent:/, ""), agents: [], met: input.for === "exited", detail: `exited: ${u.reason}` }));
  if (gone.length && input.for !== "exited" && input.mode === "all") {
    throw new ToolError(`hive_wait for ${input.for} cannot be met any more — ${gone.map((g) => `${g.name}: ${g.detail}`).join("; ")}`, "dead");
  }
  // An idle status does not end a message's work until the turn it started is over, and a
  // queued message is work still to come (see hive/store/turns.ts, hive/store/outbox.ts).
  const held = (a: AgentRecord) => crew.hive.turns.holdsIdle(a.name) || crew.hive.outbox.hasFor(a.sessionId);
  // (No session at all was refused by resolve, naming the gone ones.) A gone agent already
  // meets "exited": a wait for any of them only reads how the others are now.
  const goneMeets = gone.length > 0 && input.for === "exited" && input.mode !== "all";
  const r = await withProgress(ctx, `waiting for ${input.for} (${input.mode ?? "any"} of ${targets.length + gone.length})`, hiveWait({ hive: crew.hive, registry: crew.registry, onAgentChanged: crew.onAgentChanged, held }, targets, {
    for: input.for, pattern, mode: input.mode ?? "any", timeoutMs: goneMeets ? 0 : (input.timeout_s ?? 30) * 1000, signal: ctx?.signal,
  }));
  return goneMeets ? { ...r, matched: true, reason: "condition", targets: [...r.targets, ...gone] } : { ...r, targets: [...r.targets, ...gone] };
}

export async function watch(crew: Pick<Crew, "sync" | "hive" | "descriptors" | "scanner">, input: { targets?: TargetSpec; pattern?: string; flags?: string; label?: string; remove?: number }) {
  await crew.sync();
  let added, removed;
  if (input.remove !== undefined) removed = crew.hive.watchers.remove(input.remove);
  if (input.pattern !== undefined) {
    if (input.targets === undefined) throw new ToolError("a watcher needs targets (e.g. \"all\", \"team:backend\")");
    crew.hive.resolveTargets(input.targets, crew.descriptors()); // unknown names → error now, not silence later
    added = crew.hive.watchers.add({ target: input.targets, pattern: input.pattern, flags: input.flags, label: input.label });
  } else if (input.targets !== undefined) throw new ToolError("give a pattern to watch for");
  crew.scanner.invalidate();
  return { ...(added ? { added } : {}), ...(removed ? { removed } : {}), watchers: crew.hive.watchers.list() };
}
