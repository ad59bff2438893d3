import { z } from "zod";
import { name } from "./schemas/hive.js";
import { WRITES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_inbox",
  title: "Read an agent's mailbox",
  description: "An agent's unread messages (all: include read ones), marked read unless peek: true.",
  input: { agent: name, all: z.boolean().optional(), peek: z.boolean().optional(), limit: z.number().int().min(1).max(500).optional() },
  family: "hive",
  annotations: WRITES,
  run: (s, input) => s.hive().inbox(input),
  text: (r) => (r.messages.length ? r.messages.map((m) => `#${m.id} from ${m.from}: ${m.text}`).join("\n") : "no messages"),
  grpc: "HiveInbox",
  nullable: { "messages[].readAt": true },
});
