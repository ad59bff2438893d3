import { z } from "zod";
import { name } from "./schemas/hive.js";
import { WRITES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_mail",
  title: "Leave a message for an agent",
  description: "Put a message in an agent's mailbox (persisted); type_into_pane also types it into the agent's pane.",
  input: { to: name, text: z.string().min(1).max(64 * 1024), from: z.string().max(64).optional(), type_into_pane: z.boolean().optional() },
  family: "hive",
  annotations: WRITES,
  run: (s, input) => s.hive().mail(input),
  text: (r) => `message #${r.message.id} to ${r.message.to}${r.typed ? ` · typed: ${r.typed.delivered ? "delivered" : "not delivered"}` : ""}`,
  grpc: "HiveMail",
  nullable: { "message.readAt": true },
});
