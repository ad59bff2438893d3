// The verb table is what every door loops over: each tool once, each with an rpc of the proto.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import protobuf from "protobufjs";
import { VERBS } from "../../../src/verbs/index.js";

const PROTO = new URL("../../../proto/termhive.proto", import.meta.url).pathname;
const proto = readFileSync(PROTO, "utf8");
const rpcs = [...proto.matchAll(/^\s*rpc (\w+)\((\w+)\) returns \((stream )?(\w+)\)/gm)].map((m) => ({ name: m[1]!, stream: Boolean(m[3]) }));

test("tool names, gRPC methods and CLI commands are unique", () => {
  const unique = (values: string[]) => assert.equal(new Set(values).size, values.length, values.join(", "));
  unique(VERBS.map((v) => v.name));
  unique(VERBS.map((v) => v.grpc));
  unique(VERBS.flatMap((v) => (v.cli ? [v.cli.command] : [])));
});

test("every verb has its unary rpc in the proto, and every unary rpc is a verb", () => {
  const unary = rpcs.filter((r) => !r.stream).map((r) => r.name).sort();
  assert.deepEqual(VERBS.map((v) => v.grpc).sort(), unary);
  assert.deepEqual(rpcs.filter((r) => r.stream).map((r) => r.name).sort(), ["WatchEvents", "WatchOutput"]);
});

test("a verb's family follows its tool name, and every verb has a title and a description", () => {
  for (const v of VERBS) {
    assert.equal(v.family, v.name.startsWith("terminal_") ? "terminal" : "hive", v.name);
    assert.ok(v.title.length > 0 && v.description.length > 20, v.name);
  }
});

test("every parameter of a verb has its field in the rpc's request message (a door can send it)", () => {
  const root = new protobuf.Root().loadSync(PROTO, { keepCase: true });
  const service = root.lookupService("termhive.v1.Termhive");
  for (const v of VERBS) {
    const request = root.lookupType(service.methods[v.grpc]!.requestType);
    assert.deepEqual(Object.keys(v.input).filter((field) => !(field in request.fields)), [], `${v.grpc}Request lacks fields of ${v.name}`);
  }
});
