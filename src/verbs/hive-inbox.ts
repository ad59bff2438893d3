import { z } from "zod";
import { name } from "./schemas/hive.js";
import { WRITES, defineVerb, type StoreServices } from "./verb.js";

export default defineVerb({
  name: "hive_inbox",
  title: "Read an agent's mailbox",
  description: "An agent's unread messages (all: include read ones), marked read unless peek: true.",
  input: { agent: name, all: z.boolean().optional(), peek: z.boolean().optional(), limit: z.number().int().min(1).max(500).optional() },
  family: "hive",
  annotations: WRITES,
  run: (s: StoreServices, input) => s.hive().inbox(input),
  text: (r) => (r.messages.length ? r.messages.map((m) => `#${m.id} from ${m.from}: ${m.text}`).join("\n") : "no messages"),
  cli: {
    command: "inbox",
    description: "print this pane's agent's unread messages and mark them read",
    options: [
      ["--agent <name>", "agent name (default: the agent of this pane)"],
      ["--all", "read messages too"],
      ["--peek", "do not mark them read"],
    ],
    input: (_args: [], o) => ({ agent: o.agent as string | undefined, all: o.all as boolean | undefined, peek: o.peek as boolean | undefined }),
    inPane: {
      ownAgent: "agent",
      refusedInSandbox: "termhive inbox cannot read the hive from inside a sandbox; messages for this agent are typed into its pane",
    },
  },
  grpc: "HiveInbox",
  nullable: { "messages[].readAt": true },
});
