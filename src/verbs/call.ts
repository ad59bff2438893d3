// A verb called by a door that builds its input itself (the dashboard turns a page's frame into
// one): the input still goes through the verb's own schema, so a field's rules live in the verb
// alone and every door refuses the same input with the same words (errors.ts).
import { z } from "zod";
import type { AnyVerb, Services } from "./verb.js";

type CallContext = Parameters<AnyVerb["run"]>[2];

// Built once per verb: a schema made per call costs ~0.2 ms (zod compiles a parser for each new one).
const schemas = new WeakMap<AnyVerb, z.ZodObject>();

/** The verb's input schema (defaults applied, unknown fields dropped), made on first use. */
export function inputSchema(verb: AnyVerb): z.ZodObject {
  let schema = schemas.get(verb);
  if (!schema) schemas.set(verb, (schema = z.object(verb.input)));
  return schema;
}

/** Checks the input against the verb's schema (a ZodError when it fails), then runs the verb. */
export async function callVerb(verb: AnyVerb, services: Services, input: unknown, ctx: CallContext): Promise<object> {
  return verb.run(services, inputSchema(verb).parse(input), ctx);
}
