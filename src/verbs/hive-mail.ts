import { z } from "zod";
import { name } from "./schemas/hive.js";
import { WRITES, defineVerb, type StoreServices } from "./verb.js";

export default defineVerb({
  name: "hive_mail",
  title: "Leave a message for an agent",
  description: "Put a message in an agent's mailbox (persisted); type_into_pane also types it into the agent's pane.",
  input: { to: name, text: z.string().min(1).max(64 * 1024), from: z.string().max(64).optional(), type_into_pane: z.boolean().optional() },
  family: "hive",
  annotations: WRITES,
  run: (s: StoreServices, input) => s.hive().mail(input),
  text: (r) => `message #${r.message.id} to ${r.message.to}${r.typed ? ` · typed: ${r.typed.delivered ? "delivered" : "not delivered"}` : ""}`,
  cli: {
    command: "msg",
    args: [["<agent>", "the agent whose mailbox gets it"], ["<text...>", "the message"]],
    description: "leave a message in an agent's mailbox (sender: this pane's agent, else --from or 'user')",
    options: [["--from <name>", "sender name"]],
    input: ([to, words]: [string, string[]], o) => ({ to, text: words.join(" "), from: o.from as string | undefined }),
    text: (r) => `message #${r.message.id} left for ${r.message.to}`,
    inPane: {
      ownAgent: "from",
      otherwise: "user",
      relay: (input) => ({
        request: { kind: "msg", to: input.to, text: input.text },
        text: `message for ${input.to} handed to termhive (from a sandbox: it is left once a termhive server following this pane picks it up)`,
      }),
    },
  },
  grpc: "HiveMail",
  nullable: { "message.readAt": true },
});
