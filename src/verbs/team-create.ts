import { z } from "zod";
import { TEAM_NULLABLE, name } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { WRITES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "team_create",
  title: "Create a team",
  description: "Create a team, optionally under a parent team.",
  input: { name, parent: name.optional(), description: z.string().max(500).optional() },
  family: "hive",
  annotations: WRITES,
  run: (s, input) => s.hive().createTeam(input),
  text: (r) => `team ${r.team.name}${r.team.parent ? ` under ${r.team.parent}` : ""}`,
  grpc: "TeamCreate",
  nullable: { ...under("team", TEAM_NULLABLE) },
});
