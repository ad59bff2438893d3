// The tool list as clients receive it. Every tool's schema is in the model's context on every
// request of a client that sends them all, so the listed JSON schema carries what a model needs
// to call the tool — types, enums, required fields, defaults, descriptions — and leaves out what
// only the server's own validation needs: length, item and numeric bounds, the draft URI,
// property-name schemas. Calls are still checked against the full schema (strict.ts), with
// errors that name the limit.
import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/server";
import type { AnyVerb } from "../verbs/index.js";
import { strictInput } from "./strict.js";

/**
 * Keywords a model does not need to write a valid call (the server reports them if broken;
 * unknown parameters are refused naming the valid ones, so additionalProperties goes too).
 */
const VALIDATION_ONLY = new Set(["$schema", "maxLength", "minLength", "maxItems", "minItems", "propertyNames", "additionalProperties"]);

/**
 * Marks a schema node to be listed as `listed` instead of its full form: a union whose
 * alternatives the description already spells out costs ~70 tokens per tool that takes it.
 */
export const LISTED_AS = "x-listed-as";

/** A JSON schema without the validation-only keywords, at every depth. */
export function leanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(leanSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const node = schema as Record<string, unknown>;
  if (node[LISTED_AS]) return { ...(node[LISTED_AS] as object), ...(node.description ? { description: node.description } : {}) };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // A record's value type is information (env: strings); additionalProperties: false is not.
    if (key === "additionalProperties" && typeof value === "object") {
      out[key] = leanSchema(value);
      continue;
    }
    if (VALIDATION_ONLY.has(key)) continue;
    // Numeric bounds are checked by the server, whose error names the limit; defaults the
    // description states are said once.
    if (key === "maximum" || key === "minimum" || key === "exclusiveMaximum" || key === "exclusiveMinimum") continue;
    if (key === "default" && typeof node.description === "string" && node.description.includes("default")) continue;
    // "properties" maps names to schemas: its keys are names, never keywords.
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([name, s]) => [name, leanSchema(s)])) : leanSchema(value);
  }
  return out;
}

function jsonSchema(shape: z.ZodRawShape, io: "input" | "output"): Tool["inputSchema"] {
  const object = io === "input" ? strictInput(shape) : z.object(shape);
  return leanSchema(z.toJSONSchema(object, { io, target: "draft-7" })) as Tool["inputSchema"];
}

/** One verb as listed by tools/list. */
export function listedTool(verb: AnyVerb): Tool {
  return {
    name: verb.name,
    title: verb.title,
    description: verb.description,
    inputSchema: jsonSchema(verb.input, "input"),
    annotations: verb.annotations,
    ...(verb.structured ? { outputSchema: jsonSchema(verb.structured.schema, "output") } : {}),
  };
}
