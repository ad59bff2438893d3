import { z } from "zod";
import { name } from "./schemas/hive.js";
import { defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_queue",
  title: "List or cancel queued messages",
  description:
    "Messages hive_message queued for busy agents (oldest first), typed when the agent is next idle or dropped after 10 min (delivered/expired message events follow). agent narrows the list; cancel: <id> takes one out of the queue.",
  input: { agent: name.optional(), cancel: z.number().int().min(1).optional().describe("Id of a queued message to take out of the queue.") },
  family: "hive",
  run: (s, input) => s.hive().queue(input),
  text: (r) =>
    `${r.cancelled ? `cancelled #${r.cancelled.id}\n` : ""}${r.queued.length ? r.queued.map((m) => `#${m.id} → ${m.agents.join(", ")}${m.typing ? " (typing)" : ""}: ${m.text.slice(0, 80)}`).join("\n") : "no queued messages"}`,
  grpc: "HiveQueue",
});
