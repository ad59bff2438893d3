import { z } from "zod";
import { targets } from "./schemas/hive.js";
import { RUNS, defineVerb } from "./verb.js";
import type { WireRow } from "./wire.js";

export default defineVerb({
  name: "hive_send",
  title: "Type into many sessions at once",
  description:
    "Type text into every target in parallel (Enter unless enter: false); results per target. skip_duplicates: skip a session whose last hive_send text was the same.",
  input: { targets, text: z.string().min(1).max(1024 * 1024), enter: z.boolean().optional(), skip_duplicates: z.boolean().optional(), confirm: z.boolean().optional() },
  family: "hive",
  annotations: RUNS,
  run: (s, input, ctx) => s.hive().send(input, ctx),
  text: (r) =>
    `sent to ${r.sent}, failed ${r.failed}\n` +
    r.results.map((x) => `${x.name}: ${x.ok ? ((x.result as { skipped?: string }).skipped ? "skipped (duplicate)" : "ok") : `error: ${x.error}`}`).join("\n"),
  grpc: "HiveSend",
  // The proto reuses SendResult for each target's result and keeps `skipped` beside it.
  wire: {
    encode: (result) => ({ ...result, results: result.results.map((t: WireRow) => ({ ...t, skipped: t.result?.skipped })) }),
    decode: (r) => {
      for (const t of r.results) {
        if (t.result && t.skipped !== undefined) t.result = { skipped: t.skipped, sent_bytes: t.result.sent_bytes };
        delete t.skipped;
      }
      return r;
    },
  },
});
