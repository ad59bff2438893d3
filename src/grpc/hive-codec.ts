// Values between their service (and MCP) shape and proto/termhive.proto. Most results pass
// through as they are; this file holds only what proto3 cannot say directly for every verb
// alike: the three forms of `targets` in a request, and null (absent on the wire: each verb
// declares its nullable fields, applied here). What one verb's result needs of its own
// (open-ended JSON, a oneof, a field kept beside a reused message) is that verb's `wire`.
import type { ZodType } from "zod";
import type { AnyVerb } from "../verbs/verb.js";
import type { NullableDeclaration } from "../verbs/nullable.js";
import { targetsFromWire, targetsToWire, type WireRow as Row } from "../verbs/wire.js";

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
export function responseToWire(verb: Pick<AnyVerb, "wire">, result: Row): Row {
  return verb.wire?.encode ? verb.wire.encode(result) : result;
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
 * A response in the service's shape: its nulls back, then the verb's own wire form undone. A
 * nullable path names a field of the proto's message too (test/unit/verbs/nullable.test.ts).
 */
export function responseFromWire(verb: Pick<AnyVerb, "nullable" | "wire">, r: Row): Row {
  const restored = restoreNulls(r, verb.nullable as NullableDeclaration | undefined);
  return verb.wire?.decode ? verb.wire.decode(restored) : restored;
}
