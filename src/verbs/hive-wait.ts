import { z } from "zod";
import { targets } from "./schemas/hive.js";
import { READS, defineVerb } from "./verb.js";

export default defineVerb({
  name: "hive_wait",
  title: "Wait for agents",
  description: "Block until targets are idle, waiting_for_input, exited, or show a regex (pattern) — any or all of them — or the timeout passes.",
  input: {
    targets, for: z.enum(["idle", "waiting_for_input", "pattern", "exited"]), pattern: z.string().max(2000).optional(), mode: z.enum(["any", "all"]).optional(),
    timeout_s: z.number().min(0.05).max(3600).optional(),
  },
  family: "hive",
  annotations: READS,
  run: (s, input, ctx) => s.hive().wait(input, ctx),
  text: (r) => `${r.matched ? "matched" : "timeout"} after ${r.elapsed_ms} ms\n` + r.targets.map((t) => `${t.name}: ${t.met ? "✓" : "·"} ${t.detail}`).join("\n"),
  grpc: "HiveWait",
  nullable: { "targets[].agents[].detail": true },
});
