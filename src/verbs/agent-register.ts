import { z } from "zod";
import { AGENT_NULLABLE, name } from "./schemas/hive.js";
import { under } from "./nullable.js";
import { WRITES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "agent_register",
  title: "Register a session as an agent",
  description: "Bind an agent name to an existing session. Refused if the name is taken unless replace: true.",
  input: { name, session: z.string(), team: name.optional(), profile: name.optional(), replace: z.boolean().optional() },
  family: "hive",
  annotations: WRITES,
  run: (s, input) => s.hive().registerAgent(input),
  text: (r) => `agent ${r.agent.name} → ${r.agent.session_name} (${r.agent.status})`,
  grpc: "AgentRegister",
  nullable: { ...under("agent", AGENT_NULLABLE), replaced: true },
});
