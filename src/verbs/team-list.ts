import { TEAM_NULLABLE } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { READS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "team_list",
  title: "List teams",
  description: "Teams with parent, members and child teams.",
  input: {},
  family: "hive",
  annotations: READS,
  run: (s) => s.hive().listTeams(),
  text: (r) => (r.teams.length ? r.teams.map((t) => `${t.name}${t.parent ? ` ⊂ ${t.parent}` : ""}: ${t.members.join(", ") || "(no agents)"}`).join("\n") : "no teams"),
  grpc: "TeamList",
  nullable: { ...under("teams[]", TEAM_NULLABLE) },
});
