// TermhiveClient's methods are derived from the verb table (through the proto's rpcs, which
// table.test.ts holds to the table): every verb has its method, named as the client's types say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TermhiveClient } from "../../../src/grpc/client.js";
import { VERB } from "../../../src/verbs/index.js";

const methodName = (key: string) => (key.startsWith("terminal") ? key.charAt(8).toLowerCase() + key.slice(9) : key);

test("every verb of the table is a method of TermhiveClient, calling the verb's rpc", () => {
  const client = new TermhiveClient({ socketPath: "/nonexistent/grpc.sock" });
  try {
    for (const [key, verb] of Object.entries(VERB)) {
      const name = methodName(key);
      assert.equal(typeof (client as unknown as Record<string, unknown>)[name], "function", `${key} → client.${name}`);
      assert.equal(verb.grpc.charAt(0).toLowerCase() + verb.grpc.slice(1), name, `${key}'s rpc ${verb.grpc} names the method`);
    }
  } finally {
    client.closeConnection();
  }
});

test("the client has no method a verb does not stand behind (besides its own)", () => {
  const own = new Set(["constructor", "ready", "call", "verb", "watchOutput", "watchEvents", "stream", "closeConnection"]);
  const verbs = new Set(Object.keys(VERB).map(methodName));
  const extra = Object.getOwnPropertyNames(TermhiveClient.prototype).filter((m) => !own.has(m) && !verbs.has(m));
  assert.deepEqual(extra, []);
});
