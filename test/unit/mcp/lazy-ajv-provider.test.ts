import { test } from "node:test";
import assert from "node:assert/strict";
import { DefaultJsonSchemaValidator as LazyValidator } from "../../../src/mcp/lazy-ajv-provider.js";
import { AjvJsonSchemaValidator as RealValidator } from "@modelcontextprotocol/server/validators/ajv";

// The bundle swaps the SDK's Node shims (and with them its provider) for this one; it must judge every answer the same way.
test("the lazy provider validates exactly like the SDK's Ajv provider", () => {
  const schema = {
    type: "object",
    properties: { name: { type: "string", minLength: 1 }, email: { type: "string", format: "email" }, age: { type: "integer", minimum: 0 } },
    required: ["name"],
  } as const;
  const lazy = new LazyValidator().getValidator(schema);
  const real = new RealValidator().getValidator(schema);
  for (const input of [{ name: "ada" }, { name: "" }, { age: 3 }, { name: "x", email: "not-an-email" }, { name: "x", email: "a@b.co", age: -1 }, "text", null]) {
    assert.deepEqual(lazy(input), real(input), JSON.stringify(input));
  }
  assert.equal(lazy({ name: "ada" }).valid, true);
  assert.equal(lazy({ name: "x", email: "not-an-email" }).valid, false);
});
