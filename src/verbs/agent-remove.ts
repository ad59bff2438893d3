import { z } from "zod";
import { name } from "./schemas/hive.js";
import { REMOVES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "agent_remove",
  title: "Forget an agent",
  description: "Remove an agent name (its session stays unless close: true).",
  input: { name, close: z.boolean().optional() },
  family: "hive",
  annotations: REMOVES,
  run: (s, input) => s.hive().removeAgent(input),
  text: (r) => `removed ${r.removed}${r.closed ? " and closed its session" : ""}`,
  grpc: "AgentRemove",
});
