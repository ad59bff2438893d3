import { z } from "zod";
import { RUNS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_message",
  title: "Send cascading messages to agents",
  description:
    "Give each agent one text: its own (agents: {name: text}), else its nearest team's (teams), else broadcast. Typed and verified (delivered: the program took it); busy agents get it queued until idle (hive_queue). Then hive_wait {for: \"idle\"}.",
  input: {
    broadcast: z.string().min(1).optional(), teams: z.record(z.string(), z.string().min(1)).optional(), agents: z.record(z.string(), z.string().min(1)).optional(),
    submit: z.boolean().optional().describe("Press Enter (default true)."), confirm: z.boolean().optional().describe("Send even if the safety gate refuses."),
    when: z.enum(["idle", "now"]).optional().describe('idle (default): queue for busy agents; now: type at once.'),
  },
  family: "hive",
  annotations: RUNS,
  run: (s, input) => s.hive().message(input),
  text: (r) =>
    `delivered ${r.delivered}, queued ${r.queued}, failed ${r.failed}\n` +
    r.assignments.map((a) => `${a.agent} ← ${a.source}${a.delivered ? "" : a.queued ? " queued (busy; typed when idle)" : ` NOT delivered${a.note ? ` (${a.note})` : ""}`}`).join("\n"),
  grpc: "HiveMessage",
});
