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
  .describe('Who: "all", an agent/team/session name, prefixed forms ("agent:a1", "team:red", "session:s-3", "name:build"), a list of those, or {agents, teams, sessions, names, all}. Teams include child teams.');
