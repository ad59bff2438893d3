import { z } from "zod";
import { name } from "./schemas/hive.js";
import { sandboxOption } from "../sandbox/policy.js";
import { WRITES, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_split",
  title: "Split a session's pane",
  description: "Open a new pane next to an existing session (left/right/above/below), optionally as an agent.",
  input: {
    session: z.string(), direction: z.enum(["left", "right", "above", "below"]), name: name.optional(), command: z.string().optional(), cwd: z.string().optional(),
    percent: z.number().min(5).max(95).optional(), agent: name.optional(), team: name.optional(), profile: name.optional(),
    host: z.string().max(512).optional().describe("Must be the split session's host (the default)."),
    // As agent_spawn's (same defaults and refusal): listed bare, like hive_layout's panes.
    sandbox: sandboxOption.meta({ "x-listed-as": {} }).optional(), confirm: z.boolean().optional(),
  },
  family: "hive",
  annotations: WRITES,
  run: (s, input) => s.hive().split(input),
  text: (r) => `split ${r.split_from} ${r.direction}: ${r.name} (${r.session}) ${r.ready}`,
  grpc: "HiveSplit",
});
