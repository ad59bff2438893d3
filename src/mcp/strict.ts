// Tool inputs are strict objects: a parameter a tool does not know is an error that names the
// valid ones. Silently dropping it did harm: terminal_open {host: "x"} opened a local session
// where the caller meant a remote one. The JSON schema clients see gets additionalProperties: false.
import { z } from "zod";

export function strictInput<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  const valid = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const unknown = issue.keys.map((k) => JSON.stringify(k)).join(", ");
      const names = valid.length ? valid.join(", ") : "none (call it with {})";
      return `unknown parameter${issue.keys.length > 1 ? "s" : ""} ${unknown}; valid parameters: ${names}`;
    },
  });
}
