// Tool inputs are strict objects: a parameter a tool does not know is an error that names the
// valid ones. Silently dropping it did harm: terminal_open {host: "x"} opened a local session
// where the caller meant a remote one. The JSON schema clients see gets additionalProperties: false.
// A required parameter left out is named with what to pass: zod's own words were "expected
// string, received undefined".
import { z } from "zod";

/** The field, refusing a missing value in words that name it and what it takes. */
function requiredWords(name: string, field: z.ZodType): z.ZodType {
  if (field.safeParse(undefined).success) return field;
  const what = field.description ? ` (${field.description.replace(/\.$/, "").replace(/^\w/, (c) => c.toLowerCase())})` : "";
  const message = `required parameter "${name}" is missing${what}`;
  // parent: the clone keeps the field's description and other metadata for the listed schema.
  const error: z.core.$ZodErrorMap = (issue) => (issue.input === undefined ? message : undefined);
  return field.clone({ ...field._zod.def, error }, { parent: true });
}

export function strictInput<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  const valid = Object.keys(shape);
  const fields = Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, requiredWords(name, field as z.ZodType)])) as unknown as S;
  return z.strictObject(fields, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const unknown = issue.keys.map((k) => JSON.stringify(k)).join(", ");
      const names = valid.length ? valid.join(", ") : "none (call it with {})";
      return `unknown parameter${issue.keys.length > 1 ? "s" : ""} ${unknown}; valid parameters: ${names}`;
    },
  });
}
