import { z } from "zod";
import { EVENT_KINDS } from "../hive/index.js";
import { targets } from "./schemas/hive.js";
import { READS, defineVerb } from "./verb.js";
import type { WireRow } from "./wire.js";

export default defineVerb({
  name: "hive_events",
  title: "Read hive events",
  description: "Status changes, watcher hits, messages and lifecycle events after since (pass the returned cursor next time).",
  input: { since: z.number().int().min(0).optional(), targets: targets.optional(), kinds: z.array(z.enum(EVENT_KINDS)).optional(), limit: z.number().int().min(1).max(1000).optional() },
  family: "hive",
  annotations: READS,
  run: (s, input) => s.hive().events(input),
  text: (r) =>
    `${r.events.length} events, cursor ${r.cursor}${r.more ? " (more)" : ""}${r.missed ? `, ${r.missed} pruned` : ""}\n` +
    r.events.map((e) => `#${e.id} ${e.kind} ${e.agent ?? e.sessionId ?? ""} ${JSON.stringify(e.data)}`).join("\n"),
  grpc: "HiveEvents",
  // An event's data is open-ended: it travels as JSON text.
  wire: {
    encode: (result) => ({ ...result, events: result.events.map((e: WireRow) => ({ ...e, data_json: JSON.stringify(e.data ?? {}) })) }),
    decode: (r) => {
      r.events = r.events.map(({ data_json, ...e }: WireRow) => ({ ...e, data: JSON.parse(data_json || "{}") }));
      return r;
    },
  },
  nullable: { "events[].agent": true, "events[].sessionId": true },
});
