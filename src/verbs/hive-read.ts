import { z } from "zod";
import { targets } from "./schemas/hive.js";
import { READS, defineVerb } from "./verb.js";
import type { WireRow } from "./wire.js";

export default defineVerb({
  name: "hive_read",
  title: "Read many sessions at once",
  description:
    "Read every target in parallel (default: its screen), with an optional filter regex and line limit per target.",
  input: {
    targets, filter: z.string().max(2000).optional(), lines: z.number().int().min(1).max(10_000).optional(), mode: z.enum(["auto", "new", "screen", "all"]).optional(),
    context: z.number().int().min(0).max(20).optional(), max_tokens: z.number().int().min(50).max(200_000).optional(),
  },
  family: "hive",
  annotations: READS,
  run: (s, input, ctx) => s.hive().read(input, ctx),
  text: (r) => r.results.map((x) => `── ${x.name}${x.agents.length ? ` (${x.agents.join(", ")})` : ""}\n${x.ok ? x.result!.output : `error: ${x.error}`}`).join("\n"),
  grpc: "HiveRead",
  // The proto reuses ReadResult for each target's result and keeps `truncated_lines` beside it.
  wire: {
    encode: (result) => ({ ...result, results: result.results.map((t: WireRow) => ({ ...t, truncated_lines: t.result?.truncated_lines })) }),
    decode: (r) => {
      for (const t of r.results) {
        if (t.result && t.truncated_lines !== undefined) t.result.truncated_lines = t.truncated_lines;
        delete t.truncated_lines;
      }
      return r;
    },
  },
  nullable: { "results[].result.exit_code": (result: { alive: boolean }) => !result.alive },
});
