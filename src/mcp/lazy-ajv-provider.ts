// Stands in for the v2 MCP SDK's Node shims (`@modelcontextprotocol/server/_shims`) inside
// the bundled server (scripts/bundle.mjs swaps it in). The SDK's Server imports Ajv and
// ajv-formats at load time through them — about 45 ms of a ~250 ms start — for checking
// a client's answers to elicitation requests, which termhive sends only when the safety
// gate refuses a command (mcp/elicit.ts). The real validator is loaded on first use.
import { createRequire } from "node:module";
import process from "node:process";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/server";

const require = createRequire(import.meta.url);

type RealProvider = typeof import("@modelcontextprotocol/server/validators/ajv");

export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  private real: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.real ??= new (require("@modelcontextprotocol/server/validators/ajv") as RealProvider).AjvJsonSchemaValidator();
    return this.real.getValidator<T>(schema);
  }
}

export { process };
