import { z } from "zod";
import { AGENT_NULLABLE, name } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { SETS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_status",
  title: "Set an agent's status",
  description: "Record an agent's own status (starting, working, idle, waiting_for_input/waiting, error) with an optional detail; shown in its pane border.",
  input: { agent: name, status: z.string(), detail: z.string().max(500).optional() },
  family: "hive",
  annotations: SETS,
  run: (s, input) => s.hive().setStatus(input),
  text: (r) => `${r.agent.name}: ${r.agent.status}${r.agent.detail ? ` (${r.agent.detail})` : ""}`,
  grpc: "HiveStatus",
  nullable: { ...under("agent", AGENT_NULLABLE) },
});
