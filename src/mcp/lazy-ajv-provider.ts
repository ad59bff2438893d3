// Stands in for the MCP SDK's `validation/ajv-provider.js` inside the bundled server
// (scripts/bundle.mjs swaps it in). The SDK's Server imports Ajv and ajv-formats at load
// time — about 45 ms of a ~250 ms start — for one job: checking a client's answers to
// elicitation requests, which termhive sends only when the safety gate refuses a command
// (mcp/elicit.ts). The real validator is loaded the first time a schema is asked for.
import { createRequire } from "node:module";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

const require = createRequire(import.meta.url);

type RealProvider = typeof import("@modelcontextprotocol/sdk/validation/ajv");

export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private real: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.real ??= new (require("@modelcontextprotocol/sdk/validation/ajv") as RealProvider).AjvJsonSchemaValidator();
    return this.real.getValidator<T>(schema);
  }
}
