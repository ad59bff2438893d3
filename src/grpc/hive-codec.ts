// Hive values between their service (and MCP) shape and proto/termhive.proto. Most results
// pass through as they are; this file holds only what proto3 cannot say directly: the three
// forms of `targets`, null (absent on the wire), open-ended event data (JSON), and two
// per-target fields that the proto keeps beside a reused terminal result instead of inside it.
import type { TargetSpec } from "../hive/index.js";
import type { ZodType } from "zod";
import { ToolError } from "../service/errors.js";

// Wire rows are whatever proto-loader decoded; their shape is the proto's, checked by zod (requests) or typed by the client (results).
type Row = Record<string, any>;

/** HiveTargets on the wire: exactly one of ref (one string), refs (a list) or set (the object form). */
export interface WireTargets {
  ref?: string;
  refs?: string[];
  set?: Row;
}

export function targetsToWire(spec: TargetSpec): WireTargets {
  if (typeof spec === "string") return { ref: spec };
  if (Array.isArray(spec)) return { refs: [...spec] };
  return { set: spec as Row };
}

/** The spec a request's HiveTargets stands for (undefined when not given); zod checks the rest. */
export function targetsFromWire(wire: WireTargets | undefined): TargetSpec | undefined {
  if (!wire) return undefined;
  const given = [wire.ref !== undefined, (wire.refs ?? []).length > 0, wire.set !== undefined].filter(Boolean).length;
  if (given > 1) throw new ToolError("targets: give one of ref, refs or set");
  if (wire.ref !== undefined) return wire.ref;
  if (wire.refs?.length) return wire.refs;
  if (!wire.set) return undefined;
  // A client decodes an unset list as []; the spec only names the lists it uses.
  return Object.fromEntries(Object.entries(wire.set).filter(([, v]) => !(Array.isArray(v) && v.length === 0))) as TargetSpec;
}

/**
 * A request as the verb's zod shape expects it: targets in their MCP form, and null where the
 * wire says "" (proto3 strings have no null) for a field the verb's schema lets be null and
 * never be "". Derived from the schema, so a verb that adds a nullable field needs nothing here.
 */
export function requestFromWire(request: Row, input: Readonly<Record<string, ZodType>>): Row {
  const out: Row = { ...request };
  if ("targets" in out) out.targets = targetsFromWire(out.targets);
  if (out.targets === undefined) delete out.targets;
  for (const [key, schema] of Object.entries(input)) {
    if (out[key] === "" && schema.safeParse(null).success && !schema.safeParse("").success) out[key] = null;
  }
  return out;
}

/** A service result as its proto response (null fields need nothing: an unset field is absent). */
export function responseToWire(method: string, result: Row): Row {
  switch (method) {
    case "HiveSend":
      return { ...result, results: result.results.map((t: Row) => ({ ...t, skipped: t.result?.skipped })) };
    case "HiveRead":
      return { ...result, results: result.results.map((t: Row) => ({ ...t, truncated_lines: t.result?.truncated_lines })) };
    case "HiveEvents":
      return { ...result, events: result.events.map((e: Row) => ({ ...e, data_json: JSON.stringify(e.data ?? {}) })) };
    case "HiveWatch": {
      const watcher = (w: Row | undefined) => w && { ...w, target: targetsToWire(w.target) };
      return { added: watcher(result.added), removed: watcher(result.removed), watchers: result.watchers.map(watcher) };
    }
    default:
      return result;
  }
}

// ---- client side ----------------------------------------------------------------------------

/** A request in its MCP/service shape as the proto message: a null field travels as "" (see requestFromWire). */
export function requestToWire(input: Row): Row {
  const out: Row = { ...input };
  if (out.targets !== undefined) out.targets = targetsToWire(out.targets);
  for (const [key, value] of Object.entries(out)) if (value === null) out[key] = "";
  return out;
}


/** Sets `keys` that are absent to null (fields the service types as `T | null`). */
function nulls(row: Row | undefined, keys: string[]): void {
  if (row) for (const key of keys) if (row[key] === undefined) row[key] = null;
}

const AGENT_NULLS = ["session_name", "team", "detail", "source", "exit_code", "pane"];
const TEAM_NULLS = ["parent", "description"];
const agent = (a: Row | undefined) => nulls(a, AGENT_NULLS);
const team = (t: Row | undefined) => nulls(t, TEAM_NULLS);
const mail = (m: Row) => nulls(m, ["readAt"]);

function watcherFromWire(w: Row | undefined): Row | undefined {
  if (!w) return w;
  nulls(w, ["label"]);
  const spec = targetsFromWire(w.target);
  return { ...w, target: spec };
}

export function responseFromWire(method: string, r: Row): Row {
  switch (method) {
    case "Run":
      nulls(r, ["exit_code"]);
      return r;
    case "List":
      for (const s of r.sessions) nulls(s, ["cwd", "running", "last_exit_code"]);
      return r;
    case "HiveLayout":
      nulls(r, ["attach"]);
      for (const p of r.panes) if (p.agent !== undefined) nulls(p, ["team"]);
      return r;
    case "HiveSend":
      for (const t of r.results) {
        if (t.result && t.skipped !== undefined) t.result = { skipped: t.skipped, sent_bytes: t.result.sent_bytes };
        delete t.skipped;
      }
      return r;
    case "HiveRead":
      for (const t of r.results) {
        if (t.result && t.truncated_lines !== undefined) t.result.truncated_lines = t.truncated_lines;
        delete t.truncated_lines;
      }
      return r;
    case "HiveEvents":
      r.events = r.events.map(({ data_json, ...e }: Row) => {
        nulls(e, ["agent", "sessionId"]);
        return { ...e, data: JSON.parse(data_json || "{}") };
      });
      return r;
    case "HiveWait":
      for (const t of r.targets) for (const a of t.agents) nulls(a, ["detail"]);
      return r;
    case "HiveWatch":
      return {
        ...(r.added ? { added: watcherFromWire(r.added) } : {}),
        ...(r.removed ? { removed: watcherFromWire(r.removed) } : {}),
        watchers: r.watchers.map(watcherFromWire),
      };
    case "HiveMail":
      mail(r.message);
      return r;
    case "HiveInbox":
      r.messages.forEach(mail);
      return r;
    case "HiveFocus":
    case "AgentSpawn":
      nulls(r, ["attach"]);
      agent(r.agent);
      return r;
    case "HiveStatus":
      agent(r.agent);
      return r;
    case "AgentRegister":
      nulls(r, ["replaced"]);
      agent(r.agent);
      return r;
    case "AgentList":
      r.agents.forEach(agent);
      for (const a of r.agents) nulls(a, ["question"]);
      return r;
    case "HiveAnswer":
      nulls(r, ["choice"]);
      nulls(r.now, ["question"]);
      if (r.typed && r.typed.hook !== undefined) r.typed = { hook: r.typed.hook };
      else if (r.typed && r.typed.text !== undefined) r.typed = { text: r.typed.text };
      else if (r.typed) r.typed = { keys: r.typed.keys ?? [] };
      return r;
    case "TeamCreate":
      team(r.team);
      return r;
    case "TeamAssign":
      agent(r.agent);
      team(r.team);
      return r;
    case "TeamList":
      r.teams.forEach(team);
      return r;
    case "TeamRemove":
      nulls(r, ["movedTo"]);
      team(r.team);
      return r;
    default:
      return r;
  }
}
