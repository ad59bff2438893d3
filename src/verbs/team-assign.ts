import { AGENT_NULLABLE, TEAM_NULLABLE, name } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { SETS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "team_assign",
  title: "Put an agent in a team, or a team under a parent",
  description: "With agent: the agent joins team (null: leaves its team). Without agent: team moves under parent (null: top level); cycles are refused.",
  input: { agent: name.optional(), team: name.nullable(), parent: name.nullable().optional() },
  family: "hive",
  annotations: SETS,
  run: (s, input) => s.hive().assign(input),
  text: (r) => JSON.stringify(r, null, 1),
  grpc: "TeamAssign",
  nullable: { ...under("agent", AGENT_NULLABLE), ...under("team", TEAM_NULLABLE) },
});
