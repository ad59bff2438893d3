import { z } from "zod";
import { name } from "./schemas/hive.js";
import { WRITES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_queue",
  title: "List or cancel queued messages",
  description:
    "Messages hive_message queued for busy agents, typed when next idle or dropped after 10 min. cancel: id takes one out.",
  input: { agent: name.optional(), cancel: z.number().int().min(1).optional() },
  family: "hive",
  annotations: WRITES,
  run: (s, input) => s.hive().queue(input),
  text: (r) =>
    `${r.cancelled ? `cancelled #${r.cancelled.id}\n` : ""}${r.queued.length ? r.queued.map((m) => `#${m.id} → ${m.agents.join(", ")}${m.typing ? " (typing)" : ""}: ${m.text.slice(0, 80)}`).join("\n") : "no queued messages"}`,
  grpc: "HiveQueue",
});
