// Fields several hive verbs take alike.
import { z } from "zod";

export const name = z.string().min(1).max(64);

export const targets = z
  .union([
    z.string().min(1),
    z.array(z.string().min(1)).min(1),
    z.object({
      sessions: z.array(z.string()).optional(),
      names: z.array(z.string()).optional(),
      agents: z.array(z.string()).optional(),
      teams: z.array(z.string()).optional(),
      all: z.boolean().optional(),
      recursive: z.boolean().optional(),
    }),
  ])
  // Listed as its three forms only: the description names the object's fields.
  .meta({ "x-listed-as": { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }, { type: "object" }] } })
  .describe('"all", a name, "agent:a1", "team:red" (and child teams), "session:s-3", a list, or {agents, teams, sessions, names, all}.');
