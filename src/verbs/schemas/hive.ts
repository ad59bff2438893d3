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
  // Listed by its description alone: it names the three forms (a string, a list, an object
  // with its fields), and the five hive tools that take it would pay ~25 tokens each for the
  // anyOf that says it again. The input is still checked against the full union.
  .meta({ "x-listed-as": {} })
  .describe('"all", a name, "agent:a1", "team:red" (+ child teams), "session:s-3", a list, or {agents, teams, sessions, names, all}.');

/** An agent's fields that may be null, in every result that holds an agent (see ../nullable.ts). */
export const AGENT_NULLABLE = ["session_name", "team", "detail", "source", "exit_code", "pane"] as const;
/** A team's fields that may be null. */
export const TEAM_NULLABLE = ["parent", "description"] as const;
