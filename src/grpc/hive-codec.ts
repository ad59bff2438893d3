// Values between their service (and MCP) shape and proto/termhive.proto. Most results pass
// through as they are; this file holds only what proto3 cannot say directly: the three forms of
// `targets`, null (absent on the wire: each verb declares its nullable fields, applied here),
// open-ended event data (JSON), HiveAnswer's oneof, and two per-target fields that the proto
// keeps beside a reused terminal result instead of inside it.
import type { TargetSpec } from "../hive/index.js";
import type { ZodType } from "zod";
import type { AnyVerb } from "../verbs/verb.js";
import type { NullableDeclaration } from "../verbs/nullable.js";
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


/** Sets the declared fields that came absent back to null, at each path (see verbs/nullable.ts). */
export function restoreNulls(result: Row, nullable: NullableDeclaration = {}): Row {
  for (const [path, when] of Object.entries(nullable)) setNull(result, path.split("."), when);
  return result;
}

function setNull(row: Row | undefined, steps: string[], when: true | ((row: Row) => boolean)): void {
  if (typeof row !== "object" || row === null) return;
  const [step, ...rest] = steps as [string, ...string[]];
  if (rest.length === 0) {
    if (row[step] === undefined && (when === true || when(row))) row[step] = null;
  } else if (step.endsWith("[]")) {
    for (const item of row[step.slice(0, -2)] ?? []) setNull(item, rest, when);
  } else {
    setNull(row[step], rest, when);
  }
}

/**
 * A response in the service's shape: its nulls back, then what proto3 says its own way. A
 * nullable path names a field of the proto's message too (test/unit/verbs/nullable.test.ts).
 */
export function responseFromWire(verb: Pick<AnyVerb, "grpc" | "nullable">, r: Row): Row {
  return reshape(verb.grpc, restoreNulls(r, verb.nullable as NullableDeclaration | undefined));
}

function reshape(method: string, r: Row): Row {
  switch (method) {
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
      r.events = r.events.map(({ data_json, ...e }: Row) => ({ ...e, data: JSON.parse(data_json || "{}") }));
      return r;
    case "HiveWatch": {
      const watcher = (w: Row | undefined) => w && { ...w, target: targetsFromWire(w.target) };
      return { ...(r.added ? { added: watcher(r.added) } : {}), ...(r.removed ? { removed: watcher(r.removed) } : {}), watchers: r.watchers.map(watcher) };
    }
    case "HiveAnswer":
      // HiveTyped is a oneof: the one set is the form it was (keys [] decodes as absent).
      if (r.typed?.hook !== undefined) r.typed = { hook: r.typed.hook };
      else if (r.typed?.text !== undefined) r.typed = { text: r.typed.text };
      else if (r.typed) r.typed = { keys: r.typed.keys ?? [] };
      return r;
    default:
      return r;
  }
}
