// A verb's result as its gRPC response, where proto3 cannot say it directly (see Verb.wire):
// the row types and the one wire form several verbs share, `targets`.
import type { TargetSpec } from "../hive/index.js";
import { ToolError } from "../util/tool-error.js";

// Wire rows are whatever proto-loader decoded; their shape is the proto's, checked by zod (requests) or typed by the client (results).
export type WireRow = Record<string, any>;

/** A result as its response message (encode, on the server), and back (decode, in the client, after its nulls are restored); either may be left out when that way needs nothing. */
export interface WireForm {
  encode?(result: WireRow): WireRow;
  decode?(response: WireRow): WireRow;
}

/** HiveTargets on the wire: exactly one of ref (one string), refs (a list) or set (the object form). */
export interface WireTargets {
  ref?: string;
  refs?: string[];
  set?: WireRow;
}

export function targetsToWire(spec: TargetSpec): WireTargets {
  if (typeof spec === "string") return { ref: spec };
  if (Array.isArray(spec)) return { refs: [...spec] };
  return { set: spec as WireRow };
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
