// Each verb declares the fields of its result that may be null (verbs/nullable.ts); the gRPC
// client sets them back to null from the wire, where proto3 leaves them absent. The declaration
// is held to the result's type when it compiles (the @ts-expect-error lines below fail
// `npm run typecheck` if a missed or unknown field got through), to the proto here, and the
// client's decoding to it on real protobuf bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import protobuf from "protobufjs";
import { VERBS } from "../../../src/verbs/index.js";
import { READS, defineVerb, type AnyVerb } from "../../../src/verbs/verb.js";
import type { NullableDeclaration } from "../../../src/verbs/nullable.js";
import { loadTermhiveProto, PROTO_PATH } from "../../../src/grpc/proto.js";
import { responseFromWire } from "../../../src/grpc/hive-codec.js";

const root = new protobuf.Root().loadSync(PROTO_PATH, { keepCase: true });
const service = root.lookupService("termhive.v1.Termhive");
const responseOf = (verb: AnyVerb) => root.lookupType(service.methods[verb.grpc]!.responseType);
const declared = (verb: AnyVerb) => Object.entries((verb.nullable ?? {}) as NullableDeclaration);

/** A verb whose result is R, for the type checks below (never run). */
const verbOf = <R extends object>(result: R) => ({
  name: "probe", title: "probe", description: "probe", input: {}, family: "hive" as const, annotations: READS, grpc: "Probe",
  run: () => result, text: () => "",
});
type Probe = { agent: { team: string | null; name: string }; exit_code?: number | null; alive: boolean };
const probe = {} as Probe;

test("the declaration is checked against the result's type when it compiles", () => {
  // Every field typed `T | null` with its key always there is declared: missing one does not compile.
  // @ts-expect-error no declaration, and the result has fields that may be null
  defineVerb(verbOf(probe));
  // @ts-expect-error agent.team is not declared
  defineVerb({ ...verbOf(probe), nullable: {} });
  // @ts-expect-error a field that cannot be null is no nullable field
  defineVerb({ ...verbOf(probe), nullable: { "agent.team": true, "agent.name": true } });
  // @ts-expect-error a key that may be left out needs the condition under which it is there
  defineVerb({ ...verbOf(probe), nullable: { "agent.team": true, exit_code: true } });
  const ok = defineVerb({ ...verbOf(probe), nullable: { "agent.team": true, exit_code: (r: { alive: boolean }) => !r.alive } });
  assert.deepEqual(Object.keys(ok.nullable!), ["agent.team", "exit_code"]);
});

/** The proto field a path names ("agents[].team"), and the fields on the way to it. */
function fieldAt(type: protobuf.Type, path: string): protobuf.Field | undefined {
  let at: protobuf.Type | undefined = type;
  let field: protobuf.Field | undefined;
  for (const step of path.split(".")) {
    const list = step.endsWith("[]");
    field = at?.fields[list ? step.slice(0, -2) : step];
    if (!field || field.repeated !== list) return undefined;
    at = field.resolve().resolvedType instanceof protobuf.Type ? (field.resolvedType as protobuf.Type) : undefined;
  }
  return field;
}

test("every declared nullable field is an `optional` field of the rpc's response (it can be absent on the wire)", () => {
  for (const verb of VERBS) {
    for (const [path] of declared(verb)) {
      const field = fieldAt(responseOf(verb), path);
      assert.ok(field, `${verb.grpc}: ${path} is no field of ${responseOf(verb).name}`);
      assert.equal(field.options?.proto3_optional, true, `${verb.grpc}: ${path} is not optional in the proto, so it is never absent`);
    }
  }
});

/** Fields whose wire form says more than any string or message: JSON, and one form of a oneof. */
const SAMPLE: Record<string, unknown> = { data_json: "{}", target: { ref: "agent:a1" } };

/**
 * A message with every `optional` field absent (null on the service's side), two of each list.
 * An optional message is there (its own fields are what is checked) unless it is declared
 * nullable itself.
 */
function allAbsent(type: protobuf.Type, nullable: Set<string>, path = ""): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const at = `${path}${field.name}${field.repeated ? "[]" : ""}`;
    const nested = field.resolve().resolvedType instanceof protobuf.Type ? (field.resolvedType as protobuf.Type) : undefined;
    if ((field.options?.proto3_optional && !nested) || nullable.has(at) || field.map) continue;
    const value = () => (field.name in SAMPLE ? SAMPLE[field.name] : nested ? allAbsent(nested, nullable, `${at}.`) : field.type === "string" ? "x" : field.type === "bool" ? false : 1);
    row[field.name] = field.repeated ? [value(), value()] : value();
  }
  return row;
}

/** Paths of the null values in a result, lists as "[]" (each once). */
function nullPaths(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => nullPaths(item, `${path}[]`)))];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const at = path ? `${path}.${key}` : key;
    return v === null ? [at] : nullPaths(v, at);
  });
}

/** The object that holds a path's field in a row made by allAbsent (a list's first element). */
function objectHolding(row: Record<string, unknown>, path: string): Record<string, unknown> {
  const steps = path.split(".").slice(0, -1);
  return steps.reduce((at: any, step) => (step.endsWith("[]") ? at[step.slice(0, -2)][0] : at[step]), row);
}

test("the client decodes real protobuf bytes with the optional fields absent into null at exactly the declared fields", () => {
  const client = loadTermhiveProto("client").service;
  let checked = 0;
  for (const verb of VERBS) {
    const type = responseOf(verb);
    const row = allAbsent(type, new Set(declared(verb).map(([path]) => path)));
    const bytes = type.encode(type.fromObject(row)).finish();
    const decoded = client[verb.grpc]!.responseDeserialize(Buffer.from(bytes)) as Record<string, unknown>;
    const result = responseFromWire(verb, decoded);
    // A field declared with a condition is null where the condition holds on its object (here:
    // `alive` false, so an exit code is null; `agent` absent, so a pane has no team key).
    const expected = declared(verb).flatMap(([path, when]) => (when === true || when(objectHolding(row, path)) ? [path] : []));
    assert.deepEqual(nullPaths(result).sort(), expected.sort(), verb.grpc);
    checked += expected.length;
  }
  assert.ok(checked >= 40, `only ${checked} nullable fields checked`);
});

test("a condition keeps a key out where the service leaves it out", () => {
  const layout = VERBS.find((v) => v.grpc === "HiveLayout")!;
  const read = VERBS.find((v) => v.grpc === "Read")!;
  const panes = responseFromWire(layout, { panes: [{ index: 0 }, { index: 1, agent: "a1" }] }).panes as object[];
  assert.deepEqual(panes, [{ index: 0 }, { index: 1, agent: "a1", team: null }]);
  assert.equal("exit_code" in responseFromWire(read, { alive: true }), false);
  assert.equal(responseFromWire(read, { alive: false }).exit_code, null);
  assert.equal(responseFromWire(read, { alive: false, exit_code: 3 }).exit_code, 3);
});
