import { TEAM_NULLABLE, name } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { REMOVES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "team_remove",
  title: "Remove a team",
  description: "Remove a team; its agents and child teams move to its parent.",
  input: { name },
  family: "hive",
  annotations: REMOVES,
  run: (s, input) => s.hive().removeTeam(input),
  text: (r) => `removed team ${r.team.name}; moved ${r.agents.length} agents and ${r.childTeams.length} teams to ${r.movedTo ?? "top level"}`,
  grpc: "TeamRemove",
  nullable: { ...under("team", TEAM_NULLABLE), movedTo: true },
});
