import { z } from "zod";
import { defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_message",
  title: "Send cascading messages to agents",
  description:
    "Give every agent exactly one text: its own (agents), else its nearest team's (teams), else the broadcast. Typed reliably into the agent's TUI (bracketed paste, Enter after it settles, verified, retried once). delivered is true only when the program visibly took the input. An agent that is busy (working, waiting for input) gets the text queued and typed when it is next idle (when: \"now\" types at once); see hive_queue. hive_wait {for: \"idle\"} right after waits for the work the message started.",
  input: {
    broadcast: z.string().min(1).optional(), teams: z.record(z.string(), z.string().min(1)).optional(), agents: z.record(z.string(), z.string().min(1)).optional(),
    submit: z.boolean().optional().describe("Press Enter (default true)."), confirm: z.boolean().optional().describe("Send even texts the safety gate refuses (as for hive_send)."),
    when: z.enum(["idle", "now"]).optional().describe('"idle" (default): an agent that is busy gets the text queued and typed when it is next idle. "now": type at once.'),
  },
  family: "hive",
  run: (s, input) => s.hive().message(input),
  text: (r) =>
    `delivered ${r.delivered}, queued ${r.queued}, failed ${r.failed}\n` +
    r.assignments.map((a) => `${a.agent} ← ${a.source}${a.delivered ? "" : a.queued ? " queued (busy; typed when idle)" : ` NOT delivered${a.note ? ` (${a.note})` : ""}`}`).join("\n"),
  grpc: "HiveMessage",
});
